"""AgentStack's and Linggen's space: AgentStack's tables take what dbstat says for its database, Linggen's
sessions what their files hold, largest first; neither offers an upgrade or a prune."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from daycare_gui.stores import api, registry
from tests.conftest import snapshot_tree


def test_agentstack_tables_take_what_dbstat_says(tmp_path):
    from daycare_gui.stores.agentstack import write_demo

    db = write_demo(tmp_path / "agentstack")
    before = snapshot_tree(tmp_path / "agentstack")
    with registry.open_store(db) as opened:
        storage = opened.capability(api.Storage)
        report = storage.space()
        assert not storage.offers_upgrade and storage.prune_preview(1).refusal
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        expected = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
    finally:
        conn.close()
    assert report.method == "dbstat" and {t.name: t.bytes for t in report.tables} == expected
    assert snapshot_tree(tmp_path / "agentstack") == before


def test_linggen_sessions_rank_by_the_bytes_of_their_files(tmp_path):
    from daycare_gui.stores.linggen.demo import write_demo

    root = tmp_path / "linggen"
    write_demo(root)
    with registry.open_store(root, kind="linggen") as opened:
        report = opened.capability(api.Storage).space()
    assert report.holders_title == "Sessions" and report.holders
    for line in report.holders:
        files = [p for p in Path(line.detail).rglob("*") if p.is_file()]
        assert line.bytes == sum(p.stat().st_size for p in files) and line.count == len(files)
    assert [h.bytes for h in report.holders] == sorted((h.bytes for h in report.holders), reverse=True)
    assert report.total == sum(f.bytes for f in report.folders) > 0
