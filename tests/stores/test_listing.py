"""The Listing defaults: a kind with small lists gets filtering, sorting and keyed fetches for free."""

from daycare_gui.stores.api import Collections, Listing
from daycare_gui.stores.records import Collection, Query, Row


class _People(Collections, Listing):
    def collections(self):
        return [Collection("people", "People", ("Name", "Agents"))]

    def size(self, collection_id):
        return len(self.list_rows(collection_id))

    def rows(self, collection_id, offset, limit):
        return self.list_rows(collection_id)[offset:offset + limit]

    def list_rows(self, list_id):
        return [Row("u1", ("Bob", 3), flag="stuck"), Row("u2", ("alice", None)), Row("u3", ("Carl", 1))]


def test_words_flags_and_sorts_are_done_by_the_store():
    people = _People()
    assert people.keys("people", Query()) == ["u1", "u2", "u3"]
    assert people.keys("people", Query(text="AL")) == ["u2"]
    assert people.keys("people", Query(flags=frozenset({"stuck"}))) == ["u1"]
    # an empty cell sorts last whichever way, and text sorts without case
    assert people.keys("people", Query(sort="Agents")) == ["u3", "u1", "u2"]
    assert people.keys("people", Query(sort="Name", descending=True)) == ["u3", "u1", "u2"]
    assert people.totals("people", Query()) == {"stuck": 1}


def test_fetch_keeps_the_asked_order_and_skips_rows_gone_meanwhile():
    assert [r.key for r in _People().fetch("people", ["u3", "gone", "u1"])] == ["u3", "u1"]


def test_lists_from_two_readers_answer_as_one_capability():
    from daycare_gui.stores.common.collection_union import CollectionUnion

    class _Inbox(_People):
        def collections(self):
            return [Collection("inbox", "Inbox", ("Item",))]

        def list_rows(self, list_id):
            return [Row("i1", ("late",), flag="stuck")]

    both = CollectionUnion(_Inbox(), _People())
    assert [c.id for c in both.collections()] == ["inbox", "people"]
    assert both.keys("people", Query(text="carl")) == ["u3"] and both.keys("inbox", Query()) == ["i1"]
    assert both.size("people") == 3 and both.totals("inbox", Query()) == {"stuck": 1}
