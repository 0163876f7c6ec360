"""Sections with nothing in them fold into one "Empty" line instead of a column of "(0)" (issue 33), and come
back to their own place when rows arrive; the page shown stays marked through both moves."""

from PySide6.QtGui import QFontMetrics

from daycare_gui.ui.panes.registry import PaneSpec
from daycare_gui.ui.widgets.navigation import NavIdRole, NavigationTree

SPECS = (
    PaneSpec("overview", "Overview", "m", "C"),
    PaneSpec("users", "Users", "m", "C"),
    PaneSpec("inbox", "Inbox", "m", "C"),
    PaneSpec("channels", "Channels", "m", "C"),
    PaneSpec("v:a", "Versions of A", "m", "C", group="Versions"),
    PaneSpec("v:b", "Versions of B", "m", "C", group="Versions"),
    PaneSpec("problems", "Problems", "m", "C"),
)


def _top(nav) -> list[str]:
    root = nav.nav_model.invisibleRootItem()
    rows = [root.child(r) for r in range(root.rowCount())]
    return [(i.data(NavIdRole) or i.text()) for r, i in enumerate(rows) if not nav.isRowHidden(r, root.index())]


def _in_empty(nav) -> list[str]:
    root = nav.nav_model.invisibleRootItem()
    for r in range(root.rowCount()):
        if root.child(r).text().startswith("Empty"):
            folder = root.child(r)
            return [folder.child(c).data(NavIdRole) for c in range(folder.rowCount())]
    return []


def test_empty_sections_fold_into_one_line_and_come_back(qtbot):
    nav = NavigationTree()
    qtbot.addWidget(nav)
    nav.set_sections(SPECS)
    nav.select("channels")
    for nav_id, count in {"users": 2, "inbox": 0, "channels": 0, "v:a": 0, "v:b": 0, "problems": 0}.items():
        nav.set_count(nav_id, count)
    assert _top(nav) == ["overview", "users", "Empty  (4)", "problems"]  # Problems (0) stays: it is news
    assert _in_empty(nav) == ["inbox", "channels", "v:a", "v:b"]  # a group all empty goes with its sections
    assert nav.currentIndex().data(NavIdRole) == "channels"  # the page shown is still the one marked
    nav.set_count("channels", 3)  # rows arrived (live follow): back in its own place
    nav.set_count("v:b", 1)
    assert _top(nav) == ["overview", "users", "channels", "Versions", "Empty  (2)", "problems"]
    assert _in_empty(nav) == ["inbox", "v:a"]
    assert nav.currentIndex().data(NavIdRole) == "channels"
    nav.set_count("inbox", 1)
    nav.set_count("v:a", 5)
    assert _top(nav) == ["overview", "users", "inbox", "channels", "Versions", "problems"]  # no Empty left


def test_choosing_a_folded_section_still_opens_it(qtbot):
    nav = NavigationTree()
    qtbot.addWidget(nav)
    nav.set_sections(SPECS)
    nav.set_count("inbox", 0)
    with qtbot.waitSignal(nav.section_selected) as chosen:
        nav.setCurrentIndex(nav._items["inbox"].index())
    assert chosen.args == ["inbox"]


def test_counts_that_arrive_together_show_as_one_at_a_time_would_and_are_measured_once(qtbot, monkeypatch):
    """The window's count job answers for every section at once: the labels and folds come out as the
    counts one by one made them, and every label is measured once for the lot, not once per count (a
    loaded machine's start-up turn spent ~50 ms measuring the same labels again)."""
    counts = {"users": 2, "inbox": 0, "channels": 1_234_567, "v:a": 0, "v:b": 0, "problems": 0}
    one_by_one = NavigationTree()
    qtbot.addWidget(one_by_one)
    one_by_one.set_sections(SPECS)
    for nav_id, count in counts.items():
        one_by_one.set_count(nav_id, count)
    together = NavigationTree()
    qtbot.addWidget(together)
    together.set_sections(SPECS)
    together.needed_width()
    measured = []
    real = QFontMetrics.horizontalAdvance
    monkeypatch.setattr(QFontMetrics, "horizontalAdvance", lambda self, *a: measured.append(a) or real(self, *a))
    together.set_counts(counts)
    assert _top(together) == _top(one_by_one) and _in_empty(together) == _in_empty(one_by_one)
    assert [i.text() for i in together._items.values()] == [i.text() for i in one_by_one._items.values()]
    assert together.needed_width() == one_by_one.needed_width()
    assert 0 < len(measured) <= 2 * len(SPECS) + 1  # every label (and its bare title) once, and "  (9,999)"


def test_a_grouped_section_in_the_empty_folder_is_named_with_its_group_where_titles_meet(qtbot):
    """Out of its group, PGlite's versions of channels read "Channels (0)" right under the Channels list's
    own: in the Empty folder it says which group it comes from (only where another section has its title:
    every label in full is the navigation's minimum width), and drops that once home."""
    specs = (*SPECS, PaneSpec("v:channels", "Channels", "m", "C", group="Versions"))
    nav = NavigationTree()
    qtbot.addWidget(nav)
    nav.set_sections(specs)
    nav.set_counts({"channels": 0, "v:channels": 0, "v:a": 0})
    labels = {i: nav._items[i].text() for i in ("channels", "v:channels", "v:a")}
    assert labels == {"channels": "Channels  (0)", "v:channels": "Versions: Channels  (0)", "v:a": "Versions of A  (0)"}
    assert nav._items["v:channels"].toolTip() == "Versions: Channels"
    nav.set_count("v:channels", 2)
    assert nav._items["v:channels"].text() == "Channels  (2)"
    assert nav._items["v:channels"].parent().text() == "Versions"
