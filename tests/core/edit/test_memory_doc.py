"""Memory entity files: ## record sections listed and edited one at a time."""

from __future__ import annotations

from daycare_gui.core.edit.memory_doc import MemoryEntityDoc

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
