"""An opened CianaParrot deployment (or a lone checkpoints database): what the capabilities share.

Opening reads only small things: the database's table list and per-thread counts (one grouped scan), the
names of the session logs, and the three small JSON files. Conversations are decoded one thread at a time,
when asked for, and the last few are cached.
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.api import OpenedStore
from daycare_gui.stores.cianaparrot.bot_json import (
    file_text,
    object_repeat_problem,
    repeats_in_file,
    spelled,
    starts_with_bom,
    state_repeat_problems,
    task_repeats,
)
from daycare_gui.stores.cianaparrot.checkpoints import CheckpointReader, Schema, id_time_ms, schema_of
from daycare_gui.stores.cianaparrot.files import (
    LogFile,
    find_logs,
    read_object,
    read_tasks,
    split_thread,
)
from daycare_gui.stores.cianaparrot.layout import WORKSPACE_DOCS, Layout
from daycare_gui.stores.cianaparrot.liveness import BotStatus, bot_status
from daycare_gui.stores.cianaparrot.places import wrong_kind
from daycare_gui.stores.cianaparrot.sqlite_ro import ReadOnlyDB, emptiness
from daycare_gui.stores.records import StoreSummary

JSONSTORE_RESET = "CianaParrot starts this store empty when it cannot read it, and overwrites the file " \
                  "(losing its entries) at the next change"


@dataclass
class ThreadInfo:
    """One LangGraph thread (one conversation of a chat), from the database and/or the session logs."""

    id: str
    chat: str  # the chat key: <channel>_<chat_id>, or scheduler_<task> for a task's thread
    n: int  # the _s<N> number (0 for the first session)
    checkpoints: int = 0
    subgraph_checkpoints: int = 0
    latest: str | None = None
    writes: int = 0
    logs: list[LogFile] = field(default_factory=list)

    @property
    def updated_at(self) -> int | None:
        at = id_time_ms(self.latest)
        for log in self.logs:
            try:
                at = max(at or 0, int(log.path.stat().st_mtime * 1000))
            except OSError:
                pass
        return at


def chat_of(thread_id: str) -> tuple[str, int]:
    if thread_id.startswith("scheduler_"):
        return thread_id, 0
    return split_thread(thread_id)


class CianaStore(OpenedStore):
    kind = "cianaparrot"

    def __init__(self, layout: Layout, *, live: bool = True, title: str = "") -> None:
        super().__init__(title or str(layout.root or layout.db))
        self.layout = layout
        self.db: ReadOnlyDB | None = None
        self.schema: Schema | None = None
        self.reader: CheckpointReader | None = None
        for path, message, severity in layout.problems:
            self.problems.add(path, message, severity=severity)
        # A folder where a file belongs (or the reverse): said once here, then left unread below.
        self.misplaced = wrong_kind(layout)
        for path, message in self.misplaced.items():
            self.problems.add(path, message)
        self.status: BotStatus = bot_status(layout.db) if layout.db else BotStatus(False, "no database", "none")
        # Every checkpoint, if any, was seen: the database was read, or is absent or empty. False when it
        # could not be read or found, so that "no threads" is not taken for "nothing stored".
        self.db_ok = layout.db is not None
        self._open_db(live)
        self.threads: dict[str, ThreadInfo] = {}
        self._message_cache: OrderedDict[str, tuple] = OrderedDict()
        self._load_files()
        self._index()
        from daycare_gui.stores.cianaparrot.capabilities import offer_all

        offer_all(self)
        self._report_leftovers()

    # -- opening ---------------------------------------------------------------------------------------
    def _report_leftovers(self) -> None:
        """Temporary files of killed saves beside every file we write (and in the backup folder), and
        snapshot copies of killed processes in the temporary folder (removed here)."""
        from daycare_gui.stores.api import Documents
        from daycare_gui.stores.cianaparrot.safe_write import BACKUP_DIR
        from daycare_gui.stores.common.leftovers import report_and_clean

        L = self.layout
        folders = [L.data_dir, L.workspace, L.root, L.data_dir / BACKUP_DIR if L.data_dir else None]
        folders += [f.parent for f in (L.tasks_file, L.counters_file, L.cc_states_file) if f is not None]
        if docs := self.capability(Documents):
            folders += [Path(ref.path).parent for ref in docs.documents() if ref.path is not None]
        report_and_clean(self.problems, folders, snapshots=True)

    def _open_db(self, live: bool) -> None:
        db = self.layout.db
        if db is None or db in self.misplaced:  # (a deployment lacks one only when the layout said why)
            self.db_ok = False
            return
        if not db.exists():
            if self.layout.root is not None:
                self.problems.add(db, "no checkpoints database yet (the bot has not run, "
                                  "or agent.data_dir points elsewhere)", severity="warning")
            return
        try:
            self.db = ReadOnlyDB(db, live=live)
            conn = self.db.conn
            tables = {r[0]: [c[1] for c in conn.execute(f'PRAGMA table_info("{r[0]}")')]
                      for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except (sqlite3.Error, OSError) as exc:
            self.db_ok = False
            self.problems.add(db, f"cannot read the checkpoints database ({exc})")
            if self.db is not None:
                self.db.close()
                self.db = None
            return
        self.tables = tables
        self.schema = schema_of(tables)
        if self.schema is None:
            empty = None if tables else emptiness(conn, db)
            if empty:
                self.problems.add(db, f"the checkpoints database is empty ({empty}): no checkpoints to show",
                                  severity="warning")
            else:
                self.db_ok = False
                self.problems.add(db, "no LangGraph checkpoints table in this database")
            return
        self.reader = CheckpointReader(conn, self.schema)
        if self.schema.writes is None:
            self.problems.add(db, "no writes table: checkpoint steps show no writes", severity="warning")
        elif self.schema.writes.get("task_path") is None:
            self.problems.add(db, "writes has no task_path column (made by an older langgraph-checkpoint-sqlite)",
                              severity="warning")

    def _load_files(self) -> None:
        L, P = self.layout, self.problems
        self.counters = read_object(self._file(L.counters_file), P, "session counters", JSONSTORE_RESET)
        self.counters_ok = self.counters is not None or not (L.counters_file and L.counters_file.exists())
        for key, value in (self.counters or {}).items():
            if not isinstance(value, int) or isinstance(value, bool):
                P.add(L.counters_file, f"counter {key!r} is {spelled(value)}, not a number: the bot ignores it")
        if top := repeats_in_file(L.counters_file).get(()):
            P.add(L.counters_file, object_repeat_problem(top, "session_counters.json") + "; the counter repair "
                  "refuses to change them until the extra ones are removed by hand")
        self.tasks = read_tasks(self._file(L.tasks_file), P)
        self.tasks_ok = self.tasks is not None or not (L.tasks_file and L.tasks_file.exists())
        self.task_repeats = task_repeats(file_text(L.tasks_file))  # task id → keys written twice in it
        self.tasks_bom = starts_with_bom(L.tasks_file)  # we read it; the bot's scheduler cannot
        self.cc_states = read_object(self._file(L.cc_states_file), P, "Claude Code states", JSONSTORE_RESET)
        self.cc_ok = self.cc_states is not None or not (L.cc_states_file and L.cc_states_file.exists())
        # (the kind never writes this file; the bot's JsonStore keeps the last of each and drops the rest)
        self.cc_repeats = repeats_in_file(self._file(L.cc_states_file))  # object path → keys written twice
        if L.cc_states_file is not None:
            for message in state_repeat_problems(self.cc_repeats, L.cc_states_file.name):
                P.add(L.cc_states_file, message)
        self.logs = find_logs(L.session_dirs())

    def _file(self, path: Path | None) -> Path | None:
        """``path`` to read, or None when it is a folder (already said: reading it would only say "cannot
        read" in other words)."""
        return None if path in self.misplaced else path

    def _index(self) -> None:
        stats, writes = {}, {}
        if self.reader is not None:
            try:
                stats = self.reader.thread_stats()
                writes = self.reader.writes_per_thread()
            except sqlite3.Error as exc:
                self.db_ok = False
                self.problems.add(self.layout.db, f"cannot list threads ({exc})")
        for tid in sorted(set(stats) | set(self.logs)):
            chat, n = chat_of(tid)
            info = ThreadInfo(tid, chat, n, writes=writes.get(tid, 0), logs=self.logs.get(tid, []))
            if tid in stats:
                info.checkpoints, info.latest, info.subgraph_checkpoints = stats[tid]
            self.threads[tid] = info

    # -- shared answers ----------------------------------------------------------------------------------
    def chats(self) -> dict[str, list[ThreadInfo]]:
        """chat key → its threads in reset order (s0, s1, s2, ...)."""
        out: dict[str, list[ThreadInfo]] = {}
        for info in self.threads.values():
            out.setdefault(info.chat, []).append(info)
        for items in out.values():
            items.sort(key=lambda t: (t.n, t.id))
        return out

    def counter_findings(self) -> list[tuple[str, int, int]]:
        """(chat, counter, highest _s<N> in checkpoints) for every chat whose counter is too low, as the
        bot's own start-up sync judges it (threads in checkpoints only; a missing counter counts as 0)."""
        highest: dict[str, int] = {}
        for info in self.threads.values():
            if info.checkpoints and info.n > 0 and not info.id.startswith("scheduler_"):
                highest[info.chat] = max(highest.get(info.chat, 0), info.n)
        counters = self.counters or {}
        out = []
        for chat, top in sorted(highest.items()):
            value = counters.get(chat, 0)
            value = value if isinstance(value, int) and not isinstance(value, bool) else 0
            if value < top:
                out.append((chat, value, top))
        return out

    def writes_blocked(self) -> str | None:
        if self.layout.db is None:
            return None
        self.status = bot_status(self.layout.db, holding_connection=self.db is not None)
        if self.status.running:
            return f"the CianaParrot bot is running ({self.status.detail})"
        return self.status.caution or None  # e.g. WAL files left: a bot whose locks we cannot see

    def engine_state(self) -> tuple[str, str]:
        blocked = self.writes_blocked()  # (refreshes self.status)
        if blocked is None:
            return "", ""
        return ("running" if self.status.running else "maybe"), blocked

    def is_empty(self) -> bool:
        """Nothing stored yet (a deployment the bot has not run in): no thread, session log, task, counter
        or Claude Code state, and nothing that could not be read (that would be hidden, not absent). The
        workspace's Markdown does not count: it ships with the bot."""
        return (not self.threads and not self.tasks and not self.counters and not self.cc_states
                and self.db_ok and self.tasks_ok and self.counters_ok and self.cc_ok)

    def summary(self) -> StoreSummary:
        if self.is_empty():  # as Daycare and Linggen say it, so that a script can tell
            generation = "empty"
        elif self.schema is not None:
            generation = self.schema.generation
        elif self.layout.root is not None:
            generation = "files-only"
        else:
            generation = "unknown"
        notes = list(self.layout.notes)
        if self.db is not None and self.db.note:
            notes.append(self.db.note)
        return StoreSummary(
            kind=self.kind, generation=generation, title=self.title, engine_running=self.status.running,
            engine_detail=self.status.detail,
            open_mode=self.db.mode if self.db is not None else "", notes=tuple(notes),
            facts=(("threads", str(len(self.threads))), ("chats", str(len(self.chats())))),
        )

    def counts(self) -> dict[str, int]:
        from daycare_gui.stores.cianaparrot.report import counts_of

        return counts_of(self)

    def report(self, **_options) -> dict:
        from daycare_gui.stores.cianaparrot.report import report_of

        return report_of(self)

    def watch_paths(self) -> tuple[Path, ...]:
        # The checkpoints database beside its -wal (the bot commits into the WAL: the watcher takes the pair
        # for a database), the bot's JSON files, the session logs' folders and the workspace's documents
        # (edited in place, which a folder watch does not see). The database's folder shows a WAL that appears.
        L = self.layout
        wal = Path(str(L.db) + "-wal") if L.db is not None else None
        docs = [L.workspace / name for name in WORKSPACE_DOCS] if L.workspace is not None else []
        folder = L.db.parent if L.db is not None else None
        paths = [L.db, wal, folder, L.counters_file, L.tasks_file, L.cc_states_file, L.workspace,
                 *(p for _, p in L.session_dirs()), *docs]
        return tuple(p for p in paths if p is not None)

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
        self.reader = None
        self._message_cache.clear()
