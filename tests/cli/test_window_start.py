"""Starting the window where it cannot start, said in one sentence before Qt starts (issue 34, item 7)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from daycare_gui import cli
from daycare_gui.cli import main

REPO = Path(__file__).resolve().parents[2]


def _without_display() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(REPO)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY and WAYLAND_DISPLAY are Linux's")
def test_no_display_says_so_and_how_to_run_offscreen(tmp_path):
    done = subprocess.run([sys.executable, "-m", "daycare_gui.cli", str(tmp_path)], env=_without_display(),
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("daycare-gui: there is no display to open the window on")
    assert "QT_QPA_PLATFORM=offscreen" in done.stderr
    assert "xcb" not in done.stderr and "Aborted" not in done.stderr


@pytest.mark.parametrize("env, refused", [
    ({}, True),
    ({"QT_QPA_PLATFORM": "xcb"}, True),
    ({"DISPLAY": ":0"}, False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, False),
    ({"QT_QPA_PLATFORM": "offscreen"}, False),
    ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, False),
])
def test_which_environments_have_no_display(env, refused, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert (cli._no_display_reason() is not None) is refused


def test_a_mistyped_kind_for_the_window_is_the_sentence_the_commands_say(tmp_path, capsys, monkeypatch):
    """The window showed "UnknownKind: …"; the commands say a sentence. The same sentence, no window."""
    import daycare_gui.ui.app as app

    started = []
    monkeypatch.setattr(app, "run_app", lambda **kw: started.append(kw) or 0)
    assert main([str(tmp_path), "--kind", "lingen"]) == 2
    window_says = capsys.readouterr().err
    assert started == []
    assert main(["inspect", str(tmp_path), "--kind", "lingen"]) == 2
    assert capsys.readouterr().err == window_says
    assert window_says.startswith("daycare-gui: unknown store kind 'lingen'; known: daycare, ")
    assert "UnknownKind" not in window_says


def test_ctrl_c_in_any_command_is_a_quiet_exit_130(tmp_path, capsys, monkeypatch):
    from daycare_gui.commands import inspect

    def interrupted(_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(inspect, "run", interrupted)
    try:
        code = main(["inspect", str(tmp_path)])
    except KeyboardInterrupt:
        pytest.fail("Ctrl+C left the command as a KeyboardInterrupt traceback")
    assert code == 130
    assert capsys.readouterr().err == "\ndaycare-gui: interrupted\n"
