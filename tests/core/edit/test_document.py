"""FrontmatterDocument: byte-identical round trips of tricky files, and edits that touch only one key."""

from __future__ import annotations

import pytest

from daycare_gui.stores.common.edit.document import FrontmatterDocument, split_lines
from daycare_gui.stores.common.edit.errors import DocumentError

TRICKY = {
    "bom": "\ufeff---\nname: x\n---\nbody\n".encode(),
    "crlf": b"---\r\nname: x\r\nschedule: '0 2 * * *'\r\n---\r\nbody\r\n",
    "mixed": b"---\r\nname: x\nother: 1\r\n---\nbody\r\nmore\n",
    "no final newline": b"---\nname: x\n---\nbody",
    "no final newline after header": b"---\nname: x\n---",
    "comments": b"---\n# top comment\nname: x  # trailing\n\n# between\nenabled: true\n---\n",
    "quoted keys": b"---\n\"odd key\": 1\n'single': two\nplain: \"three\"\n---\n",
    "unicode": "---\nname: Caf\u00e9 \u65e5\u672c \U0001f600\n---\n\u00fcber\n".encode(),
    "empty header": b"---\n---\n",
    "empty file": b"",
    "no frontmatter": b"# Title\n\nJust text.\n",
    "broken yaml": b"---\nname: [unclosed\n---\nbody\n",
    "unclosed": b"---\nname: x\nbody\n",
    "not utf-8": b"---\nname: \xff\xfe\n---\n",
    "only dashes": b"---",
    "list header": b"---\n- a\n- b\n---\n",
    "body with rule": b"---\na: 1\n---\ntext\n---\nmore\n",
    "block scalar": b"---\ndesc: |\n  line one\n  line two\n\nname: x\n---\n",
    "tabs and spaces": b"---   \nname:\tx\n---  \nbody\n",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_unchanged_document_writes_back_identically(name):
    data = TRICKY[name]
    doc = FrontmatterDocument.parse(data)
    assert doc.to_bytes() == data
    assert not doc.modified


def test_values_and_body():
    doc = FrontmatterDocument.parse(TRICKY["crlf"])
    assert doc.keys() == ["name", "schedule"]
    assert doc.get("schedule") == "0 2 * * *"
    assert doc.body == "body\n"
    assert doc.raw_body == "body\r\n"
    assert doc.has_frontmatter and doc.editable


def test_broken_yaml_reports_file_line_and_refuses_key_edits_but_raw_edit_works():
    doc = FrontmatterDocument.parse(b"---\nname: ok\nbad: [\n---\nbody\n")
    assert doc.error is not None and doc.error.line in (3, 4)
    assert doc.keys() == []
    with pytest.raises(DocumentError):
        doc.set("name", "y")
    doc.set_header_text("name: ok\nbad: []\n")
    assert doc.error is None and doc.get("bad") == []
    doc.set("name", "fixed")
    assert doc.to_bytes() == b"---\nname: fixed\nbad: []\n---\nbody\n"


def test_set_raw_text_reparses():
    doc = FrontmatterDocument.parse(TRICKY["unclosed"])
    assert doc.error.line == 1
    doc.set_raw_text("---\nname: x\n---\nbody\n")
    assert doc.error is None and doc.get("name") == "x"


def test_not_utf8_round_trips_but_cannot_be_edited():
    doc = FrontmatterDocument.parse(TRICKY["not utf-8"])
    assert doc.error is not None and "UTF-8" in doc.error.message
    with pytest.raises(DocumentError, match="UTF-8"):
        doc.set("name", "x")
    with pytest.raises(DocumentError):
        doc.set_body("x")
    assert doc.to_bytes() == TRICKY["not utf-8"]


def _changed_lines(before: bytes, after: bytes) -> list[tuple[str, str]]:
    a, b = split_lines(before.decode()), split_lines(after.decode())
    assert len(a) == len(b)
    return [(x, y) for x, y in zip(a, b, strict=False) if x != y]


def test_setting_a_key_changes_only_its_line_keeping_quotes_and_comments():
    before = b"---\n# top\nname: 'Daily'  # keep me\nschedule: \"0 2 * * *\"\n\nenabled: true\nunknown_key: {a: 1}\n---\nbody\n"
    doc = FrontmatterDocument.parse(before)
    doc.set("schedule", "*/5 * * * *")
    assert _changed_lines(before, doc.to_bytes()) == [('schedule: "0 2 * * *"\n', 'schedule: "*/5 * * * *"\n')]
    doc.set("name", "It's new")
    assert "name: 'It''s new'  # keep me\n" in doc.to_bytes().decode()
    doc.set("enabled", False)
    assert doc.get("enabled") is False and doc.get("unknown_key") == {"a": 1}


def test_crlf_is_kept_for_new_lines():
    doc = FrontmatterDocument.parse(TRICKY["crlf"])
    doc.set("enabled", True)
    doc.set("permissions", ["@network", "@read:/tmp"])
    assert doc.to_bytes() == (
        b"---\r\nname: x\r\nschedule: '0 2 * * *'\r\nenabled: true\r\npermissions:\r\n"
        b'  - "@network"\r\n  - "@read:/tmp"\r\n---\r\nbody\r\n'
    )


def test_block_list_is_replaced_as_a_block_keeping_indent_and_style():
    before = b"---\nname: s\npermissions:\n    - '@read:/a'\n    - '@network'\n# after the list\nsandbox: true\n---\n"
    doc = FrontmatterDocument.parse(before)
    doc.set("permissions", ["@write:/b"])
    assert doc.to_bytes() == b"---\nname: s\npermissions:\n    - '@write:/b'\n# after the list\nsandbox: true\n---\n"
    doc.set("permissions", [])
    assert doc.get("permissions") == [] and doc.get("sandbox") is True


def test_delete_and_add_keys():
    doc = FrontmatterDocument.parse(b"---\na: 1\nb:\n  - x\n\n# c\nc: 3\n---\n")
    doc.delete("b")
    assert doc.to_bytes() == b"---\na: 1\n\n# c\nc: 3\n---\n"
    doc.set("weird key: #1", "v")
    assert FrontmatterDocument.parse(doc.to_bytes()).get("weird key: #1") == "v"


def test_setting_a_key_in_a_file_without_frontmatter_adds_it():
    doc = FrontmatterDocument.parse(b"\xef\xbb\xbfhello\r\n")
    doc.set("title", "T")
    assert doc.to_bytes() == b"\xef\xbb\xbf---\r\ntitle: T\r\n---\r\nhello\r\n"


def test_empty_header_gets_its_first_key():
    doc = FrontmatterDocument.parse(b"---\n---\n")
    doc.set("name", "x")
    assert doc.to_bytes() == b"---\nname: x\n---\n"


def test_values_that_need_quotes_are_quoted():
    doc = FrontmatterDocument.parse(b"---\nv: plain\n---\n")
    for value in ["yes", "true", "1", "null", "@read:/x", "a: b", "x #y", " lead", "", "line\nbreak", "~", "0o17"]:
        doc.set("v", value)
        assert FrontmatterDocument.parse(doc.to_bytes()).get("v") == value


def test_anchor_alias_edit_that_would_change_another_key_is_refused():
    before = b"---\na: &x shared\nb: *x\n---\n"
    doc = FrontmatterDocument.parse(before)
    with pytest.raises(DocumentError):
        doc.set("a", "changed")
    assert doc.to_bytes() == before
    doc.set("b", "own")  # b's text is only "*x": replacing it leaves a alone
    assert doc.get("a") == "shared" and doc.get("b") == "own"


def test_flow_root_mapping_refuses_key_edits():
    doc = FrontmatterDocument.parse(b"---\n{a: 1}\n---\n")
    with pytest.raises(DocumentError, match="raw text"):
        doc.set("a", 2)


def test_set_body_keeps_each_lines_ending_and_noop_keeps_bytes():
    data = b"---\na: 1\r\n---\r\nline1\r\nline2\nline3"
    doc = FrontmatterDocument.parse(data)
    doc.set_body(doc.body)
    assert doc.to_bytes() == data
    doc.set_body("new\nbody\n")  # three lines edited in place: each keeps the ending it had
    assert doc.to_bytes().endswith(b"---\r\nnew\r\nbody\n")


MIXED_BODY = b"---\r\nname: x\r\n---\r\nline1\r\nline2\nline3\r\n"


def test_editing_one_body_line_of_a_mixed_file_changes_no_other_line_ending():
    """QA: changing line3 turned line2's LF into CRLF (one ending was used for the whole body)."""
    doc = FrontmatterDocument.parse(MIXED_BODY)
    doc.set_body(doc.shown_body.replace("line3", "LINE3"))
    assert doc.to_bytes() == MIXED_BODY.replace(b"line3", b"LINE3")
    doc.set_body(doc.shown_body.replace("line1\n", "line1\nadded\n"))  # a new line takes the usual CRLF
    assert doc.to_bytes() == b"---\r\nname: x\r\n---\r\nline1\r\nadded\r\nline2\nLINE3\r\n"


def test_a_new_line_in_a_one_line_body_takes_the_files_ending():
    doc = FrontmatterDocument.parse(b"---\r\nname: x\r\n---\r\nonly")
    doc.set_body("only\nmore")
    assert doc.to_bytes() == b"---\r\nname: x\r\n---\r\nonly\r\nmore"


def test_lone_cr_and_line_separators_in_the_body_survive_an_edit_of_another_line():
    data = "---\nname: x\n---\nold mac\rline\n\tsep\u2028after\nlast\n".encode()
    doc = FrontmatterDocument.parse(data)
    assert doc.shown_body == "old mac\nline\n\tsep\nafter\nlast\n"
    doc.set_body(doc.shown_body.replace("last", "LAST"))
    assert doc.to_bytes() == data.replace(b"last", b"LAST")


def test_a_raw_text_edit_keeps_every_other_lines_ending_header_included():
    """QA: an edit in the Raw text tab of a mixed file turned every CRLF, header included, into LF."""
    doc = FrontmatterDocument.parse(MIXED_BODY)
    assert doc.shown_text == "---\nname: x\n---\nline1\nline2\nline3\n"
    doc.set_shown_text(doc.shown_text.replace("line3", "LINE3"))
    assert doc.to_bytes() == MIXED_BODY.replace(b"line3", b"LINE3")
    doc.set_shown_text(doc.shown_text.replace("name: x\n", "name: x\nextra: 1\n"))
    assert doc.to_bytes() == b"---\r\nname: x\r\nextra: 1\r\n---\r\nline1\r\nline2\nLINE3\r\n"
    assert doc.get("extra") == 1


def test_setting_the_same_value_is_a_no_op():
    data = b"---\nflag: yes_string\nn: 1.0\n---\n"
    doc = FrontmatterDocument.parse(data)
    doc.set("n", 1.0)
    doc.set("flag", "yes_string")
    assert doc.to_bytes() == data


def test_block_scalar_value_is_replaced_and_following_keys_kept():
    doc = FrontmatterDocument.parse(TRICKY["block scalar"])
    doc.set("desc", "one line now")
    assert doc.to_bytes() == b"---\ndesc: one line now\n\nname: x\n---\n"


def test_rename_key_keeps_value_text():
    doc = FrontmatterDocument.parse(b"---\nagent_id: 'a1'  # legacy\nname: x\n---\n")
    doc.rename_key("agent_id", "agentId")
    assert doc.to_bytes() == b"---\nagentId: 'a1'  # legacy\nname: x\n---\n"
    with pytest.raises(DocumentError):
        doc.rename_key("agentId", "name")


def test_empty_value_key_gets_a_value():
    doc = FrontmatterDocument.parse(b"---\ndescription:\nname: x\n---\n")
    doc.set("description", "filled")
    assert doc.to_bytes() == b"---\ndescription: filled\nname: x\n---\n"
