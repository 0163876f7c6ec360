"""The contract (``stores/api/``, its records and problems) sits at the bottom: the shared helpers import
it, it imports none of them, so a kind that says nothing of saving gets no file writer from it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.common.edit.atomic import sha256_of
from daycare_gui.stores.records import DocRef


class _ListedOnly(api.Documents):
    """A small kind's documents: listed, nothing said of reading or saving them."""

    def __init__(self, ref: DocRef) -> None:
        self.ref = ref

    def documents(self) -> list[DocRef]:
        return [self.ref]


def test_a_kind_that_says_nothing_of_saving_has_read_only_documents(tmp_path):
    path = tmp_path / "notes.md"
    path.write_bytes(b"# Notes\nKeep me.\n")
    docs = _ListedOnly(DocRef("notes", "Notes", path))
    with pytest.raises(api.WriteRefused, match="Notes cannot be edited"):
        docs.save(docs.ref, b"# Notes\nReplaced.\n", sha256_of(path.read_bytes()))
    assert path.read_bytes() == b"# Notes\nKeep me.\n"  # no backup-less write behind the kind's back


def test_importing_the_contract_loads_no_shared_helper():
    code = ("import sys, daycare_gui.stores.api\n"
            "print(sorted(m for m in sys.modules if m.startswith('daycare_gui.stores.common')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
