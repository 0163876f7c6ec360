"""A button row wraps like words, and follows its buttons when they change (its heights are kept per width)."""

from PySide6.QtWidgets import QPushButton, QWidget

from daycare_gui.ui.widgets.flow_layout import flow_row


def _row(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    buttons = [QPushButton(text) for text in ("Home", "End", "Export…")]
    layout = flow_row(buttons, host)
    host.show()
    wide = sum(b.sizeHint().width() for b in buttons) + 40
    return host, layout, buttons, wide


def test_a_button_grown_wider_wraps_the_row(qtbot):
    host, layout, buttons, wide = _row(qtbot)
    one_line = layout.heightForWidth(wide)
    assert layout.heightForWidth(wide) == one_line  # (asked again: the same)
    buttons[1].setText("End of the session, newest message first")
    qtbot.wait(1)
    assert layout.heightForWidth(wide) > one_line  # it no longer fits: two lines


def test_a_hidden_button_leaves_its_place_to_the_next(qtbot):
    host, layout, buttons, wide = _row(qtbot)
    host.resize(wide, layout.heightForWidth(wide))
    qtbot.waitUntil(lambda: buttons[2].x() > buttons[1].x())
    was = buttons[2].x()
    buttons[1].hide()
    qtbot.waitUntil(lambda: buttons[2].x() < was)  # moved left into the hidden one's place
    assert buttons[2].x() == buttons[1].x()


def test_the_row_is_as_wide_as_its_widest_button_however_it_changes(qtbot):
    host, layout, buttons, _wide = _row(qtbot)
    assert layout.minimumSize().width() == max(b.minimumSizeHint().width() for b in buttons)
    buttons[0].setText("A much longer label than any other")
    qtbot.wait(1)
    assert layout.minimumSize().width() == buttons[0].minimumSizeHint().width()
