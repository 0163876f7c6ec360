"""write_demo's contract: deterministic bytes, refusal of non-empty folders, progress and cancellation."""

import hashlib
import os
import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import DemoCancelled, DemoError, write_demo


def _file_hashes(root):
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _dump(db):
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_same_output_every_run(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_demo(a)
    write_demo(b)
    assert _dump(a / "daycare.db") == _dump(b / "daycare.db")
    assert _file_hashes(a) == _file_hashes(b)  # includes daycare.db itself


def test_refuses_non_empty_destination(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(DemoError, match="not empty"):
        write_demo(tmp_path)
    assert os.listdir(tmp_path) == ["keep.txt"]


def test_refuses_a_file_and_an_unknown_scale(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(DemoError):
        write_demo(tmp_path / "f")
    with pytest.raises(DemoError, match="scale"):
        write_demo(tmp_path / "new", scale="huge")


def test_writes_into_an_existing_empty_folder_and_reports_progress(tmp_path):
    calls = []
    summary = write_demo(tmp_path, progress=lambda done, total, msg: calls.append((done, total, msg)))
    assert calls[-1][0] == calls[-1][1] and [c[0] for c in calls] == sorted(c[0] for c in calls)
    assert summary.counts["agents"] == len(summary.agent_ids)
    assert summary.counts["_migrations"] == 26 and summary.files > 50


def test_cancel_stops_and_cleans_up(tmp_path):
    steps = []

    def cancel():
        steps.append(1)
        return len(steps) >= 3

    with pytest.raises(DemoCancelled):
        write_demo(tmp_path / "x", cancel=cancel)
    assert not (tmp_path / "x").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DemoCancelled):
        write_demo(empty, cancel=lambda: True)
    assert empty.is_dir() and not any(empty.iterdir())
