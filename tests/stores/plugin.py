"""Installs the test-only chatlog kind the way an outside package would: an entry point in a
``*.dist-info`` folder on ``sys.path``, naming a module that is importable from there."""

from __future__ import annotations

from pathlib import Path

KINDS = Path(__file__).resolve().parents[1] / "kinds"


def install_chatlog_entry_point(monkeypatch, tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist = site / "chatlog_kind-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: chatlog-kind\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[daycare_gui.store_kinds]\nchatlog = chatlog_kind\n")
    monkeypatch.syspath_prepend(str(KINDS))
    monkeypatch.syspath_prepend(str(site))
