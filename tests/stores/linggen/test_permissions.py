"""``<workspace>/.linggen/permissions.json`` edited as a list: only the tool_allows text changes."""

import json
import os

import pytest

from daycare_gui.stores.api import Collections, WriteConflict, WriteRefused
from daycare_gui.stores.linggen import KIND
from tests.stores.linggen.builder import Home, line, permissions_file


def _home(tmp_path, text: str | None):
    ws = tmp_path / "repo"
    ws.mkdir()
    h = Home(tmp_path / "home")
    h.session(h.project(str(ws), "repo"), "s", lines=line("user", "ling", "hi"))
    path = permissions_file(ws, text) if text is not None else ws / ".linggen" / "permissions.json"
    return h, path


def _row(root):
    cols = KIND.open(root).capability(Collections)
    rows = cols.rows("permissions", 0, 10)
    assert len(rows) == 1
    return cols, rows[0]


PRETTY = '{\n  "tool_allows": [\n    "Write",\n    "Edit"\n  ],\n  "note": "kept \\u00e9",\n  "z": [1,2]\n}'


def test_permissions_are_listed_and_editable(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    cols, row = _row(h.root)
    assert row.values[1] == "Write, Edit" and row.raw["tool_allows"] == ["Write", "Edit"]
    (field,) = cols.editable("permissions", row)
    assert field.name == "tool_allows" and field.kind == "list"


def test_an_edit_splices_only_the_list(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    cols, row = _row(h.root)
    new = cols.update("permissions", row, {"tool_allows": ["Write", "Bash", " Bash ", ""]})
    assert path.read_text() == PRETTY.replace('"Edit"', '"Bash"')
    assert new.raw["tool_allows"] == ["Write", "Bash"]
    cols.update("permissions", new, {"tool_allows": []})
    assert path.read_text() == '{\n  "tool_allows": [],\n  "note": "kept \\u00e9",\n  "z": [1,2]\n}'


def test_an_unchanged_list_writes_nothing(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    cols, row = _row(h.root)
    before = path.stat()
    assert cols.update("permissions", row, {"tool_allows": ["Write", "Edit"]}) == row
    assert path.stat().st_ino == before.st_ino and path.stat().st_mtime_ns == before.st_mtime_ns


def test_a_compact_file_stays_compact_and_a_missing_key_is_added(tmp_path):
    h, path = _home(tmp_path, '{"other":true}')
    cols, row = _row(h.root)
    cols.update("permissions", row, {"tool_allows": ["Read"]})
    assert path.read_text() == '{"other":true, "tool_allows": ["Read"]}'
    assert json.loads(path.read_text()) == {"other": True, "tool_allows": ["Read"]}


def test_a_missing_file_is_created_as_linggen_writes_it(tmp_path):
    h, path = _home(tmp_path, None)
    cols, row = _row(h.root)
    assert row.values[2] == "(no file yet)" and row.raw["sha256"] is None
    cols.update("permissions", row, {"tool_allows": ["Write"]})
    assert path.read_text() == '{\n  "tool_allows": [\n    "Write"\n  ]\n}'


def test_a_changed_file_is_a_conflict(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    cols, row = _row(h.root)
    path.write_text('{"tool_allows": ["Bash"]}')
    with pytest.raises(WriteConflict):
        cols.update("permissions", row, {"tool_allows": ["Read"]})
    assert path.read_text() == '{"tool_allows": ["Bash"]}'


def test_refused_while_linggen_runs_unless_forced(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    h.pid()
    cols, row = _row(h.root)
    with pytest.raises(WriteRefused, match="running"):
        cols.update("permissions", row, {"tool_allows": ["Read"]})
    assert path.read_text() == PRETTY
    cols.update("permissions", row, {"tool_allows": ["Read"]}, force=True)
    assert json.loads(path.read_text())["tool_allows"] == ["Read"]


def test_a_broken_file_is_reported_and_never_edited(tmp_path):
    h, path = _home(tmp_path, '{"tool_allows": ["Wri')
    store = KIND.open(h.root)
    cols = store.capability(Collections)
    row = cols.rows("permissions", 0, 10)[0]
    assert "overwrites it" in row.problem and cols.editable("permissions", row) == ()
    assert any(p.path == str(path) for p in store.problems)
    with pytest.raises(WriteRefused):
        cols.update("permissions", row, {"tool_allows": ["Read"]})
    assert path.read_text() == '{"tool_allows": ["Wri'


def test_bad_values_are_refused(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    cols, row = _row(h.root)
    with pytest.raises(WriteRefused):
        cols.update("permissions", row, {"tool_allows": [1, 2]})
    with pytest.raises(WriteRefused):
        cols.update("permissions", row, {"other": 1})
    assert path.read_text() == PRETTY


def test_flat_layout_marks_the_file_as_ignored(tmp_path):
    h, path = _home(tmp_path, PRETTY)
    h.flat_session("f", lines=line("user", "ling", "x"))
    _cols, row = _row(h.root)
    assert row.flag == "ignored by flat-layout Linggen"


@pytest.mark.parametrize("text", ['{"tool_allows": ["Wri', '["Write"]', b"\xff\xfe{}",
                                  b'\xef\xbb\xbf{"tool_allows": ["Read"]}'])
def test_a_broken_file_counts_as_a_broken_json_file(tmp_path, text):
    # damaged JSON, the wrong top-level type, bytes that are not text, a byte-order mark (Rust's serde_json
    # rejects it): Linggen treats each as empty
    h, path = _home(tmp_path, "{}")
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    store = KIND.open(h.root)
    assert store.counts()["bad_json_files"] == 1
    assert store.report()["counts"]["bad_json_files"] == 1
    _row(h.root)  # listing the rows again does not count it twice
    assert store.counts()["bad_json_files"] == 1


def test_a_good_or_missing_file_is_not_counted(tmp_path):
    h, _path = _home(tmp_path, PRETTY)
    assert KIND.open(h.root).counts()["bad_json_files"] == 0
    (tmp_path / "b").mkdir()
    h2, _ = _home(tmp_path / "b", None)
    assert KIND.open(h2.root).counts()["bad_json_files"] == 0


@pytest.mark.parametrize("text, expected", [
    ('{\r\n  "tool_allows": [\r\n    "Read"\r\n  ],\r\n  "z": 1\r\n}\r\n',
     '{\r\n  "tool_allows": [\r\n    "Read",\r\n    "Bash"\r\n  ],\r\n  "z": 1\r\n}\r\n'),
    ('{\r\n  "z": 1\r\n}\r\n',
     '{\r\n  "z": 1,\r\n  "tool_allows": [\r\n    "Read",\r\n    "Bash"\r\n  ]\r\n}\r\n'),
    ('{\r\n}\r\n', '{\r\n  "tool_allows": [\r\n    "Read",\r\n    "Bash"\r\n  ]\r\n}\r\n'),
], ids=["list-replaced", "key-added", "empty-object"])
def test_a_crlf_file_gets_crlf_lines(tmp_path, text, expected):
    # a Windows-edited file must not come back with LF lines mixed in among its CRLF ones
    h, path = _home(tmp_path, "{}")
    path.write_bytes(text.encode())
    cols, row = _row(h.root)
    cols.update("permissions", row, {"tool_allows": ["Read", "Bash"]})
    assert path.read_bytes() == expected.encode()


def test_a_file_with_a_byte_order_mark_is_reported_as_unread_by_linggen_and_never_edited(tmp_path):
    # Python skips the mark, Linggen's serde_json does not: the tools listed there are not allowed at all
    text = b'\xef\xbb\xbf{\n  "tool_allows": ["Read"],\n  "z": 1\n}\n'
    h, path = _home(tmp_path, "{}")
    path.write_bytes(text)
    store = KIND.open(h.root)
    cols = store.capability(Collections)
    row = cols.rows("permissions", 0, 10)[0]
    assert "byte-order mark" in row.problem and "treats the file as empty" in row.problem
    assert "overwrites it on its next save" in row.problem
    assert cols.editable("permissions", row) == ()
    assert any(p.path == str(path) and "byte-order mark" in p.message for p in store.problems)
    with pytest.raises(WriteRefused, match="byte-order mark.*nothing was written"):
        cols.update("permissions", row, {"tool_allows": ["Read", "Bash"]})
    assert path.read_bytes() == text


def test_a_read_only_file_is_refused_even_when_forced(tmp_path):
    from daycare_gui.stores.common.edit.atomic import ReadOnlyError

    h, path = _home(tmp_path, PRETTY)
    os.chmod(path, 0o444)
    cols, row = _row(h.root)
    for force in (False, True):
        with pytest.raises(ReadOnlyError, match="permissions.json is read-only .mode 0444.; nothing was written"):
            cols.update("permissions", row, {"tool_allows": ["Read"]}, force=force)
    assert path.read_text() == PRETTY and os.stat(path).st_mode & 0o777 == 0o444
