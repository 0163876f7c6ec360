"""Search never shows a secret (issue #32): snippets are masked on the text before their matches are marked,
the index holds the text masked, and its files are the owner's alone (0600 in 0700 folders)."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.daycare.demo import write_demo
from tests.secret_samples import SAMPLES, leaked
from tests.stores.plugin import install_chatlog_entry_point


def _plant_daycare(dest):
    """A demo store with one user message per sample, and every sample again in a tool call's arguments."""
    write_demo(dest)
    conn = sqlite3.connect(dest / "daycare.db")
    sid = conn.execute("SELECT id FROM sessions LIMIT 1").fetchone()[0]
    for i, s in enumerate(SAMPLES):
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                     (sid, 1_700_000_000_000 + i, json.dumps({"text": s.text, "files": []})))
    calls = [{"id": f"c{i}", "name": "shell", "arguments": {"command": s.text}} for i, s in enumerate(SAMPLES)]
    conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'assistant_message', ?, ?)",
                 (sid, 1_700_000_001_000, json.dumps({"text": "running", "toolCalls": calls})))
    conn.commit()
    conn.close()
    return dest


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return _plant_daycare(tmp_path_factory.mktemp("search-secrets") / "daycare")


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache" / "search"  # neither folder exists yet: the index makes both
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


def _search(capsys, *args) -> str:
    assert main(["search", *map(str, args)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
@pytest.mark.parametrize("form", ["human", "json"])
def test_a_snippet_found_by_a_secrets_visible_part_shows_it_masked(planted, index_dir, capsys, sample, form):
    extra = ["--json"] if form == "json" else []
    out = _search(capsys, planted, sample.query, "--limit", 200, *extra)
    assert leaked(out) == []
    out = _search(capsys, planted, "planted", sample.name, "--limit", 200, *extra)  # its neighbours' words
    assert leaked(out) == [] and "••••••••" in out
    assert "planted" in out  # (the message was found)


def test_every_sample_is_found_and_masked_in_one_listing(planted, index_dir, capsys):
    out = _search(capsys, planted, "planted", "--limit", 200)
    assert leaked(out) == []
    assert out.count("••••••••") >= len(SAMPLES)


def _index_files(folder):
    return [p for p in folder.rglob("*") if p.is_file()]


def _modes(folder):
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.rglob("*")]}


def test_the_index_holds_no_secret_and_only_its_owner_reads_it(planted, index_dir, capsys):
    _search(capsys, planted, "planted")
    files = _index_files(index_dir)
    assert any(p.suffix == ".sqlite" for p in files)
    for p in files:  # the database and its -wal/-shm: no byte of any secret
        assert leaked(p.read_bytes().decode("utf-8", "replace")) == [], p.name
    assert {name: mode for name, mode in _modes(index_dir).items()
            if mode != (0o700 if (index_dir / name).is_dir() or name == "search" else 0o600)} == {}
    assert stat.S_IMODE(index_dir.parent.stat().st_mode) == 0o700  # the folder it made above it too


def test_another_kinds_index_and_snippets_too(monkeypatch, tmp_path, index_dir, capsys):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    try:
        from chatlog_kind import write_chatlog

        store = write_chatlog(tmp_path / "chats")
        lines = [{"role": "user", "text": s.text, "at": 1767225700000 + i} for i, s in enumerate(SAMPLES)]
        lines.append({"role": "assistant", "text": "running", "at": 1767225800000,
                      "calls": [{"id": "k", "name": "shell", "args": {"api_key": SAMPLES[0].hidden,
                                                                       "cmd": SAMPLES[1].text}}]})
        (store / "ops" / "s2.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
        for sample in SAMPLES:
            assert leaked(_search(capsys, store, sample.query, "--limit", 200)) == []
        out = _search(capsys, store, "planted", "--limit", 200, "--json")
        assert leaked(out) == [] and out.count("••••••••") >= len(SAMPLES)
        assert leaked(_search(capsys, store, "shell")) == []
        files = _index_files(index_dir / "sources")
        assert files and all(leaked(p.read_bytes().decode("utf-8", "replace")) == [] for p in files)
        assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
        assert stat.S_IMODE((index_dir / "sources").stat().st_mode) == 0o700
    finally:
        registry.unregister("chatlog")


def test_an_index_made_before_masking_is_rebuilt_without_its_secrets(planted, index_dir, capsys, monkeypatch):
    """An index written by an earlier version holds the text in clear: the version stamp makes the next
    search rebuild it, and no byte of the old text stays in its files."""
    from daycare_gui.stores.common import search_build, search_feed, search_index

    for module in (search_index, search_feed, search_build):  # an index of a version before: nothing masked
        monkeypatch.setattr(module, "INDEX_VERSION", 1)
    for module in (search_index, search_feed):
        monkeypatch.setattr(module, "mask_free_text", lambda text: text)
    _search(capsys, planted, "planted")
    assert any(leaked(p.read_bytes().decode("utf-8", "replace")) for p in _index_files(index_dir))
    monkeypatch.undo()
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(index_dir))
    assert main(["search", str(planted), "planted"]) == 0
    assert "rebuilt the index" in capsys.readouterr().err
    for p in _index_files(index_dir):
        assert leaked(p.read_bytes().decode("utf-8", "replace")) == [], p.name


def test_the_default_cache_folders_and_an_old_index_are_tightened_at_open(planted, tmp_path, monkeypatch, capsys):
    """Folders and files left 0755/0644 by an earlier version are made the owner's alone when opened."""
    cache = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.delenv("DAYCARE_GUI_SEARCH_DIR")
    search = cache / "daycare-gui" / "search"
    _search(capsys, planted, "planted")
    old = [p for p in _index_files(search) if p.suffix == ".sqlite"]
    assert old
    for folder in (cache / "daycare-gui", search, search / "sources"):
        os.chmod(folder, 0o755)
    for p in _index_files(search):
        os.chmod(p, 0o644)
    _search(capsys, planted, "planted")
    assert stat.S_IMODE((cache / "daycare-gui").stat().st_mode) == 0o700
    assert stat.S_IMODE(search.stat().st_mode) == 0o700
    assert stat.S_IMODE((search / "sources").stat().st_mode) == 0o700
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in _index_files(search)} == {
        p.name: 0o600 for p in _index_files(search)}


def test_a_legacy_stores_index_and_snippets_too(fixture_copy, index_dir, capsys):
    store = fixture_copy("daycare-808af509", with_db=False)
    history = store / "agents" / "agentusr1" / "history.jsonl"
    history.chmod(0o644)
    with history.open("a") as fh:
        for i, s in enumerate(SAMPLES):
            fh.write(json.dumps({"type": "note", "at": 1739999009000 + i, "text": s.text}) + "\n")
    for sample in SAMPLES:
        assert leaked(_search(capsys, store, sample.query, "--limit", 200)) == []
    out = _search(capsys, store, "planted", "--limit", 200)
    assert leaked(out) == [] and out.count("••••••••") >= len(SAMPLES)
    files = _index_files(index_dir)
    assert files and all(leaked(p.read_bytes().decode("utf-8", "replace")) == [] for p in files)
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
