"""Every kind's Files page reads through one set of rules (stores/common/folder_files.py): a link out of a
root is listed as such and never followed, a huge file is read only up to the preview's limit, a binary
file is shown by name and size only. Daycare's homes (which had their own previewer) and Linggen's project
folders answer alike, byte for byte."""

from __future__ import annotations

import os

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import Files
from daycare_gui.stores.common.folder_files import LINK_OUT, PREVIEW_LIMIT
from daycare_gui.stores.daycare.demo import write_demo
from tests.stores.linggen.builder import standard_home


@pytest.fixture(scope="module")
def daycare_demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("files") / "daycare"
    write_demo(dest)
    return dest


def _daycare(daycare_demo, tmp_path):
    return daycare_demo, "home:"


def _linggen(_demo, tmp_path):
    (tmp_path / "ws").mkdir()
    return standard_home(tmp_path / "linggen", workspace=tmp_path / "ws").root, "workspace:"


@pytest.fixture(params=[_daycare, _linggen], ids=["daycare", "linggen"])
def opened(request, daycare_demo, tmp_path):
    path, prefix = request.param(daycare_demo, tmp_path)
    with registry.open_store(path, live=False) as store:
        files = store.capability(Files)
        root = next(r for r in files.roots() if r.id.startswith(prefix))
        yield files, root


@pytest.fixture
def planted(opened, tmp_path):
    files, root = opened
    folder = root.path
    secret = tmp_path / "outside.txt"
    secret.write_text("a secret outside the root\n")
    made = []

    def plant(name, data: bytes | None = None, link: os.PathLike | None = None):
        path = folder / name
        if link is not None:
            os.symlink(link, path)
        else:
            path.write_bytes(data)
        made.append(path)
        return name

    plant("away.txt", link=secret)
    plant("away-folder", link=tmp_path)
    plant("huge.log", b"line of a log\n" * (PREVIEW_LIMIT // 7))
    plant("picture.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + b"\0" * 100)
    plant("not-utf8.txt", "caf\u00e9 ".encode("latin-1") * 10)
    plant("SKILL.md", b"---\nname: tidy\ndescription: keeps things tidy\n---\n# Tidy\nBody\n")
    yield files, root
    for path in made:
        path.unlink()


def test_a_link_out_of_the_root_is_listed_as_such_and_never_read(planted):
    files, root = planted
    listed = {e.name: e for e in files.children(root.id, "")}
    assert listed["away.txt"].link == LINK_OUT and listed["away-folder"].link == LINK_OUT
    assert not listed["away-folder"].is_dir  # never expanded into
    shown = files.preview(root.id, "away.txt")
    assert shown.format == "none" and "secret" not in shown.text and LINK_OUT in shown.note
    assert files.children(root.id, "away-folder")[0].problem == LINK_OUT


def test_a_huge_file_is_read_up_to_the_limit_from_its_head_or_its_end(planted):
    files, root = planted
    head = files.preview(root.id, "huge.log")
    assert head.cut and head.format == "text" and len(head.text.encode()) == PREVIEW_LIMIT
    assert head.note == f"showing the first {PREVIEW_LIMIT // 1024} KiB"
    tail = files.preview(root.id, "huge.log", tail=True)
    assert tail.cut and tail.text.startswith("line of a log") and tail.note.startswith("showing the last")


def test_a_binary_file_is_shown_by_name_and_size_only(planted):
    files, root = planted
    for name in ("picture.png", "not-utf8.txt"):
        shown = files.preview(root.id, name)
        assert shown.format == "binary" and shown.text == "" and shown.size == (root.path / name).stat().st_size


def test_a_markdown_frontmatter_is_shown_as_yaml_above_the_body(planted):
    files, root = planted
    shown = files.preview(root.id, "SKILL.md")
    assert shown.format == "markdown"
    assert shown.text == "```yaml\nname: tidy\ndescription: keeps things tidy\n```\n\n# Tidy\nBody\n"
