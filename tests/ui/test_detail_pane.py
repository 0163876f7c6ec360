"""The detail pane keeps up with a held arrow key: it fills only the tab in view, and renders the last of a
quick run of selections once they stop, not each one."""

from __future__ import annotations

from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.widgets.detail_pane import DetailPane


def _item(n: int, **kw) -> DetailItem:
    return DetailItem(f"Record #{n}", (("Id", str(n)), ("Type", "note")), {"id": n, "text": f"body {n}"}, **kw)


def test_only_the_visible_tab_is_filled_and_others_when_opened(qtbot):
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_item(_item(1, markdown="# Heading one"))
    assert pane.shown_item is pane.item
    assert pane.fields.item(0, 1).text() == "1"
    assert pane.raw.toPlainText() == "" and pane.text.toPlainText() == ""  # not shown, not rendered
    pane.tabs.setCurrentWidget(pane.raw)
    assert '"text": "body 1"' in pane.raw.toPlainText()
    pane.tabs.setCurrentWidget(pane.text)
    assert pane.text.toPlainText().startswith("Heading one")


def test_a_quick_run_of_selections_renders_the_first_and_the_last(qtbot):
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.tabs.setCurrentWidget(pane.raw)
    rendered = []
    pane.shown.connect(rendered.append)
    items = [_item(n) for n in range(50)]
    for item in items:  # faster than any key repeat
        pane.show_item(item)
        assert pane.item is item and pane.heading.text() == f"<b>{item.title}</b>"  # the heading follows at once
    qtbot.waitUntil(lambda: pane.shown_item is items[-1], timeout=2000)
    assert rendered == [items[0], items[-1]]
    assert '"id": 49' in pane.raw.toPlainText()


def test_clearing_is_immediate_and_the_text_tab_follows_the_item(qtbot):
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show_item(_item(1, markdown="Some *text*"))
    pane.tabs.setCurrentWidget(pane.text)
    pane.show_item(_item(2))  # no Markdown: the Text tab is disabled and Fields shown
    assert not pane.tabs.isTabEnabled(1) and pane.tabs.currentWidget() is pane.fields
    pane.show_item(_item(3, prefer_raw=True))
    assert pane.tabs.currentWidget() is pane.raw
    pane.show_item(None)
    assert pane.shown_item is None and pane.heading.text() == "Nothing selected" and pane.fields.rowCount() == 0
