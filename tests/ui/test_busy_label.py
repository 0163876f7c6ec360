"""The status bar says "Loading…" only of a read the user is kept waiting for, and stops when it is done."""

import threading

from daycare_gui.ui.widgets.busy_label import BusyLabel


def _read(window, gate=None):
    done = []
    window.worker.submit("test-read", (lambda: gate.wait(10)) if gate else (lambda: 1), on_result=done.append,
                         supersede=False)  # (each read is wanted: none replaces another)
    return done


def test_a_quick_read_never_says_loading(qtbot, window):
    shown = []
    window.status_busy.setText = lambda text, _set=window.status_busy.setText: (shown.append(text), _set(text))
    done = _read(window)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    qtbot.wait(BusyLabel.SHOW_AFTER_MS + 200)  # past the moment a slow read would be named
    assert "Loading…" not in shown  # the status bar never flickered
    assert window.status_busy.text() == ""


def test_a_read_that_keeps_the_user_waiting_says_so_until_it_is_done(qtbot, window):
    gate = threading.Event()
    done = _read(window, gate)
    assert window.status_busy.text() == ""  # not at once: most reads are over within a frame
    qtbot.waitUntil(lambda: window.status_busy.text() == "Loading…", timeout=5000)
    gate.set()
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    assert window.status_busy.text() == ""


def test_reads_in_a_row_are_named_once_the_wait_is_long(qtbot, window):
    """Quick reads one after another while a slow one waits behind them: the delay counts from the first."""
    gate = threading.Event()
    done = _read(window, gate)
    for _ in range(3):
        _read(window)
    qtbot.waitUntil(lambda: window.status_busy.text() == "Loading…", timeout=5000)
    gate.set()
    qtbot.waitUntil(lambda: bool(done) and not window.worker.is_busy(), timeout=5000)
    assert window.status_busy.text() == ""
