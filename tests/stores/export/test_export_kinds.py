"""``daycare-gui export`` on a store of every kind that offers conversations, read back and compared with
the records the kind gives; the store is not touched."""

from __future__ import annotations

import shutil

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from tests.conftest import snapshot_tree
from tests.stores.export.check import assert_export_matches
from tests.stores.plugin import install_chatlog_entry_point


@pytest.fixture(scope="module")
def daycare_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path_factory.mktemp("export") / "daycare"
    write_demo(root, now_ms=1_795_000_000_000)
    return root


def _legacy(daycare_demo, tmp_path):
    root = tmp_path / "legacy"
    shutil.copytree(daycare_demo, root, ignore=shutil.ignore_patterns("daycare.db*"))
    return root


def _linggen(_demo, tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def _cianaparrot(_demo, tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    return write_demo(tmp_path / "ciana")


def _sqlite(daycare_demo, tmp_path):
    root = tmp_path / "daycare"
    shutil.copytree(daycare_demo, root)
    return root


STORES = {"daycare-sqlite": _sqlite, "daycare-legacy": _legacy, "linggen": _linggen, "cianaparrot": _cianaparrot}


def _largest(path):
    """The session with the most messages, and those messages (read the way the window reads them)."""
    with registry.open_store(path, live=False) as store:
        cap = store.capability(api.Conversations)
        sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
        best = max(sessions, key=lambda s: cap.message_count(s.ref))
        return best.ref, cap.messages(best.ref, 0, 10_000)


@pytest.mark.parametrize("fmt", ["md", "html", "jsonl"])
@pytest.mark.parametrize("kind", list(STORES))
def test_every_kind_exports_its_largest_session(kind, fmt, daycare_demo, tmp_path, capsys):
    path = STORES[kind](daycare_demo, tmp_path)
    ref, messages = _largest(path)
    assert len(messages) >= 3
    before = snapshot_tree(path)
    assert main(["export", str(path), f"session:{ref.session_id}", "--format", fmt]) == 0
    assert_export_matches(messages, fmt, capsys.readouterr().out)
    out = tmp_path / f"out.{fmt}"
    assert main(["export", str(path), f"session:{ref.session_id}", "--out", str(out)]) == 0  # format by suffix
    assert_export_matches(messages, fmt, out.read_text(encoding="utf-8"))
    assert snapshot_tree(path) == before  # exporting never writes into the store


def test_an_outside_kind_exports_through_its_entry_point(monkeypatch, tmp_path, capsys):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog

    root = write_chatlog(tmp_path / "store")
    try:
        assert main(["export", str(root), "session:s1", "--format", "md"]) == 0
        text = capsys.readouterr().out
        assert "```json\n{\n  \"env\": \"prod\"\n}\n```" in text and "```text\ngreen: 42 pods\n```" in text
    finally:
        registry.unregister("chatlog")


def test_records_option_exports_only_those(daycare_demo, tmp_path, capsys):
    ref, messages = _largest(daycare_demo)
    picked = [messages[1], messages[-1]]
    assert main(["export", str(daycare_demo), f"session:{ref.session_id}", "--format", "jsonl",
                 "--records", f"{picked[0].id},{picked[1].id}"]) == 0
    assert_export_matches(picked, "jsonl", capsys.readouterr().out)


def test_clear_messages_and_exit_2(daycare_demo, tmp_path, capsys):
    def run(*argv):
        code = main(["export", *argv])
        return code, capsys.readouterr()

    code, io = run(str(daycare_demo), "session:no-such-session")
    assert code == 2 and io.out == ""
    assert io.err.strip() == "daycare-gui export: no session 'no-such-session' in this Daycare store"
    code, io = run(str(tmp_path), "session:x")
    assert code == 2 and "is not a store that daycare-gui knows" in io.err and io.out == ""
    code, io = run(str(daycare_demo), "agent:x")
    assert code == 2 and "name a session as session:<id>" in io.err
    code, io = run(str(daycare_demo), "session:x", "--kind", "nosuchkind")
    assert code == 2 and "unknown store kind 'nosuchkind'" in io.err
    with pytest.raises(SystemExit) as exit_:
        main(["export", str(daycare_demo), "session:x", "--format", "pdf"])
    assert exit_.value.code == 2
    assert "invalid choice: 'pdf' (choose from 'md', 'html', 'jsonl', 'csv')" in capsys.readouterr().err  # csv: costs (#37)
    ref, messages = _largest(daycare_demo)
    code, io = run(str(daycare_demo), f"session:{ref.session_id}", "--records", f"{messages[0].id},nope")
    assert code == 2 and "1 of the 2 records asked for are not in this session" in io.err
    assert io.out == ""  # nothing written before the error, not even the header
    out = tmp_path / "some.md"
    out.write_text("kept")
    code, io = run(str(daycare_demo), f"session:{ref.session_id}", "--records", "nope", "--out", str(out))
    assert code == 2 and "nothing was written" in io.err and out.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".some")) == []  # no temp left
    # a record named twice is one record
    code, io = run(str(daycare_demo), f"session:{ref.session_id}", "--format", "jsonl", "--records",
                   f"{messages[0].id},{messages[0].id}")
    assert code == 0 and len(io.out.splitlines()) == 1
    code, io = run(str(daycare_demo), f"session:{ref.session_id}", "--out", str(tmp_path / "no" / "dir.md"))
    assert code == 1 and "cannot write" in io.err
    from daycare_gui.stores.agentstack.demo import write_demo

    code, io = run(str(write_demo(tmp_path / "agentstack")), "session:x")
    assert code == 2 and io.err.strip() == "daycare-gui export: this AgentStack store has no conversations to export"


