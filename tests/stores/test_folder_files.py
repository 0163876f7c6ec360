"""Files over plain folders (stores/common/folder_files): listed lazily, never out of the root, credentials'
names never listed, a pipe never opened, a log read from its end; CianaParrot's and Linggen's roots."""

from __future__ import annotations

import os

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.folder_files import FolderFiles, FolderRoot
from daycare_gui.stores.records import FileRoot


def _files(root, **kw):
    return FolderFiles(lambda: [FolderRoot(FileRoot("r", "Root", path=root), root, **kw)])


def test_a_folder_is_listed_folders_first_with_hidden_names_left_out(tmp_path):
    (tmp_path / "b.md").write_text("# B\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / ".env").write_text("TOKEN=ghp_PLANTEDtoken000000000000000000001\n")
    (tmp_path / ".env").write_text("x")
    files = _files(tmp_path, hidden=frozenset({".env"}))
    assert [(e.name, e.is_dir) for e in files.children("r", "")] == [("a", True), ("b.md", False)]
    assert files.children("r", "a") == []
    assert files.preview("r", "a/.env").format == "none"
    assert files.preview("r", "b.md").format == "markdown"


def test_links_out_pipes_and_climbing_are_never_read(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("outside")
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")
    (root / "out-dir").symlink_to(tmp_path)
    os.mkfifo(root / "pipe")
    files = _files(root)
    entries = {e.name: e for e in files.children("r", "")}
    assert entries["out.txt"].link.startswith("leads out") and entries["out-dir"].link.startswith("leads out")
    assert not entries["out-dir"].is_dir  # never opened as a folder
    assert files.children("r", "out-dir")[0].problem
    for rel in ("out.txt", "pipe", "../secret.txt", "/etc/passwd"):
        preview = files.preview("r", rel)
        assert preview.format == "none" and "outside" not in preview.text, rel


def test_a_log_is_read_from_its_end_and_binary_by_size_only(tmp_path):
    (tmp_path / "process.log").write_text("".join(f"line {i}\n" for i in range(50000)) + "the last line\n")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01" * 1000)
    files = _files(tmp_path)
    tail = files.preview("r", "process.log", limit=1000, tail=True)
    assert tail.cut and tail.text.endswith("the last line\n") and tail.text.startswith("line ")
    head = files.preview("r", "process.log", limit=1000)
    assert head.cut and head.text.startswith("line 0\n")
    blob = files.preview("r", "blob.bin")
    assert blob.format == "binary" and blob.size == 2000 and blob.text == ""


def test_text_shown_is_masked(tmp_path):
    (tmp_path / "notes.txt").write_text("my key sk-ant-api03-PLANTEDPLANTEDPLANTED0000 here\n")
    text = _files(tmp_path).preview("r", "notes.txt").text
    assert "PLANTED" not in text and "my key" in text


def test_cianaparrot_and_linggen_offer_their_workspaces(tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo as ciana_demo
    from daycare_gui.stores.linggen.demo import write_demo as linggen_demo

    with registry.open_store(str(ciana_demo(tmp_path / "ciana"))) as store:
        files = store.capability(api.Files)
        assert [r.title for r in files.roots()] == ["Workspace"]
        assert "AGENT.md" in {e.name for e in files.children("workspace", "")}
    with registry.open_store(str(linggen_demo(tmp_path / "linggen"))) as store:
        files = store.capability(api.Files)
        assert {r.title for r in files.roots()} == {"blog", "shop"}
