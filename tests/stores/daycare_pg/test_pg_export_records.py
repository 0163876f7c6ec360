"""Every record type of the PGlite demo comes out of a Markdown and an HTML export with its content."""

from __future__ import annotations

from daycare_gui.stores.daycare.records.history import HISTORY_KINDS
from tests.stores.export.content import assert_every_record_content_exported


def test_pglite_demo(pglite_demo):
    checked = assert_every_record_content_exported(pglite_demo)
    assert set(HISTORY_KINDS) <= set(checked)
