"""Daycare's store through the shared capabilities: its SQLite tables and its conversations.

Daycare's own panes read the core directly; these adapters let shared code (the table browser, export,
the neutral conversation view, other kinds' tests of the seam) read a Daycare store like any other.
"""

from __future__ import annotations

# Imported here, on the GUI thread that opens the store: the shared conversations pane reads through them
# on its worker, and a worker must never be the first to import a module (ui/preload.py).
import daycare_gui.stores.daycare.sqlite.queries.history  # noqa: F401
import daycare_gui.stores.daycare.sqlite.queries.history_pages  # noqa: F401
import daycare_gui.stores.daycare.sqlite.queries.sessions  # noqa: F401
from daycare_gui.stores.api import (
    Charts,
    Collections,
    Conversations,
    SearchSource,
    Storage,
    Tables,
    Tasks,
    Trash,
    Usage,
)
from daycare_gui.stores.common.collection_union import CollectionUnion
from daycare_gui.stores.daycare.legacy.search import DaycareLegacySearch
from daycare_gui.stores.daycare.records import HistoryRecord
from daycare_gui.stores.daycare.sqlite.charts import DaycareCharts
from daycare_gui.stores.daycare.sqlite.search import DaycareSqliteSearch
from daycare_gui.stores.daycare.sqlite.storage import DaycareStorage
from daycare_gui.stores.daycare.sqlite.tables import DaycareTables
from daycare_gui.stores.daycare.sqlite.threads import SqliteThreadListing, session_meta
from daycare_gui.stores.daycare.sqlite.usage import DaycareSqliteUsage
from daycare_gui.stores.daycare.sqlite.users import SqliteUsers
from daycare_gui.stores.daycare.trash import DaycareTrash
from daycare_gui.stores.records import (
    Message,
    SessionRecord,
    SessionRef,
    ThreadRecord,
    ToolCallRecord,
    ToolResultRecord,
)

_ROLE = {
    "user_message": "user", "assistant_message": "assistant", "tool_result": "tool", "note": "note",
    "assistant_rewrite": "assistant", "start": "event", "reset": "event",
}


def _utc(ms: int) -> str:
    import datetime as _dt

    try:
        return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return str(ms)


def _facts(rec: HistoryRecord, size: int | None) -> tuple[tuple[str, str], ...]:
    """What the detail pane lists beside a record (the old History pane's fields), as labelled text. Made
    for every record a list paints: plain ifs, most records have two or three of these."""
    facts = [("Session", rec.session_id)] if rec.session_id else []
    if rec.tool_call_id:
        facts.append(("Tool call id", rec.tool_call_id))
    if rec.tool_name:
        facts.append(("Tool", rec.tool_name))
    if rec.reason:
        facts.append(("Reason", rec.reason))
    if rec.assistant_at:
        facts.append(("Rewrites message at", _utc(rec.assistant_at)))
    if size is not None:
        facts.append(("Stored size", f"{size:,} bytes"))
    if rec.tokens is not None:
        facts += [("Model", f"{rec.tokens.provider} / {rec.tokens.model}"), ("Tokens", f"{rec.tokens.size.total:,}")]
    if rec.files:
        facts += [("File", f"{f.name} · {f.mime_type} · {f.size:,} bytes · {f.path}") for f in rec.files]
    if rec.type == "rlm_tool_call":
        facts.append(("Note", "the VM snapshot is left out here; Raw JSON shows it"))
    return tuple(facts)


def message_of(rec: HistoryRecord, problem: str | None = None, size: int | None = None) -> Message:
    """A Daycare history record as a neutral message (``kind`` keeps Daycare's record type). ``problem``:
    why its stored data did not parse; ``size``: how big it is as stored (the detail pane says both)."""
    result = None
    if rec.type in ("tool_result", "rlm_tool_result") and rec.tool_call_id:
        result = ToolResultRecord(rec.tool_call_id, rec.tool_name or "", rec.tool_output_text or rec.output or "",
                                  rec.is_error)
    text = rec.text or ""
    if not text and rec.type not in ("tool_result",):
        text = rec.code or rec.output or rec.error or rec.reset_message or ""
    if rec.type == "rlm_complete" and rec.is_error and rec.error and rec.error not in text:
        text = "\n\n".join(t for t in (text, rec.error) if t)
    if rec.type == "assistant_rewrite" and rec.reason:  # why Daycare rewrote the message is part of it
        text = "\n\n".join(t for t in (text, f"*Rewritten: {rec.reason}*") if t)
    if rec.print_output:  # what the Python run printed (so far, for a call inside it)
        text = "\n\n".join(t for t in (text, "Printed:\n\n" + "\n".join(rec.print_output)) if t)
    calls = tuple(ToolCallRecord(c.id, c.name, c.arguments) for c in rec.tool_calls)
    if rec.type == "rlm_tool_call":  # a tool the Python code called: its name and arguments. The id the
        # record carries is the run's (the run_python call's), not this call's: it pairs with no result.
        calls = (ToolCallRecord("", rec.tool_name or "tool", rec.data.get("toolArgs")),)
    if rec.type == "rlm_tool_result" and result is not None:  # likewise: the step after its call, unpaired
        result = ToolResultRecord("", result.name, result.text, result.is_error)
    return Message(
        id=str(rec.id) if rec.id is not None else "",
        role=_ROLE.get(rec.type, "tool" if rec.is_rlm else "event"),
        text=text,
        at=rec.at,
        kind=rec.type,
        tool_calls=calls,
        tool_result=result,
        attachments=tuple(f.name for f in rec.files),
        meta=_facts(rec, size),
        part_of=(rec.tool_call_id or "") if rec.is_rlm else "",  # a step of the Python run its call started
        model=rec.tokens.model if rec.tokens is not None else "",
        tokens=rec.tokens.size.total if rec.tokens is not None else None,
        rewrites_at=rec.assistant_at if rec.type == "assistant_rewrite" else None,
        raw=rec.data,
        problem=problem or (None if rec.known_kind else f"unknown record type {rec.type!r}"),
    )


