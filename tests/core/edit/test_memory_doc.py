"""Memory entity files: ## record sections listed and edited one at a time."""

from __future__ import annotations

from daycare_gui.stores.daycare.edit.memory_doc import MemoryEntityDoc

ENTITY = (
    b'---\nname: "Deployment Incidents"\ndescription: "Recent deploy failures and mitigations"\n---\n'
    b"# incidents\n\n## incident-2026-02-01\nRollback required due to migration timeout.\n\n"
    b"## incident-2026-02-15\nOutage caused by missing env var.\n"
)


def test_lists_sections():
    doc = MemoryEntityDoc.parse(ENTITY)
    assert [(s.title, s.text) for s in doc.sections()] == [
        ("incident-2026-02-01", "Rollback required due to migration timeout."),
        ("incident-2026-02-15", "Outage caused by missing env var."),
    ]
    assert doc.prefix == "# incidents\n\n"
    assert doc.get_field("name") == "Deployment Incidents"
    assert doc.to_bytes() == ENTITY


def test_editing_one_section_changes_only_its_lines():
    doc = MemoryEntityDoc.parse(ENTITY)
    doc.set_section_text(0, "Rollback required.\nRoot cause: lock timeout.")
    assert doc.to_bytes() == ENTITY.replace(
        b"Rollback required due to migration timeout.\n", b"Rollback required.\nRoot cause: lock timeout.\n"
    )
    doc.rename_section(1, "incident-2026-02-16")
    assert b"## incident-2026-02-16\nOutage caused by missing env var.\n" in doc.to_bytes()


def test_add_and_remove_sections():
    doc = MemoryEntityDoc.parse(ENTITY)
    assert doc.add_section("incident-2026-03-01", "Disk full.") == 2
    assert doc.to_bytes() == ENTITY + b"\n## incident-2026-03-01\nDisk full.\n"
    doc.remove_section(0)
    assert [s.title for s in doc.sections()] == ["incident-2026-02-15", "incident-2026-03-01"]
    assert doc.to_bytes().startswith(ENTITY[: ENTITY.index(b"## incident-2026-02-01")] + b"## incident-2026-02-15")


def test_headings_inside_code_fences_are_not_sections():
    doc = MemoryEntityDoc.parse(b"## a\n```\n## not a section\n```\n## b\nx")
    assert [s.title for s in doc.sections()] == ["a", "b"]
    doc.set_section_text(1, "y")
    assert doc.to_bytes() == b"## a\n```\n## not a section\n```\n## b\ny"


# --- a record's own line endings (a file may mix CRLF and LF, or hold a lone CR or U+2028) -----------------

MIXED = ("---\r\nname: Mixed\r\n---\r\n# mixed\r\n\r\n## first\r\n\r\nline one\r\nline two\n"
         "old mac\rline\u2028sep\r\nlast\n\r\n## second\nother\r\n").encode()


def test_a_record_is_shown_with_every_break_a_line_feed_and_unchanged_text_writes_nothing():
    doc = MemoryEntityDoc.parse(MIXED)
    first = doc.sections()[0].text
    assert first == "\nline one\nline two\nold mac\nline\nsep\nlast"
    doc.set_section_text(0, first)
    doc.set_section_text(0, first + "\n\n")  # (blank lines typed below it are not the record's)
    doc.set_section_text(1, doc.sections()[1].text)
    assert doc.to_bytes() == MIXED


def test_editing_one_record_line_keeps_every_other_lines_ending():
    doc = MemoryEntityDoc.parse(MIXED)
    doc.set_section_text(0, doc.sections()[0].text.replace("line two", "line 2"))
    assert doc.to_bytes() == MIXED.replace(b"line two", b"line 2")  # the blank line after the heading stays
    doc.set_section_text(0, doc.sections()[0].text + "\nadded")  # a new line takes the record's usual ending
    assert doc.to_bytes() == MIXED.replace(b"line two", b"line 2").replace(b"last\n", b"last\nadded\r\n")
    doc.set_section_text(1, "other\nmore")
    assert doc.to_bytes().endswith(b"## second\nother\r\nmore\r\n")


def test_an_empty_record_gets_the_files_line_ending():
    doc = MemoryEntityDoc.parse(b"## a\r\n\r\n## b\r\nx\r\n")
    doc.set_section_text(0, "one\ntwo")
    assert doc.to_bytes() == b"## a\r\none\r\ntwo\r\n\r\n## b\r\nx\r\n"
    doc.set_section_text(0, "")
    assert doc.to_bytes() == b"## a\r\n\r\n## b\r\nx\r\n"
