"""PERMISSIONS.md: intent and rule lists edited in place; rule validation."""

from __future__ import annotations

import pytest

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.daycare.edit.permissions_doc import PermissionsDoc, rule_warning, validate_rule

SEED = (
    b"## Source Intent\n\nNeed read-only diagnostics plus optional network pings.\n\n## Rules\n\n"
    b"### Allow\n- @read:/Users/steve/project\n- @network\n\n### Deny\n- @write:/\n"
)


def test_reads_the_seed_example():
    doc = PermissionsDoc.parse(SEED)
    assert doc.intent == "Need read-only diagnostics plus optional network pings."
    assert doc.allow == ["@read:/Users/steve/project", "@network"]
    assert doc.deny == ["@write:/"]
    assert doc.to_bytes() == SEED
    assert doc.problems() == []


def test_editing_deny_touches_only_the_deny_list():
    doc = PermissionsDoc.parse(SEED)
    doc.set_deny(["@write:/", "@events"])
    assert doc.to_bytes() == SEED + b"- @events\n"
    doc.set_allow([])
    assert doc.allow == [] and doc.deny == ["@write:/", "@events"]
    assert b"### Allow\n\n### Deny" in doc.to_bytes()


def test_intent_edit_keeps_other_sections_and_crlf():
    data = SEED.replace(b"\n", b"\r\n") + b"\r\n## Notes\r\nkept as is\r\n"
    doc = PermissionsDoc.parse(data)
    doc.set_intent("Read the project.\nNothing else.")
    out = doc.to_bytes()
    assert out.startswith(b"## Source Intent\r\n\r\nRead the project.\r\nNothing else.\r\n\r\n## Rules\r\n")
    assert out.endswith(b"## Notes\r\nkept as is\r\n")
    assert doc.intent == "Read the project.\nNothing else."


def test_missing_sections_are_created_in_daycare_layout():
    doc = PermissionsDoc.parse(b"")
    doc.set_intent("Need network.")
    doc.set_allow(["@network"])
    doc.set_deny(["@write:/"])
    assert doc.to_bytes() == b"## Source Intent\n\nNeed network.\n\n## Rules\n\n### Allow\n- @network\n\n### Deny\n- @write:/\n"


def test_headings_match_case_insensitively_and_notes_stay():
    data = b"## source intent\nx\n\n## RULES\n### allow\nSome note.\n- @network\n"
    doc = PermissionsDoc.parse(data)
    assert doc.allow == ["@network"]
    doc.set_allow(["@events", "@network"])
    assert doc.to_bytes() == b"## source intent\nx\n\n## RULES\n### allow\nSome note.\n- @events\n- @network\n"


def test_bad_rules_and_empty_intent_are_refused_without_change():
    doc = PermissionsDoc.parse(SEED)
    for bad in (["read everything"], ["@read:relative/path"], ["@write:"], ["@network:host"], [""]):
        with pytest.raises(InvalidValue):
            doc.set_allow(bad)
    with pytest.raises(InvalidValue):
        doc.set_intent("   ")
    assert doc.to_bytes() == SEED


@pytest.mark.parametrize(
    "rule, ok",
    [
        ("@read:/abs", True),
        ("@write:~/notes", True),
        ("@network", True),
        ("@events", True),
        ("@workspace", True),
        ("@custom:thing", True),
        ("@read:rel", False),
        ("network", False),
        ("@", False),
    ],
)
def test_validate_rule(rule, ok):
    assert (validate_rule(rule) is None) == ok


def test_unknown_tags_warn():
    assert rule_warning("@custom") is not None
    assert rule_warning("@network") is None


# --- the intent's own line endings (a file may mix CRLF and LF, or hold a lone CR or U+2028) ---------------

MIXED = ("## Source Intent\r\n\r\n  Read the blog\r\nand build it\nold mac\rline\u2028sep\r\nlast line\n\r\n"
         "## Rules\r\n\r\n### Allow\r\n- @network\n\r\n### Deny\r\n- @write:/\r\n").encode()


def test_the_intent_is_shown_with_every_break_a_line_feed():
    doc = PermissionsDoc.parse(MIXED)
    assert doc.shown_intent == "Read the blog\nand build it\nold mac\nline\nsep\nlast line"
    doc.set_intent(doc.shown_intent)
    doc.set_intent(doc.shown_intent + "\n\n")  # (blank lines typed below it are not the intent)
    assert doc.to_bytes() == MIXED


def test_editing_one_intent_line_keeps_every_other_lines_ending():
    doc = PermissionsDoc.parse(MIXED)
    doc.set_intent(doc.shown_intent.replace("and build it", "and build it daily"))
    assert doc.to_bytes() == MIXED.replace(b"and build it", b"and build it daily")
    doc.set_intent(doc.shown_intent + "\nnew line")  # a new line takes the intent's most common ending
    assert doc.to_bytes() == MIXED.replace(b"and build it", b"and build it daily").replace(
        b"last line\n", b"last line\nnew line\r\n")


def test_an_intent_ending_the_file_without_a_newline_stays_so():
    doc = PermissionsDoc.parse(b"## Source Intent\n\nold")
    doc.set_intent("new")
    assert doc.to_bytes() == b"## Source Intent\n\nnew"


def test_a_rule_list_edit_leaves_the_rules_kept_as_stored():
    data = (b"## Source Intent\r\n\r\nx\r\n\r\n## Rules\r\n\r\n### Allow\r\n- @network\n  -   @events\r\n"
            b"- @read:/a\n\r\n### Deny\r\n- @write:/\r\n")
    doc = PermissionsDoc.parse(data)
    doc.set_allow(["@network", "@events", "@read:/a", "@workspace"])
    assert doc.to_bytes() == data.replace(b"- @read:/a\n", b"- @read:/a\n- @workspace\r\n")
    doc.set_allow(["@read:/a", "@network", "@workspace"])  # moved lines keep their own ending and spacing
    assert doc.to_bytes() == data.replace(b"- @network\n  -   @events\r\n- @read:/a\n",
                                          b"- @read:/a\n- @network\n- @workspace\r\n")


def test_a_rule_list_ending_the_file_without_a_newline_stays_so():
    doc = PermissionsDoc.parse(b"## Rules\n### Deny\n- @write:/\r\n- @events")
    doc.set_deny(["@events", "@write:/"])
    assert doc.to_bytes() == b"## Rules\n### Deny\n- @events\n- @write:/"
