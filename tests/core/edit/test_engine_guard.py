"""Which engine a file write has to ask about: found from the file alone (the command line) or from the
store the window opened."""

from __future__ import annotations

import json
import os

import pytest

from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason
from daycare_gui.stores.daycare.paths import resolve_paths


@pytest.fixture(autouse=True)
def no_default_root(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_ROOT_DIR", str(tmp_path / "no-default-root"))


def test_a_file_deep_in_a_store_finds_the_live_pid_of_its_root(tmp_path):
    skill = tmp_path / "daycare" / "users" / "u1" / "skills" / "review" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: review\n---\n")
    (tmp_path / "daycare" / "settings.json").write_text("{}")
    assert engine_running_reason(file=skill) is None
    (tmp_path / "daycare" / "engine.pid").write_text(f"{os.getpid()}\n")
    reason = engine_running_reason(file=skill)
    assert reason.startswith("Daycare's engine is running (process ") and "may overwrite or miss" in reason


def test_the_pid_file_beside_settings_counts_for_a_data_dir_kept_below_it(tmp_path):
    """engine.pid sits in the config dir (the settings file's folder), not in the data dir."""
    root = tmp_path / "root"
    data = root / "data"
    (data / "cron" / "x").mkdir(parents=True)
    (data / "daycare.db").write_bytes(b"")
    (root / "settings.json").write_text(json.dumps({"engine": {"dataDir": str(data)}}))
    (root / "engine.pid").write_text(f"{os.getpid()}\n")
    task = data / "cron" / "x" / "TASK.md"
    task.write_text("---\nname: x\n---\nbody\n")
    assert "engine is running" in engine_running_reason(file=task)


def test_the_store_the_window_opened_is_asked_even_for_a_file_outside_it(tmp_path):
    root = tmp_path / "daycare"
    root.mkdir()
    (root / "engine.pid").write_text(f"{os.getpid()}\n")
    elsewhere = tmp_path / "workspace" / "apps" / "a" / "APP.md"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("x")
    assert engine_running_reason(file=elsewhere) is None
    assert "engine is running" in engine_running_reason(file=elsewhere, paths=resolve_paths(root))


def test_a_stale_pid_is_not_a_running_engine(tmp_path):
    (tmp_path / "engine.pid").write_text("999999999\n")
    (tmp_path / "settings.json").write_text("{}")
    assert engine_running_reason(file=tmp_path / "settings.json") is None
