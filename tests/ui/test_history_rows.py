"""The shared conversation view's message list: rows drawn once into images and blitted after that, so
repainting (scrolling back, hovering, selecting) costs no text layout; the pixels are the same either way;
only shown rows are decoded (a Daycare SQLite store hands its pages undecoded)."""

from __future__ import annotations

import time

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QApplication

from daycare_gui.stores.records import Message
from daycare_gui.ui.widgets.history_rows import HistoryRowDelegate
from tests.core.test_history_pages import BIG_SESSION, add_big_session
from tests.ui.conftest import open_and_wait


def _open_big(qtbot, window, tmp_path_factory):
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path_factory.mktemp("rows") / "daycare"
    write_demo(root)
    agent_id = add_big_session(root, 1_000)
    open_and_wait(qtbot, window, root)
    window.resize(1000, 700)
    window.navigate("history", (agent_id, BIG_SESSION, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1_000, timeout=10000)
    pane.go_first()
    qtbot.waitUntil(lambda: pane.model.is_loaded(0), timeout=5000)
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    return pane


def _shot(pane):
    return pane.list.viewport().grab().toImage()


def test_rows_are_drawn_once_and_repainted_from_their_images(qtbot, window, tmp_path_factory, model_tester):
    pane = _open_big(qtbot, window, tmp_path_factory)
    model_tester(pane.model)
    delegate = pane.list.itemDelegate()
    first = _shot(pane)
    visible = pane.list.rowAt(pane.list.viewport().height() - 1) - pane.list.rowAt(0) + 1
    drawn = delegate.rows_rendered
    assert 0 < drawn  # the screen was drawn
    again = _shot(pane)
    assert delegate.rows_rendered == drawn  # a repaint draws no row again
    assert again == first  # and shows exactly the same pixels
    delegate.clear_cache()
    assert _shot(pane) == first  # drawn afresh: the images were a faithful copy
    # every row on screen drawn once more (rows are drawn in blocks of eight: a block at each edge of
    # the screen brings a few rows beyond it)
    assert drawn + visible <= delegate.rows_rendered <= drawn + visible + 2 * delegate.BLOCK

    # Selecting a row redraws that row alone (its text takes the highlight colour), nothing else.
    before = delegate.rows_rendered
    pane.list.selectionModel().select(pane.model.index(3), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    selected = _shot(pane)
    assert delegate.rows_rendered - before <= 2  # the newly selected row (and the one that lost it)
    assert selected != first


def test_only_the_rows_shown_are_decoded(qtbot, window, tmp_path_factory):
    pane = _open_big(qtbot, window, tmp_path_factory)
    _shot(pane)
    page = pane.model._pages[0]
    shown = pane.list.rowAt(pane.list.viewport().height() - 1) + 1
    decoded = [e.decoded for e in page]
    assert all(decoded[:shown])  # every row on screen was decoded to be drawn
    assert not all(decoded)  # the rest of the page waits until it is shown or asked for
    far = len(page) - 1
    assert int(pane.model.record(far).id) > int(pane.model.record(0).id)  # asking decodes it
    assert page[far].decoded


def test_home_and_end_are_ready_before_they_are_pressed(qtbot, window, tmp_path_factory):
    """A long session opens at its end; its first page is read in the background, so Ctrl+Home shows the
    first record at once (no "…" placeholders painted first), and back at the end likewise."""
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path_factory.mktemp("ends") / "daycare"
    write_demo(root)
    agent_id = add_big_session(root, 5_000)
    open_and_wait(qtbot, window, root)
    window.navigate("history", (agent_id, BIG_SESSION, None))
    pane = window.panes["history"]
    model = pane.model
    qtbot.waitUntil(lambda: model.rowCount() == 5_000 and pane.current_row() == 4_999, timeout=10000)
    qtbot.waitUntil(lambda: model.is_loaded(0), timeout=5000)  # read without anyone asking
    pane.go_first()
    assert model.record(0) is not None and "question 0" in model.record(0).text  # no wait, no placeholder
    pane.go_last()
    assert model.record(4_999) is not None


def test_another_session_never_shows_the_last_ones_rows(qtbot, window, fixture_copy):
    """Legacy sessions key their records by line number, so two agents' files share ids: switching from one
    to the other must draw the second's rows, not the first's remembered images."""
    import shutil

    root = fixture_copy("daycare-808af509", with_db=False)
    other = root / "agents" / "agentusr2"
    shutil.copytree(root / "agents" / "agentusr1", other)
    history = other / "history.jsonl"
    history.write_text(history.read_text().replace("hello", "bonjour").replace("hi!", "salut !"))
    open_and_wait(qtbot, window, root)
    window.resize(1200, 700)
    pane = window.pane("history")
    pane.list.parentWidget().setSizes([700, 200])  # wide enough for the summaries to show
    for agent, words in (("agentusr1", ("hello", "hi!")), ("agentusr2", ("bonjour", "salut !"))):
        window.navigate("history", ("legacy", agent, 0))
        qtbot.waitUntil(lambda w=words: pane.model.rowCount() == 2 and w[0] in pane.model.index(0).data(),
                        timeout=5000)
        shown = _shot(pane)
        pane.list.setItemDelegate(HistoryRowDelegate(pane.list))  # nothing remembered from before
        assert _shot(pane) == shown  # what was shown is what this session's rows look like drawn afresh
        pane.model.modelReset.connect(pane.list.itemDelegate().clear_cache)  # as the pane wires its own


def test_the_list_paints_its_rows_as_qts_own_row_by_row_paint_does(qtbot, window, tmp_path_factory):
    """The record list paints a whole repaint in one call; Qt's table paints row by row through the
    delegate. The pixels are the same, a selected row (its highlight and text colour) included."""
    pane = _open_big(qtbot, window, tmp_path_factory)
    pane.list.selectionModel().select(pane.model.index(2), QItemSelectionModel.SelectionFlag.ClearAndSelect
                                      | QItemSelectionModel.SelectionFlag.Rows)
    rows_before = pane.list.rows.rows_rendered
    one_call = _shot(pane)
    assert pane.list.rows.rows_rendered > rows_before or rows_before > 0  # drawn through the row painter
    pane.list.setItemDelegate(HistoryRowDelegate(pane.list))  # another delegate: Qt paints row by row
    row_by_row = _shot(pane)
    assert row_by_row == one_call
    assert pane.list.itemDelegate().rows_rendered > 0  # (it really was the other path)


def test_the_row_under_the_mouse_is_the_one_hovered_after_the_list_scrolls(qtbot, window, tmp_path_factory):
    """The hover background (drawn by styles that draw one) belongs to the row under the mouse: after the
    wheel scrolls the list, that is another row, though the mouse did not move."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QHoverEvent
    from PySide6.QtWidgets import QApplication

    pane = _open_big(qtbot, window, tmp_path_factory)
    view = pane.list
    hovered = []
    real = view.rows.paint_rows
    view.rows.paint_rows = lambda *a: (hovered.append(a[-1]), real(*a))
    y = view.rowViewportPosition(3) + view.rowHeight(3) // 2
    at = QPointF(40, y)
    QApplication.sendEvent(view.viewport(), QHoverEvent(QEvent.Type.HoverMove, at, at, QPointF(0, 0),
                                                        Qt.KeyboardModifier.NoModifier))
    view.viewport().repaint()
    assert hovered[-1] == view.rowAt(0) + 3
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 10)  # as a wheel turn does
    view.viewport().repaint()
    assert hovered[-1] == view.rowAt(0) + 3 == view.rowAt(y)  # the row now under the mouse
    QApplication.sendEvent(view.viewport(), QHoverEvent(QEvent.Type.HoverLeave, QPointF(-1, -1), QPointF(-1, -1),
                                                        QPointF(0, 0), Qt.KeyboardModifier.NoModifier))
    view.viewport().repaint()
    assert hovered[-1] == -1


def _block_of(summaries, width: int = 700, height: int = 22):
    """The image of one block of rows with these summaries, as the record list draws it."""
    from PySide6.QtWidgets import QTableView

    recs = [Message(str(i + 1), "user", text, at=1_700_000_000_000 + i, kind="user_message")
            for i, text in enumerate(summaries)]

    class Rows:
        def rowCount(self):  # noqa: N802
            return len(recs)

        def paint_entry(self, row):
            return recs[row], "user"

        def paint_token(self, row):
            return 1

    view = QTableView()
    rows = HistoryRowDelegate(view)
    rows._ratio = 1.0
    rows._theme(view.palette())
    rows._fill_for(view.palette())
    image = rows._block_for(Rows(), 0, len(recs) - 1, width, height, view.font(), view.palette())[0].toImage()
    view.deleteLater()
    return image


def test_a_long_summary_is_cut_off_inside_its_row(qtbot):
    """Rows are drawn without the font's optional kerning (faster), so they must be measured that way too:
    a summary measured with kerning and drawn without it runs past the row's end. Capital pairs such as
    "AV" kern the most."""
    width, height = 600, 22
    image = _block_of(["AVAWAYATVAVYWAVA" * 40], width, height)
    background = image.pixelColor(width - 1, height - 1)  # (the block is drawn on the view's background)
    inked = [x for x in range(image.width()) for y in range(height) if image.pixelColor(x, y) != background]
    assert max(inked) < width - 4  # the summary ends inside the row's margin...
    assert max(inked) > width - 60  # ...after filling the row up to it (it is long: it was cut off)


def test_text_that_needs_shaping_is_still_shaped(qtbot, monkeypatch):
    """Arabic letters join, and emoji sequences (a family, a flag, a skin tone) are one picture each: drawn
    exactly as the view's own font draws them, not through the faster unshaped path plain text takes."""
    import daycare_gui.ui.widgets.history_rows as history_rows

    summaries = ["مرحبا بالعالم", "family 👨\u200d👩\u200d👧 at the table", "flag 🇵🇹 and 👍🏽"]
    drawn = _block_of(summaries)
    monkeypatch.setattr(history_rows, "_NEEDS_SHAPING", lambda text: True)  # everything through the shaper
    assert _block_of(summaries) == drawn
    monkeypatch.setattr(history_rows, "_NEEDS_SHAPING", lambda text: False)  # everything unshaped
    assert _block_of(summaries) != drawn  # (so the first comparison could fail)



def test_times_with_a_narrow_no_break_space_are_drawn_alike_unshaped(qtbot, monkeypatch):
    """Most locales write a narrow no-break space before "AM"/"PM" ("10:16:40\u202fAM" in US English):
    text holding one takes the faster unshaped path, and is drawn exactly as the shaper draws it."""
    import daycare_gui.ui.widgets.history_rows as history_rows

    texts = ["11/28/2025 10:16:40\u202fAM", "28/11/2025 10:16:40\u202fπ.μ.", "28.11.2025 10:16:40\u202fe paradites"]
    assert not any(history_rows._NEEDS_SHAPING(t) for t in texts)
    drawn = _block_of(texts)
    monkeypatch.setattr(history_rows, "_NEEDS_SHAPING", lambda text: True)  # everything through the shaper
    assert _block_of(texts) == drawn

def test_a_block_drawn_before_is_checked_once_against_its_pages_token(qtbot):
    """Rows drawn before are copied after one check of their page's token (not row by row). When the page
    was read again the token differs: the same records keep their images, other records are drawn anew."""
    from PySide6.QtCore import QAbstractListModel, QModelIndex

    from daycare_gui.ui.widgets.history_list import HistoryList

    def records(first_id, words):
        return [Message(str(first_id + i), "user", f"{words} {i}", at=1_700_000_000_000 + i * 1000,
                        kind="user_message") for i in range(40)]

    class Rows(QAbstractListModel):
        def __init__(self):
            super().__init__()
            self.recs, self.token, self.asked = records(1, "first words"), 1, 0

        def rowCount(self, parent=QModelIndex()):  # noqa: N802
            return 0 if parent.isValid() else len(self.recs)

        def data(self, index, role=0):
            return None

        def paint_entry(self, row):
            self.asked += 1
            return self.recs[row], "user"

        def paint_token(self, row):
            return self.token

    view = HistoryList()
    qtbot.addWidget(view)
    model = Rows()
    view.setModel(model)
    view.horizontalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    view.resize(600, 300)
    shown = view.viewport().grab().toImage()
    drawn = view.rows.rows_rendered
    assert drawn > 0
    model.asked = 0
    assert view.viewport().grab().toImage() == shown
    assert view.rows.rows_rendered == drawn and model.asked == 0  # copied, no row asked for

    model.token = 2  # the page read again, with the same records: checked row by row once, not drawn
    assert view.viewport().grab().toImage() == shown
    assert view.rows.rows_rendered == drawn and model.asked > 0

    model.recs[:8] = records(1_000, "other words")[:8]  # read again, and the first block's records differ
    model.token = 3
    changed = view.viewport().grab().toImage()
    assert changed != shown
    assert view.rows.rows_rendered == drawn + 8  # that block alone was drawn again
    view.rows.clear_cache()
    assert view.viewport().grab().toImage() == changed  # as a list drawing them afresh shows them


def _token_list(qtbot, rows: int = 40, height: int = 22):
    """A record list of ``rows`` records (one page, token 1) and the model counting rows asked for."""
    from PySide6.QtCore import QAbstractListModel, QModelIndex

    from daycare_gui.ui.widgets.history_list import HistoryList

    recs = [Message(str(1 + i), "user", f"words {i}", at=1_700_000_000_000 + i * 1000, kind="user_message")
            for i in range(rows)]

    class Rows(QAbstractListModel):
        def rowCount(self, parent=QModelIndex()):  # noqa: N802
            return 0 if parent.isValid() else len(recs)

        def data(self, index, role=0):
            return None

        def paint_entry(self, row):
            return recs[row], "user"

        def paint_token(self, row):
            return 1

    view = HistoryList()
    qtbot.addWidget(view)
    view.setModel(Rows())
    view.horizontalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(height)
    return view


def test_a_paint_draws_no_row_below_the_screens_last(qtbot):
    """Rows are drawn in blocks, but only as far down as a paint shows them: the rows of the screen's last
    block below its last row are drawn into that block once they are scrolled into view, not before (and
    the rows above are not drawn again)."""
    view = _token_list(qtbot)
    view.resize(600, 300)  # 14 rows of 22 px (13.6): the second block of eight is shown in part
    view.viewport().grab()
    shown = view.rowAt(view.viewport().height() - 1) + 1
    assert shown % view.rows.BLOCK  # (a block shown in part)
    assert view.rows.rows_rendered == shown
    view.verticalScrollBar().setValue(1)  # one row down: one more row shown
    scrolled = view.viewport().grab().toImage()
    assert view.rows.rows_rendered == shown + 1
    view.rows.clear_cache()
    assert view.viewport().grab().toImage() == scrolled  # the block drawn in two goes looks as drawn in one


def test_plain_rows_are_drawn_opaque_and_look_as_drawn_over_the_background(qtbot, window, tmp_path_factory):
    """A block of plain rows is drawn onto the view's background colour (copying it is a plain copy, no
    blend of every pixel): the list looks exactly as with the rows drawn transparent over that background."""
    from PySide6.QtCore import Qt

    pane = _open_big(qtbot, window, tmp_path_factory)
    palette = pane.list.palette()  # (a disabled view's background: another colour of the same palette)
    palette.setColor(palette.ColorGroup.Disabled, palette.ColorRole.Base, Qt.GlobalColor.darkCyan)
    pane.list.setPalette(palette)
    delegate = pane.list.rows
    opaque = _shot(pane)
    assert delegate._blocks and not any(entry[0].hasAlphaChannel() for entry in delegate._blocks.values())
    delegate._fill = Qt.GlobalColor.transparent  # as they were drawn before: over the viewport's background
    delegate.clear_cache()
    assert _shot(pane) == opaque
    assert all(entry[0].hasAlphaChannel() for entry in delegate._blocks.values())  # (it was the other way)

    # Disabled, the view's background is the palette's other colour: the blocks follow it
    delegate.clear_cache()
    _shot(pane)
    pane.list.setEnabled(False)
    disabled = _shot(pane)
    top = pane.list.rowViewportPosition(5)  # (a plain row's margin above its text)
    assert disabled.pixelColor(disabled.width() // 2, top + 1) == Qt.GlobalColor.darkCyan
    assert not any(entry[0].hasAlphaChannel() for entry in delegate._blocks.values())
    delegate._fill = Qt.GlobalColor.transparent
    delegate.clear_cache()
    assert _shot(pane) == disabled


def test_a_paint_looks_the_locales_time_format_up_once(qtbot, monkeypatch):
    """Every block a paint draws writes its rows' times in the locale's format, looked up once for the
    paint (it cost more than formatting a block's eight times), and again by the next paint (the locale may
    have changed in between)."""
    import daycare_gui.ui.widgets.history_rows as history_rows

    looked_up = []
    real = history_rows.date_time_formatter
    monkeypatch.setattr(history_rows, "date_time_formatter", lambda: (looked_up.append(1), real())[1])
    view = _token_list(qtbot)
    view.resize(600, 400)  # three blocks of rows
    view.viewport().grab()
    assert view.rows.rows_rendered > 2 * view.rows.BLOCK and len(looked_up) == 1
    view.verticalScrollBar().setValue(20)
    view.viewport().grab()
    assert len(looked_up) == 2


def test_a_scroll_step_paints_the_rows_and_the_scroll_bar_alone(qtbot, window, tmp_path_factory):
    """Each scroll step repaints the rows and the scroll bar; the bar, filled with the colour that showed
    through it, no longer has every widget behind it painted first (the window, its splitters, the page,
    the list's frame: ten paint events a step). The window looks the same either way."""
    from PySide6.QtCore import QEvent, QObject

    pane = _open_big(qtbot, window, tmp_path_factory)
    bar = pane.list.verticalScrollBar()

    class Paints(QObject):
        def __init__(self):
            super().__init__()
            self.rows = self.bar = False
            self.behind = []  # the list and the widgets it sits in that were painted

        def eventFilter(self, obj, event):  # noqa: N802
            if event.type() == QEvent.Type.Paint:
                self.last = time.monotonic()
                self.rows |= obj is pane.list.viewport()
                self.bar |= obj is bar
                if obj is pane.list or (obj.isWidgetType() and obj.isAncestorOf(pane.list)):
                    self.behind.append(type(obj).__name__)
            return False

    paints = Paints()
    paints.last = time.monotonic()
    QApplication.instance().installEventFilter(paints)
    try:
        # The window settled: no paint for 300 ms (the session's late answers — its count, the heading,
        # the Details dock — each repaint the page, and one of them landing in the step was counted)
        qtbot.waitUntil(lambda: time.monotonic() - paints.last > 0.3 and not window.worker.is_busy()
                        and not window.bg_worker.is_busy(), timeout=10000)
        paints.rows = paints.bar = False
        paints.behind.clear()
        bar.setValue(bar.value() + 3)
        qtbot.waitUntil(lambda: paints.rows, timeout=2000)
        QApplication.processEvents()
    finally:
        QApplication.instance().removeEventFilter(paints)
    assert paints.rows and paints.bar
    assert paints.behind == []  # nothing behind them

    filled = window.grab().toImage()
    bar.setAutoFillBackground(False)
    assert window.grab().toImage() == filled


def test_a_long_scroll_paints_over_old_block_images_and_shows_only_the_new_rows(qtbot, window, tmp_path_factory,
                                                                               monkeypatch):
    """Scrolling past more blocks than the cache keeps paints the oldest blocks' images over for the rows
    now shown, rather than making an image per block: every screen still looks exactly as its rows drawn
    afresh, nothing left of what an image held before — down to the session's end, whose last block is short."""
    pane = _open_big(qtbot, window, tmp_path_factory)
    delegate = pane.list.rows
    made = []
    monkeypatch.setattr(delegate, "_image", lambda *a, **k: made.append(1) or HistoryRowDelegate._image(delegate, *a, **k))
    bar = pane.list.verticalScrollBar()
    for tops in (range(0, 500, 25), [*range(500, bar.maximum(), 25), bar.maximum()]):
        made.clear()
        drawn = delegate.rows_rendered
        for top in tops:  # each screen shows rows no block held before
            bar.setValue(top)
            qtbot.waitUntil(lambda t=top: pane.model.is_loaded(t) and pane.model.is_loaded(min(999, t + 30)))
            shown = _shot(pane)
        assert (delegate.rows_rendered - drawn) // delegate.BLOCK > 2 * delegate.BLOCK_CACHE  # many blocks drawn…
        assert len(made) <= delegate.BLOCK_CACHE  # …into no more images than the cache keeps
        delegate.clear_cache()
        assert _shot(pane) == shown  # the same rows drawn into new images look the same




def test_a_time_with_am_or_pm_is_shown_whole_before_the_kind_badge(qtbot):
    """The time column is as wide as the locale writes its times: in US English ("11/28/2025 10:16:40 PM")
    the "PM" ran under the kind's badge when the column was measured on "2025-11-28 10:16:40". Each row's
    time ends before its badge begins, in every locale tried, and the column follows a change of locale."""
    from PySide6.QtCore import QLocale
    from PySide6.QtGui import QFontMetrics

    from daycare_gui.ui.formats import date_time

    evening = 1_764_363_400_000  # (an evening in every time zone but a few: "PM" where there is one)
    widths = {}
    for name in ("C", "en_US", "de_DE", "el_GR", "sq_AL"):
        QLocale.setDefault(QLocale(name))
        try:
            view = _token_list(qtbot, rows=8)
            view.resize(700, 300)
            view.viewport().grab()  # (a paint: the delegate measures in the locale it paints in)
            rows = view.rows
            fm, time_w, _badge_w = rows._measure(view.font())
            for at in (evening, evening - 12 * 3_600_000):  # an evening and a morning
                assert fm.horizontalAdvance(date_time(at)) < time_w - 6, name  # (the badge starts at time_w)
            widths[name] = time_w
            assert QFontMetrics(view.font()).horizontalAdvance(date_time(evening)) < rows.summary_left(view.font())
        finally:
            QLocale.setDefault(QLocale.c())
    assert widths["en_US"] > widths["de_DE"]  # (the US form is the wider: the column follows the locale)
