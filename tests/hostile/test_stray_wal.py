"""A write-ahead log left beside daycare.db without its -shm file (an engine that stopped without closing,
or garbage): a search reads a snapshot instead of opening the store mode=ro, which would create the -shm
beside it (found by the hostile-input campaign: daycare-sqlite, garbage-wal)."""

from __future__ import annotations

import random

from daycare_gui.cli import main
from tests.hostile.test_campaign import tree_state


def test_search_beside_a_stray_wal_writes_nothing_into_the_store(tmp_path, monkeypatch, capsys):
    from daycare_gui.stores.daycare.demo import write_demo

    store = tmp_path / "store"
    write_demo(store)
    (store / "daycare.db-wal").write_bytes(random.Random(39).randbytes(33000))
    before = tree_state(store)
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    assert main(["search", str(store), "the", "--json"]) in (0, 1, 2)
    capsys.readouterr()
    assert tree_state(store) == before  # no daycare.db-shm appeared
