"""The inspection report: one dict that says what a store holds (used by ``inspect --json``)."""

from __future__ import annotations

import os

from daycare_gui.stores.daycare.sqlite.store import open_store


def inspect_report(path: str | os.PathLike, *, include_home_skills: bool = False) -> dict:
    # live=False: a store whose WAL holds data is read from a private snapshot, so not even the
    # -shm read marks of the original are touched.
    with open_store(path, live=False) as store:
        return report_of(store, include_home_skills=include_home_skills)


def report_of(store, *, include_home_skills: bool = False) -> dict:
    """The report of an opened Daycare ``Store`` (the Daycare kind's part of ``inspect --json``)."""
    counts: dict[str, int] = dict(sorted(store.table_counts().items()))
    inventory = store.files(include_home_skills=include_home_skills)
    for name, count in inventory.counts().items():
        counts[f"files.{name}"] = count
    store.check_json_columns()
    return {
        "path": str(store.paths.root),
        "kind": store.detection.kind,
        "generation": store.generation,
        "notes": list(store.detection.notes),
        "paths": store.paths.to_dict(),
        "engine_running": store.engine.running,
        "engine": store.engine.to_dict(),
        "open_mode": store.db.mode.name if store.db is not None else None,
        "migrations": store.migrations.to_dict(),
        "counts": counts,
        "task_sources": [
            {"kind": t.kind, "id": t.id, "file": str(t.file_path) if t.file_path else None,
             "has_row": t.has_row, "daycare_reads": t.reads, "why": t.reason}
            for t in store.task_sources()
        ],
        "problems": [p.to_dict() for p in store.problems],
    }
