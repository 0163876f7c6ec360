"""Whatever a kind hands the shared index (any text, lone surrogates, odd ids and roles, no times) is
indexed, and whatever a person types as a query is answered: never an exception."""

from __future__ import annotations

import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from daycare_gui.stores.records import Message, SessionRef, ToolCallRecord, ToolResultRecord


class ListSource(SearchSource):
    """A SearchSource over a list: the cursor is the item's place, zero-padded."""

    def __init__(self, items: list[tuple[SessionRef, Message]]) -> None:
        self.items = items

    def identity(self) -> str:
        return "list:\udc80"  # even an identity that is not valid UTF-8

    def messages(self, after):
        start = int(after) + 1 if after else 0
        for i in range(start, len(self.items)):
            yield f"{i:08d}", *self.items[i]


any_text = st.text(st.characters(blacklist_categories=()), max_size=80)
messages = st.builds(
    Message, id=any_text, role=any_text, text=any_text,
    at=st.one_of(st.none(), st.integers(-2**62, 2**62)), kind=any_text,
    tool_calls=st.lists(st.builds(ToolCallRecord, any_text, any_text,
                                  st.one_of(st.none(), any_text, st.dictionaries(any_text, any_text, max_size=3))),
                        max_size=2).map(tuple),
    tool_result=st.one_of(st.none(), st.builds(ToolResultRecord, any_text, any_text, any_text)))
items = st.lists(st.tuples(st.builds(SessionRef, any_text, any_text), messages), max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=items, query=any_text, roles=st.lists(any_text, max_size=2))
def test_anything_is_indexed_and_any_query_answered(items, query, roles):
    with tempfile.TemporaryDirectory() as folder, SourceIndex(f"{folder}/i.sqlite") as index:
        source = ListSource(items)
        built = update_source_index(source, index, batch=5)
        assert built.rows == len(items)
        assert update_source_index(source, index).status == "up to date"
        for newest in (False, True):
            results = search_source(index, query, SourceFilter(roles=tuple(roles)), newest_first=newest)
            assert len(results.hits) <= len(items)
