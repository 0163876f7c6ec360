"""Probing and opening CianaParrot deployments and lone LangGraph checkpoint databases."""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath
from daycare_gui.stores.cianaparrot.checkpoints import schema_of
from daycare_gui.stores.cianaparrot.layout import DB_NAME, resolve
from daycare_gui.stores.cianaparrot.sqlite_ro import peek_tables


def _database_confidence(path: Path) -> tuple[float, str]:
    tables = peek_tables(path)
    if tables is None:
        return 0.0, "not a SQLite database"
    schema = schema_of(tables)
    if schema is None:
        if not tables and path.name == DB_NAME and Path(str(path) + "-wal").exists():
            return 0.5, "named checkpoints.db; its tables are still only in the write-ahead log"
        return 0.0, "a SQLite database without LangGraph's checkpoints table"
    return (1.0 if path.name == DB_NAME else 0.9), f"a LangGraph checkpoints database ({schema.generation})"


class CianaParrotKind(StoreKind):
    name = "cianaparrot"
    title = "CianaParrot"
    probe_modules = ("yaml",)  # a deployment's config.yaml is read to judge it
    open_modules = (*probe_modules, *(f"daycare_gui.stores.cianaparrot.{m}" for m in (
        "decode", "store", "capabilities", "actions", "collections", "conversations", "documents", "search",
        "tasks", "report")), "daycare_gui.stores.common.folder_files")

    def probe(self, path: StorePath) -> Candidate:
        try:
            given = Path(os.fspath(path)).expanduser()
            layout, reason, confidence = resolve(given)
            if layout is not None and confidence < 0:  # a lone file: its tables decide
                confidence, reason = _database_confidence(given)
            return Candidate(self.name, max(0.0, confidence), reason)
        except Exception as exc:  # noqa: BLE001 — a probe never raises
            return Candidate(self.name, 0.0, f"could not look at it ({type(exc).__name__}: {exc})")

    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        from daycare_gui.stores.cianaparrot.store import CianaStore

        given = Path(os.fspath(path)).expanduser()
        layout, reason, confidence = resolve(given)
        if layout is not None and confidence < 0:
            confidence, reason = _database_confidence(given)
        if layout is None or confidence <= 0:
            raise NotRecognised(f"{given} is not a CianaParrot store: {reason}")
        return CianaStore(layout, live=live, title=str(given))


KIND = CianaParrotKind()
