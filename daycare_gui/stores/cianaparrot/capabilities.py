"""What an opened CianaParrot store offers the shared panes; plus the raw tables and activity charts."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections import Counter

from daycare_gui.stores.api import (
    Actions,
    Automations,
    Charts,
    Collections,
    Conversations,
    Documents,
    Files,
    SearchSource,
    Storage,
    Tables,
    Tasks,
)
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.cianaparrot.files import merged_entries
from daycare_gui.stores.cianaparrot.messages import role_text
from daycare_gui.stores.records import DayCount, TableRef


class CianaTables(Tables):
    """``checkpoints`` and ``writes`` (and anything else in the file), blobs shown as size + first bytes."""

    def __init__(self, store) -> None:
        self.store = store

    def tables(self) -> list[TableRef]:
        out = []
        for name in sorted(self.store.tables):
            try:
                n = self.store.db.conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            except sqlite3.Error:
                n = None
            out.append(TableRef(name, n, columns=tuple(self.columns(name))))
        return out

    def columns(self, table: str) -> list[str]:
        return list(self.store.tables.get(table, []))

    def rows(self, table: str, offset: int, limit: int) -> list[tuple]:
        cols = self.store.tables.get(table)
        if not cols:
            return []
        shown = ", ".join(
            f"CASE WHEN typeof(\"{c}\") = 'blob' THEN '<' || length(\"{c}\") || ' bytes: ' || "
            f"lower(hex(substr(\"{c}\", 1, 16))) || '…>' ELSE \"{c}\" END" for c in cols)
        try:
            return [tuple(r) for r in self.store.db.conn.execute(
                f'SELECT {shown} FROM "{table}" LIMIT ? OFFSET ?', (int(limit), int(offset)))]
        except sqlite3.Error as exc:
            self.store.problems.add(self.store.layout.db, f"cannot read table {table} ({exc})")
            return []


class CianaCharts(Charts):
    def __init__(self, store) -> None:
        self.store = store

    def activity_per_day(self) -> list[DayCount]:
        """Checkpoints per day (from their time-ordered ids: no payload decoded) and session-log messages
        per day and role."""
        counts: Counter = Counter()
        reader = self.store.reader
        if reader is not None:
            try:
                for (cid,) in reader.conn.execute(f'SELECT "{reader.s.id_col}" FROM checkpoints'):
                    ms = id_time_ms(cid)
                    if ms is not None:
                        counts[(_day(ms), "checkpoints")] += 1
            except sqlite3.Error:
                pass
        for logs in self.store.logs.values():
            for entry in merged_entries(logs):
                if entry.value is not None and entry.at is not None:
                    counts[(_day(entry.at), f"log: {role_text(entry.value.get('role'))}")] += 1
        return [DayCount(day, series, n) for (day, series), n in sorted(counts.items())]


def _day(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d")


def offer_all(store) -> None:
    from daycare_gui.stores.cianaparrot.actions import CianaActions
    from daycare_gui.stores.cianaparrot.collections import CianaCollections
    from daycare_gui.stores.cianaparrot.conversations import CianaConversations
    from daycare_gui.stores.cianaparrot.documents import CianaDocuments
    from daycare_gui.stores.cianaparrot.search import CianaSearch
    from daycare_gui.stores.cianaparrot.tasks import CianaTasks

    conversations = CianaConversations(store)
    store.offer(Conversations, conversations)
    store.offer(SearchSource, CianaSearch(store, conversations))
    store.offer(Collections, CianaCollections(store))
    store.offer(Charts, CianaCharts(store))
    if store.db is not None:
        store.offer(Tables, CianaTables(store))
        from daycare_gui.stores.api import Usage
        from daycare_gui.stores.cianaparrot.usage import CianaUsage

        store.offer(Usage, CianaUsage(store))  # AIMessage usage, once per message id (#37)
    from daycare_gui.stores.cianaparrot.space import CianaStorage

    store.offer(Storage, CianaStorage(store))  # space by table, thread and folder; the prune
    if store.layout.root is not None or store.layout.data_dir is not None:
        store.offer(Tasks, CianaTasks(store))
        store.offer(Actions, CianaActions(store))
    if store.tasks or any(t.startswith("scheduler_") for t in store.threads):
        from daycare_gui.stores.cianaparrot.automations import CianaAutomations

        store.offer(Automations, CianaAutomations(store))
    if store.layout.workspace is not None or store.layout.root is not None:
        store.offer(Documents, CianaDocuments(store))
    if store.layout.workspace is not None:
        store.offer(Files, workspace_files(store.layout.workspace))


# Names in the workspace that may hold the bot's credentials: never listed, never read.
WORKSPACE_HIDDEN = frozenset({".env", "config.env", "secrets.json", "credentials.json"})


def workspace_files(workspace):
    """The agent's workspace folder (its documents, skills and whatever the agent wrote) as a Files root."""
    from daycare_gui.stores.common.folder_files import FolderFiles, FolderRoot
    from daycare_gui.stores.records import FileRoot

    root = FolderRoot(FileRoot("workspace", "Workspace", "", workspace,
                               "The agent's workspace: its documents, skills and the files it wrote."),
                      workspace, WORKSPACE_HIDDEN)
    return FolderFiles(lambda: [root])
