"""Several lists offered as one Collections capability (a store holds one of each capability): a kind
whose lists come from separate readers (its users from one module, its inbox and channels from another)
offers them together. Every call that names a list goes to the reader that lists it."""

from __future__ import annotations

from daycare_gui.stores.api import Collections, Listing
from daycare_gui.stores.records import Collection

# The calls whose first argument is a list's id (Collections' and Listing's).
_BY_LIST = ("size", "rows", "items", "editable", "update", "search_columns", "search_rows", "row_actions",
            "run_row_action", "create_fields", "create", "row", "filters", "sorts", "list_columns", "list_rows",
            "totals", "keys", "fetch")


class CollectionUnion(Collections, Listing):
    def __init__(self, *parts: Collections) -> None:
        self.parts = parts
        self._owner: dict[str, Collections] = {}

    def collections(self) -> list[Collection]:
        out = []
        for part in self.parts:
            for c in part.collections():
                self._owner.setdefault(c.id, part)
                out.append(c)
        return out

    def owner(self, list_id: str) -> Collections:
        """The reader of ``list_id``; a list no reader names (a child list shown under a row) goes to the
        first, whose lists own such children."""
        if list_id not in self._owner:
            self.collections()
        return self._owner.get(list_id, self.parts[0])


def _delegate(name: str):
    def call(self, list_id, *args, **kwargs):
        return getattr(self.owner(list_id), name)(list_id, *args, **kwargs)
    call.__name__ = name
    return call


for _name in _BY_LIST:
    setattr(CollectionUnion, _name, _delegate(_name))