class DaycareConversations(SqliteThreadListing, Conversations):  # the thread list keyed in SQL
    thread_label = "Agents"

    def __init__(self, core) -> None:
        self.core = core

    def threads(self) -> list[ThreadRecord]:
        from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents, list_agent_ids

        db, cols = self.core.db, self.core.cols
        ids = list_agent_ids(db, cols=cols)
        agents = fetch_agents(db, ids, cols)
        return [ThreadRecord(a.id, a.name, a.type, a.updated_at, raw=a.raw) for a in (agents[i] for i in ids)]

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        from daycare_gui.stores.daycare.sqlite.queries.sessions import list_sessions

        return [SessionRecord(SessionRef(thread_id, s.id), s.id, s.created_at, s.ended_at, s.record_count,
                              "active" if s.is_active else ("ended" if s.ended_at else ""), raw=s.raw,
                              meta=session_meta(s))
                for s in list_sessions(self.core.db, thread_id, cols=self.core.cols)]

    def message_count(self, ref: SessionRef) -> int:
        return int(self.core.db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s",
                                       {"s": ref.session_id}) or 0)

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        from daycare_gui.stores.daycare.sqlite.queries.history_pages import page_at_offset

        out = []
        for rec, problem, _size in page_at_offset(self.core.db, ref.session_id, start, limit):
            msg = message_of(rec)
            out.append(msg if problem is None else _with_problem(msg, problem))
        return out

    def iter_messages(self, ref: SessionRef, start: int = 0, page: int = 500):
        """Keyed pages after the first: an OFFSET deep into a 100,000-record session walks the index each time."""
        from daycare_gui.stores.daycare.sqlite.queries.history import page_after
        from daycare_gui.stores.daycare.sqlite.queries.history_pages import page_at_offset

        batch = page_at_offset(self.core.db, ref.session_id, start, page)
        while batch:
            for rec, problem, _size in batch:
                msg = message_of(rec)
                yield msg if problem is None else _with_problem(msg, problem)
            if len(batch) < page:
                return
            batch = page_after(self.core.db, ref.session_id, batch[-1][0].id, page)

    def find_session(self, session_id: str) -> SessionRef | None:
        rows = self.core.db.rows("SELECT agent_id FROM sessions WHERE id = :s", {"s": session_id})
        return SessionRef(str(rows[0][0]), session_id) if rows else None

    def count(self) -> int | None:
        return self.core.db.count("agents") if self.core.has_table("agents") else 0


def _with_problem(msg: Message, problem: str) -> Message:
    from dataclasses import replace

    return replace(msg, problem=problem)


def _tasks(core):
    if core.db is None:
        from daycare_gui.stores.daycare.legacy.tasks import LegacyTasks

        return LegacyTasks(core)
    from daycare_gui.stores.daycare.sqlite.tasks import DaycareTasks

    return DaycareTasks(core)


def offer_capabilities(store) -> None:
    from daycare_gui.stores.api import Directory
    from daycare_gui.stores.daycare.directory import DaycareDirectory

    core = store.core
    store.offer(Directory, DaycareDirectory(core))  # legacy folders too: their agents and sessions
    # what the editors and the Tasks page deleted, in every generation; a restore is seen by the next read
    store.offer(Trash, DaycareTrash(core.paths, after_restore=core.forget_files))
    store.offer(Tasks, _tasks(core))  # cron and heartbeat: their files and rows
    store.offer(Storage, DaycareStorage(core))  # legacy folders too: their upgrade creates daycare.db
    from daycare_gui.stores.daycare.sqlite.documents import offer_documents_and_files

    offer_documents_and_files(store)  # skills, memory, settings, prompts and homes: both generations
    if core.db is None:
        if core.generation == "legacy-files":  # conversations straight from the agents' history.jsonl
            from daycare_gui.stores.daycare.legacy.conversations import KeyedLegacyConversations

            store.offer(Conversations, KeyedLegacyConversations(core))  # keyed by history.jsonl line
            store.offer(SearchSource, DaycareLegacySearch(core))
        from daycare_gui.stores.daycare.legacy.collections import LegacyLists

        store.offer(Collections, LegacyLists(core))
        return
    store.offer(Tables, DaycareTables(core))
    if core.has_table("session_history"):  # runs are told from the records they leave
        from daycare_gui.stores.api import Automations
        from daycare_gui.stores.daycare.sqlite.automations import DaycareAutomations

        store.offer(Automations, DaycareAutomations(core, store.capability(Tasks)))
    from daycare_gui.stores.daycare.sqlite.collections import DaycareLists

    store.offer(Charts, DaycareCharts(core))
    _offer_usage(store, core)  # tokens per model call, for the costs page (#37)
    if core.has_table("agents") and core.has_table("session_history"):
        from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

        store.offer(Conversations, SqliteConversations(core))  # keyed pages by session_history.id
        store.offer(SearchSource, DaycareSqliteSearch(core))
    # inbox, channels, signals, processes, expose, prompts, apps; and the users (stores/daycare/sqlite/users.py)
    lists = DaycareLists(core)
    store.offer(Collections, CollectionUnion(lists, SqliteUsers(core)) if core.has_table("users") else lists)


def _offer_usage(store, core) -> None:
    if core.has_table("session_history") and core.has_table("sessions"):
        store.offer(Usage, DaycareSqliteUsage(core))
