"""The store fingerprint a repeated command trusts (stat only, links not followed) and the private records it
keeps (0600 in 0700 folders, refused at another fingerprint or when damaged, pruned once the store is gone)."""

from __future__ import annotations

import json
import os
import stat
import time

from daycare_gui.stores.common import kept
from daycare_gui.stores.common.tree_fingerprint import RACY_NS, fingerprint


def _store(tmp_path):
    root = tmp_path / "store"
    (root / "base" / "1").mkdir(parents=True)
    (root / "base" / "1" / "1259").write_bytes(b"a" * 8192)
    (root / "PG_VERSION").write_text("17\n")
    return root


def test_every_kind_of_change_shows_and_reading_does_not(tmp_path):
    root = _store(tmp_path)
    page = root / "base" / "1" / "1259"
    first = fingerprint([root])
    page.read_bytes()
    assert fingerprint([root]).digest == first.digest
    st = page.stat()
    with open(page, "r+b") as f:  # the same size, the mtime set back: the ctime still tells
        f.write(b"b")
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    second = fingerprint([root])
    assert second.digest != first.digest
    (root / "pg_wal").mkdir()
    third = fingerprint([root])
    assert third.digest != second.digest
    swapped = root / "base" / "1" / "1259.new"  # an atomic swap: the same bytes under a new inode
    swapped.write_bytes(page.read_bytes())
    os.utime(swapped, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns))
    os.replace(swapped, page)
    assert fingerprint([root]).digest != third.digest


def test_links_are_not_followed_out_of_the_store(tmp_path):
    root = _store(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "big").write_text("x")
    (root / "link").symlink_to(outside, target_is_directory=True)
    first = fingerprint([root])
    assert all("outside" not in path for path in first.files.values())
    (outside / "big").write_text("changed outside")
    (outside / "more").write_text("y")
    assert fingerprint([root]).digest == first.digest
    # the store folder itself may be a link the user named: resolved once, the same fingerprint
    alias = tmp_path / "alias"
    alias.symlink_to(root, target_is_directory=True)
    assert fingerprint([alias]).digest == first.digest


def test_too_many_entries_are_not_fingerprinted(tmp_path):
    root = _store(tmp_path)
    assert fingerprint([root], max_entries=3) is None


def test_records_are_private_and_trusted_only_at_their_fingerprint(tmp_path):
    root = _store(tmp_path)
    base = tmp_path / "kept"
    store = kept.real_path(root)
    old = fingerprint([root], now_ns=0)  # long after every write: nothing racy
    assert kept.save(store, "inspect", old, {"answer": 42}, base)
    assert kept.load(store, "inspect", old, base) == {"answer": 42}
    for path in [base, *base.rglob("*")]:
        assert stat.S_IMODE(path.stat().st_mode) == (0o700 if path.is_dir() else 0o600), path
    (root / "PG_VERSION").write_text("18\n")
    assert kept.load(store, "inspect", fingerprint([root], now_ns=0), base) is None
    assert kept.load("/another/store", "inspect", old, base) is None
    record = kept.record_path(store, "inspect", base)
    for damage in (b"", b"{", b"[1, 2]", json.dumps({"version": kept.VERSION, "store": store}).encode(), b"\xff\x00"):
        record.write_bytes(damage)
        assert kept.load(store, "inspect", old, base) is None


def test_a_racy_file_is_compared_by_content_until_it_settles(tmp_path):
    root = _store(tmp_path)
    base = tmp_path / "kept"
    store = kept.real_path(root)
    now = max(p.stat().st_ctime_ns for p in root.rglob("*"))
    racy = fingerprint([root], now_ns=now)
    assert racy.racy  # written just now
    assert kept.save(store, "search", racy, {"n": 1}, base)
    saved = json.loads(kept.record_path(store, "search", base).read_text())
    assert set(saved["racy"]) == set(racy.racy)
    assert kept.load(store, "search", fingerprint([root], now_ns=now), base) == {"n": 1}
    later = fingerprint([root], now_ns=now + RACY_NS + 1)
    assert not later.racy and kept.load(store, "search", later, base) == {"n": 1}
    assert json.loads(kept.record_path(store, "search", base).read_text())["racy"] == {}  # settled: stat only now


def test_pruning_forgets_the_stores_that_are_gone(tmp_path):
    base = tmp_path / "kept"
    stores = [_store(tmp_path / name) for name in ("a", "b")]
    for root in stores:
        assert kept.save(kept.real_path(root), "inspect", fingerprint([root], now_ns=0), {}, base)
    (base / "stray").mkdir()  # a folder no store claims (its writer died before writing the store file)
    (base / "stray" / "inspect.json").write_text("{}")
    import shutil

    shutil.rmtree(stores[0])
    kept.prune_kept(base)
    assert sorted(p.name for p in base.iterdir()) == [kept.store_key(kept.real_path(stores[1]))]


def test_a_folder_that_cannot_be_listed_counts_as_such(tmp_path, monkeypatch):
    root = _store(tmp_path)
    (root / "base").chmod(0o000)  # odd permissions (root reads it anyway: the refusal is simulated below)
    try:
        readable = fingerprint([root])
        real_listdir = os.listdir

        def refuse(path):
            if os.fspath(path).endswith("/base"):
                raise PermissionError(13, "Permission denied", path)
            return real_listdir(path)

        monkeypatch.setattr(os, "listdir", refuse)
        unreadable = fingerprint([root])
        assert unreadable is not None and unreadable.digest != readable.digest
        assert not any("/base/" in p for p in unreadable.files.values())
    finally:
        (root / "base").chmod(0o755)


def test_a_folder_inside_the_roots_gets_its_own_fingerprint_from_the_same_walk(tmp_path):
    """``inspect`` fingerprints the store's folders, then its open fingerprints the PGlite folder inside them
    before copying it: that second walk is taken from the first, and is the fingerprint a walk of the folder
    alone takes (what kept records of it are keyed by). Once: a later walk is a walk of its own."""
    from daycare_gui.stores.common.tree_fingerprint import handed_over

    root = tmp_path / "root"
    store = _store(root)
    (root / "zz-after").mkdir()
    (root / "zz-after" / "x").write_text("x")
    (root / "a-before.json").write_text("{}")
    assert handed_over(store) is None
    for now in (None, (store / "PG_VERSION").stat().st_ctime_ns + 2 * RACY_NS):  # every file racy, then none
        whole = fingerprint([root, tmp_path / "elsewhere"], now_ns=now, hand_over=[store, root / "not-there"])
        alone = fingerprint([store], now_ns=now or time.time_ns())
        handed = handed_over(store)
        assert whole is not None and handed is not None and handed.digest != whole.digest
        assert (handed.digest, handed.racy, handed.files) == (alone.digest, alone.racy, alone.files)
        assert len(handed.files) == 2 and len(handed.racy) == (2 if now is None else 0)
    assert handed_over(store) is None and handed_over(root / "not-there") is None
    fingerprint([root], hand_over=[root])  # a root itself
    assert handed_over(root).digest == fingerprint([root]).digest
