"""Tolerant low-level readers: bad bytes, bad JSON, bad lines, bad frontmatter, refused and unreadable paths."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from daycare_gui.stores.common.files import read as read_mod
from daycare_gui.stores.common.files.frontmatter import parse_markdown, read_markdown
from daycare_gui.stores.common.files.jsonfile import read_json
from daycare_gui.stores.common.files.jsonl import BadLine, iter_jsonl, summarize_jsonl
from daycare_gui.stores.common.files.read import list_dir, read_text


def make_unreadable(monkeypatch, target: Path) -> None:
    """chmod 000 when that works; as root (which ignores modes) make the open/scandir calls fail instead."""
    if os.geteuid() != 0:
        target.chmod(0)
        return
    real_open, real_scandir = read_mod.open_binary, read_mod.scandir

    def fake_open(path):
        if Path(path) == target:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path)

    def fake_scandir(path):
        if Path(path) == target:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(read_mod, "open_binary", fake_open)
    monkeypatch.setattr(read_mod, "scandir", fake_scandir)


# --- text -------------------------------------------------------------------------------------------


def test_utf8_bom_is_dropped(tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"\xef\xbb\xbfhello")
    assert read_text(f) == ("hello", [])


def test_non_utf8_gives_problem_with_byte_and_keeps_text(tmp_path):
    f = tmp_path / "a.md"
    f.write_bytes(b"line one\nbad \xff here\n")
    text, problems = read_text(f)
    assert "bad \ufffd here" in text
    assert len(problems) == 1
    assert problems[0].path == str(f) and problems[0].line == 2
    assert "not UTF-8 (byte 13)" in problems[0].message


def test_missing_file_and_folder_are_not_problems(tmp_path):
    assert read_text(tmp_path / "nope") == (None, [])
    assert list_dir(tmp_path / "nope") == ([], [])
    assert read_json(tmp_path / "nope.json") == (None, [])
    assert list(iter_jsonl(tmp_path / "nope.jsonl", problems := [])) == [] and problems == []


def test_symlink_leaving_the_root_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("do not show")
    store = tmp_path / "store"
    store.mkdir()
    (store / "link.txt").symlink_to(outside / "secret.txt")
    (store / "linkdir").symlink_to(outside)
    (store / "inside.txt").write_text("fine")
    (store / "ok-link.txt").symlink_to(store / "inside.txt")

    text, problems = read_text(store / "link.txt", root=store)
    assert text is None
    assert "path leaves the data directory" in problems[0].message and problems[0].path == str(
        store / "link.txt"
    )
    entries, problems = list_dir(store / "linkdir", root=store)
    assert entries == [] and "path leaves the data directory" in problems[0].message
    assert read_text(store / "ok-link.txt", root=store) == ("fine", [])
    lines = []
    assert list(iter_jsonl(store / "link.txt", lines, root=store)) == []
    assert "leaves the data directory" in lines[0].message


def test_unreadable_file_and_folder_are_problems_not_exceptions(tmp_path, monkeypatch):
    f = tmp_path / "x.json"
    f.write_text("{}")
    d = tmp_path / "d"
    d.mkdir()
    (d / "inner").write_text("x")
    make_unreadable(monkeypatch, f)
    make_unreadable(monkeypatch, d)
    try:
        value, problems = read_json(f)
        assert value is None and "cannot read file" in problems[0].message
        entries, problems = list_dir(d)
        assert entries == [] and "cannot list folder" in problems[0].message
        bad = []
        assert list(iter_jsonl(f, bad)) == [] and "cannot read file" in bad[0].message
    finally:
        if os.geteuid() != 0:
            f.chmod(0o644)
            d.chmod(0o755)


# --- JSON -------------------------------------------------------------------------------------------


def test_malformed_json_reports_line(tmp_path):
    f = tmp_path / "a.json"
    f.write_text('{\n  "a": 1,\n  "b": ,\n}\n')
    value, problems = read_json(f)
    assert value is None
    assert problems[0].path == str(f) and problems[0].line == 3
    assert "not valid JSON" in problems[0].message


def test_json_of_wrong_kind_and_nan(tmp_path):
    f = tmp_path / "a.json"
    f.write_text("[1, 2]")
    value, problems = read_json(f, expect=dict)
    assert value is None and "expected a JSON object, found an array" in problems[0].message
    f.write_text('{"x": NaN}')
    assert read_json(f)[0] is None


# --- JSONL ------------------------------------------------------------------------------------------


def test_jsonl_bad_middle_line_blank_line_and_truncated_last_line(tmp_path):
    f = tmp_path / "h.jsonl"
    f.write_bytes(b'{"a":1}\nnot json\n\n[1]\n{"a":2}\n{"a":3,"b":\n')
    f.write_bytes(f.read_bytes() + b'{"a":4, "trunc')
    problems = []
    got = list(iter_jsonl(f, problems, include_bad=True))
    good = [(n, v) for n, v in got if not isinstance(v, BadLine)]
    bad = {n: v for n, v in got if isinstance(v, BadLine)}
    assert good == [(1, {"a": 1}), (5, {"a": 2})]
    assert bad[2].raw == "not json" and bad[2].reason == "unparseable"
    assert bad[3].reason == "blank"
    assert bad[4].reason == "not an object"
    assert bad[6].reason == "unparseable"  # has its newline: broken, not truncated
    assert bad[7].reason == "truncated" and bad[7].raw == '{"a":4, "trunc'
    by_line = {p.line: p for p in problems}
    assert set(by_line) == {2, 3, 4, 6, 7}
    assert all(p.path == str(f) for p in problems)
    assert "truncated line" in by_line[7].message
    assert "'not json'" in by_line[2].message
    assert by_line[3].severity == "warning"


def test_jsonl_summary_counts_without_keeping(tmp_path):
    f = tmp_path / "e.jsonl"
    f.write_text("".join(json.dumps({"i": i}) + "\n" for i in range(1000)) + "oops\n")
    s = summarize_jsonl(f, [])
    assert (s.lines, s.records, s.bad_lines, s.blank_lines) == (1001, 1000, (1001,), 0)


def test_jsonl_non_utf8_line(tmp_path):
    f = tmp_path / "e.jsonl"
    f.write_bytes(b'{"a":1}\n{"b":"\xff"}\n{"c":3}\n')
    problems = []
    assert [n for n, _ in iter_jsonl(f, problems)] == [1, 3]
    assert problems[0].line == 2 and "not UTF-8" in problems[0].message


# --- frontmatter ------------------------------------------------------------------------------------


def test_no_frontmatter_is_just_a_body():
    doc = parse_markdown("# Title\n\ntext\n", "x.md")
    assert (
        doc.meta == {} and doc.body == "# Title\n\ntext\n" and not doc.has_frontmatter and doc.problems == ()
    )


def test_frontmatter_split_and_body_line():
    doc = parse_markdown("---\nname: A\nenabled: yes\nwhen: 2026-01-01\n---\nbody\n", "x.md")
    # yes stays a string and dates stay strings, as in js-yaml (gray-matter), not YAML 1.1.
    assert doc.meta == {"name": "A", "enabled": "yes", "when": "2026-01-01"}
    assert (
        doc.body == "body\n"
        and doc.body_line == 6
        and doc.frontmatter_raw == "name: A\nenabled: yes\nwhen: 2026-01-01\n"
    )


def test_unclosed_frontmatter_is_reported_and_text_kept():
    text = "---\nname: A\nbody without fence\n"
    doc = parse_markdown(text, "x.md")
    assert doc.meta == {} and doc.body == text
    assert doc.problems[0].line == 1 and "never closed" in doc.problems[0].message


def test_yaml_syntax_error_has_file_line(tmp_path):
    f = tmp_path / "TASK.md"
    f.write_text("---\nname: ok\nschedule: [unclosed\ndescription: x\n---\nbody\n")
    doc, problems = read_markdown(f)
    assert doc.meta == {} and doc.body == "body\n"
    assert "schedule: [unclosed" in doc.frontmatter_raw
    assert problems[0].path == str(f) and "not valid YAML" in problems[0].message
    assert problems[0].line in (3, 4, 5)  # PyYAML marks where it noticed: the broken line or the next


def test_yaml_error_line_is_exact_for_bad_indentation():
    doc = parse_markdown("---\na: 1\nb: 2\n  c: 3\n---\n", "x.md")
    assert doc.problems[0].line == 4


def test_frontmatter_that_is_not_a_mapping():
    doc = parse_markdown("---\n- a\n- b\n---\nbody", "x.md")
    assert doc.meta == {} and "must be a mapping" in doc.problems[0].message


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_parse_markdown_never_raises(text):
    doc = parse_markdown(text, "x.md")
    assert isinstance(doc.meta, dict)
    # Nothing is hidden: the body is the text, or what follows the frontmatter.
    assert doc.body in text


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_jsonl_never_raises(tmp_path_factory, data):
    f = tmp_path_factory.mktemp("j") / "x.jsonl"
    f.write_bytes(data)
    problems = []
    for n, value in iter_jsonl(f, problems, include_bad=True):
        assert n >= 1
        assert isinstance(value, (dict, BadLine))