def test_a_damaged_database_is_one_line_not_a_traceback(fixture_copy, capsys, tmp_path, monkeypatch):
    """A daycare.db whose header is whole but whose pages are not: export and search say what is wrong in
    one line, write nothing, and change nothing in the store."""
    root = fixture_copy("daycare-808af509")
    db = root / "daycare.db"
    data = bytearray(db.read_bytes())
    data[12288:24576] = b"\xa5" * 12288  # (the pages after the first three, overwritten)
    db.write_bytes(bytes(data))
    before = snapshot_tree(root)
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    for argv in (["export", str(root), "session:blzue8vx56di4th1tx65ivoh"], ["search", str(root), "hello"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 1 and out == "" and len(err.strip().splitlines()) == 1, (argv, err)
        assert "Traceback" not in err and ("damaged" in err or "malformed" in err), err
    assert snapshot_tree(root) == before


# --- export --out: never over a file the user keeps, never through a link, private to its owner ------------


def _export_out(daycare_demo, out, *more):
    ref, _messages = _largest(daycare_demo)
    return main(["export", str(daycare_demo), f"session:{ref.session_id}", "--out", str(out), *more])


def _no_temp_left(folder):
    assert [p.name for p in folder.iterdir() if p.name.endswith(".export-tmp")] == []


def test_out_keeps_an_existing_file_unless_forced(daycare_demo, tmp_path, capsys):
    out = tmp_path / "talk.md"
    out.write_bytes(b"my notes\n")
    assert _export_out(daycare_demo, out) == 2
    assert capsys.readouterr().err.strip() == (f"daycare-gui export: {out} exists; nothing was written "
                                               "(add --force to replace it)")
    assert out.read_bytes() == b"my notes\n"
    assert _export_out(daycare_demo, out, "--force") == 0
    assert out.read_bytes().startswith(b"# ") and (out.stat().st_mode & 0o777) == 0o600
    _no_temp_left(tmp_path)


def test_out_is_written_for_its_owner_only(daycare_demo, tmp_path):
    out = tmp_path / "talk.html"
    assert _export_out(daycare_demo, out) == 0
    assert (out.stat().st_mode & 0o777) == 0o600  # the umask would have made it 0644
    _no_temp_left(tmp_path)


@pytest.mark.parametrize("force", [(), ("--force",)])
def test_out_never_writes_through_a_symlink(daycare_demo, tmp_path, capsys, force):
    kept = tmp_path / "bashrc"
    kept.write_bytes(b"export PATH=/usr/bin\n")
    out = tmp_path / "talk.md"
    out.symlink_to(kept)
    dangling = tmp_path / "new.md"
    dangling.symlink_to(tmp_path / "autostart.desktop")  # a link to a file not there yet
    assert _export_out(daycare_demo, out, *force) == 2
    assert f"{out} is a symlink (to {kept})" in capsys.readouterr().err
    assert _export_out(daycare_demo, dangling, *force) == 2
    assert out.is_symlink() and kept.read_bytes() == b"export PATH=/usr/bin\n"
    assert dangling.is_symlink() and not (tmp_path / "autostart.desktop").exists()
    _no_temp_left(tmp_path)


def test_out_never_replaces_a_read_only_file_even_forced(daycare_demo, tmp_path, capsys):
    out = tmp_path / "talk.md"
    out.write_bytes(b"frozen\n")
    out.chmod(0o444)
    assert _export_out(daycare_demo, out, "--force") == 2
    assert capsys.readouterr().err.strip() == f"daycare-gui export: {out} is read-only (mode 0444); nothing was written"
    assert out.read_bytes() == b"frozen\n" and (out.stat().st_mode & 0o777) == 0o444
    _no_temp_left(tmp_path)


def test_a_file_appearing_during_the_export_is_kept(daycare_demo, tmp_path, capsys, monkeypatch):
    from daycare_gui.stores.common.export import stream

    out = tmp_path / "talk.md"
    real = stream.export_session

    def slow(*args, **kwargs):
        written = real(*args, **kwargs)
        out.write_bytes(b"written meanwhile\n")
        return written

    monkeypatch.setattr(stream, "export_session", slow)
    assert _export_out(daycare_demo, out) == 2
    assert "appeared meanwhile and was kept" in capsys.readouterr().err
    assert out.read_bytes() == b"written meanwhile\n"
    _no_temp_left(tmp_path)
