"""AgentStack's space through ``api.Storage``: its SQLite tables and indexes by dbstat, free pages and the
log. AgentStack keeps no migrations list here, so no upgrade is offered; its audit tables only grow."""

from __future__ import annotations

from daycare_gui.stores.api import Storage
from daycare_gui.stores.common.space import sqlite_file, sqlite_tables
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import SpaceReport


class AgentStackStorage(Storage):
    modules = ("daycare_gui.stores.common.space",)
    offers_upgrade = False

    def __init__(self, store) -> None:
        self.store = store

    def own_folders(self):
        return (self.store.path.parent,)  # (working copies and backups beside the database)

    def space(self, progress=None) -> SpaceReport | None:
        fetch = self.store.db.rows
        report = SpaceReport()
        report.tables, report.method = sqlite_tables(fetch)
        pages, report.free, report.wal = sqlite_file(fetch, self.store.path)
        report.total = pages + report.wal
        if report.tables:
            top = report.tables[0]
            report.advice.append(f"{top.name} is the largest table ({byte_size(top.bytes)} of {byte_size(report.total)}).")
        if report.free:
            report.advice.append(f"{byte_size(report.free)} of free pages: a VACUUM with AgentStack stopped gives them back.")
        return report
