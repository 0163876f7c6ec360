"""Conversations, tasks, documents, lists, tables and charts of today's Daycare schema."""

from __future__ import annotations

import datetime as _dt
import json
from concurrent.futures import ThreadPoolExecutor

from daycare_gui.stores import api
from daycare_gui.stores.daycare.history_messages import message_of, message_parts
from daycare_gui.stores.daycare.pg.catalog import VERSIONED
from daycare_gui.stores.daycare.pg.database import UnreadableJson
from daycare_gui.stores.daycare.pg.history_keys import HistoryKeys, history_keys
from daycare_gui.stores.daycare.pg.lists import DETAILS, PgListing
from daycare_gui.stores.daycare.pg.shown_rows import markdown_of, masked_row, plain_values
from daycare_gui.stores.daycare.pg.storage import PgStorage
from daycare_gui.stores.daycare.pg.threads import PgThreadListing
from daycare_gui.stores.daycare.pg.users import pg_user_rows
from daycare_gui.stores.daycare.records import history_record_from
from daycare_gui.stores.daycare.trash import DaycareTrash
from daycare_gui.stores.daycare.user_rows import USERS, users_collection
from daycare_gui.stores.records import (
    Collection,
    DayCount,
    DocRef,
    FilterSpec,
    Message,
    PendingMessage,
    Row,
    SessionRecord,
    SessionRef,
    TableRef,
    TaskItem,
    ThreadRecord,
)


class _OnStore:
    """Capabilities read ``store.db`` each time: after an edit a PGlite store serves a fresh copy."""

    store = None

    @property
    def db(self):
        return self.store.db


def _ms_day(ms: int) -> str:
    return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d")


class PgConversations(PgThreadListing, _OnStore, api.Conversations):  # thread list: pg/threads
    thread_label = "Agents"

    def __init__(self, store) -> None:
        self.store = store

    def threads(self) -> list[ThreadRecord]:
        cols = set(self.db.columns("agents"))
        name = "coalesce(a.name, a.path, a.id)" if "name" in cols else "coalesce(a.path, a.id)"
        rows = self.db.mappings(
            f"SELECT a.id, {name} AS title, a.kind, a.path, a.lifecycle, a.updated_at, coalesce(sc.n, 0) AS n "
            f"FROM agents a {self.SESSION_COUNTS}{self.store.current('agents')} "
            "ORDER BY a.updated_at DESC NULLS LAST, a.id")
        return [ThreadRecord(r["id"], r["title"], f"{r['kind'] or ''} · {r['lifecycle'] or ''} · {r['path'] or ''}",
                             r["updated_at"], r["n"], meta=(("Path", r["path"] or ""), ("Kind", r["kind"] or "")),
                             raw=r) for r in rows]

    def _history_keys(self) -> HistoryKeys | None:
        return history_keys(self.store)

    def sessions(self, thread_id: str) -> list[SessionRecord]:
        return self._sessions(thread_id, wait=True)

    def sessions_now(self, thread_id: str) -> list[SessionRecord]:
        """A PGlite copy's sessions at once: their counts pending until the history's one scan (started
        now if it was not) is done, instead of the list waiting for it (2 s and more on a million records)."""
        return self._sessions(thread_id, wait=False)

    def wait_for_counts(self) -> None:
        keys = self._history_keys()
        if keys is not None:
            keys.total()

    def _sessions(self, thread_id: str, *, wait: bool) -> list[SessionRecord]:
        active = self.db.scalar(f"SELECT active_session_id FROM agents{self.store.current('agents')}"
                                f"{' AND' if self.store.current('agents') else ' WHERE'} id = :a", {"a": thread_id})
        keys = self._history_keys()
        if keys is not None:
            rows = self.db.mappings("SELECT s.* FROM sessions s WHERE s.agent_id = :a ORDER BY s.created_at, s.id",
                                    {"a": thread_id})
            known = keys.known() if not wait else None
            for r in rows:
                r["n"] = keys.count(r["id"]) if wait or known is not None else None
            return [self._session(thread_id, r, active) for r in rows]
        # One grouped pass over the history for all the agent's sessions: a count per session would scan
        # it once per session (Daycare's schema has no index on session_history.session_id).
        rows = self.db.mappings(
            "SELECT s.*, coalesce(c.n, 0) AS n FROM sessions s LEFT JOIN "
            "(SELECT session_id, count(*) AS n FROM session_history WHERE session_id IN "
            "(SELECT id FROM sessions WHERE agent_id = :a) GROUP BY session_id) c ON c.session_id = s.id "
            "WHERE s.agent_id = :a ORDER BY s.created_at, s.id", {"a": thread_id})
        return [self._session(thread_id, r, active) for r in rows]

    @staticmethod
    def _session(thread_id: str, r: dict, active) -> SessionRecord:
        return SessionRecord(SessionRef(thread_id, r["id"]), r["id"], r.get("created_at"), r.get("ended_at"), r["n"],
                             "active" if r["id"] == active else ("ended" if r.get("ended_at") else ""),
                             raw={k: v for k, v in r.items() if k != "n" or v is not None},
                             count_pending=r["n"] is None)

    def message_count(self, ref: SessionRef) -> int:
        keys = self._history_keys()
        if keys is not None:
            return keys.count(ref.session_id)
        # A PGlite store is a snapshot copy: its counts never change, so count each session once.
        cache = self.__dict__.setdefault("_counts", {}) if self.store.generation == "pglite" else {}
        key = (id(self.db), ref.session_id)
        if key not in cache:
            cache[key] = int(self.db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s",
                                            {"s": ref.session_id}) or 0)
        return cache[key]

    def messages(self, ref: SessionRef, start: int, limit: int) -> list[Message]:
        start, limit = max(0, int(start)), int(limit)
        keys = self._history_keys()
        if keys is not None:  # a page by position is a slice of the session's ids
            ids = keys.ids(ref.session_id)[start:start + max(0, limit)]
            return [_message(*r, session_id=ref.session_id) for r in self._by_ids(ref.session_id, ids)]
        total = self.message_count(ref)
        n = max(0, min(limit, total - start))
        if n == 0:
            return []
        known = self._boundaries(ref, total)
        params = {"s": ref.session_id, "n": n}
        if start - 1 in known:
            # Scrolling on from a page already read: a keyset on the primary key (the copy's index or,
            # on a server, the id index walked from there) instead of an OFFSET over the session.
            rows = self.db.rows("SELECT id, type, at, data FROM session_history WHERE session_id = :s AND id > :k "
                                "ORDER BY id LIMIT :n", {**params, "k": known[start - 1]})
        elif start + n in known:
            rows = self.db.rows("SELECT id, type, at, data FROM session_history WHERE session_id = :s AND id < :k "
                                "ORDER BY id DESC LIMIT :n", {**params, "k": known[start + n]})
            rows.reverse()
        elif start > total // 2:
            # Near the end (where a conversation opens): count back from the newest, so PostgreSQL keeps
            # only the top rows instead of walking an OFFSET over the whole session (Daycare's schema has
            # no index on session_history.session_id); the last page needs no OFFSET at all.
            back = max(0, total - start - n)
            rows = self.db.rows(
                "SELECT id, type, at, data FROM session_history WHERE session_id = :s "
                "ORDER BY id DESC LIMIT :n" + (" OFFSET :o" if back else ""), {**params, "o": back})
            rows.reverse()
        else:
            rows = self.db.rows(
                "SELECT id, type, at, data FROM session_history WHERE session_id = :s ORDER BY id LIMIT :n OFFSET :o",
                {**params, "o": start})
        if len(rows) == n:  # remember where this page starts and ends, for the next one
            known[start], known[start + n - 1] = rows[0][0], rows[-1][0]
        return [_message(*r, session_id=ref.session_id) for r in rows]

    def _boundaries(self, ref: SessionRef, total: int) -> dict[int, int]:
        """Position → id of the pages read in this session, valid while its count stays the same (a
        server's session that grew or shrank starts over). Bounded: a few sessions, a few hundred pages."""
        cache = self.__dict__.setdefault("_keys", {})
        key = (id(self.db), ref.session_id)
        entry = cache.get(key)
        if entry is None or entry[0] != total or len(entry[1]) > 2000:
            if len(cache) > 16:
                cache.clear()
            entry = cache[key] = (total, {})
        return entry[1]

    def count(self) -> int | None:
        return int(self.db.scalar(f"SELECT count(*) FROM agents{self.store.current('agents')}") or 0)

    # -- keyed pages (api.KeyedPages): by session_history.id, never an OFFSET ----------------------------
    def _by_ids(self, session_id: str, ids) -> list[tuple]:
        """The records ``ids`` of a session (from its HistoryKeys), in id order, through the primary key."""
        if not ids:
            return []
        if ids[-1] - ids[0] + 1 == len(ids):  # a run of consecutive ids (a session written at once)
            return self.db.rows("SELECT id, type, at, data FROM session_history WHERE session_id = :s "
                                "AND id BETWEEN :lo AND :hi ORDER BY id", {"s": session_id, "lo": ids[0], "hi": ids[-1]})
        return self.db.rows("SELECT id, type, at, data FROM session_history WHERE session_id = :s "
                            "AND id = ANY(CAST(:ids AS bigint[])) ORDER BY id", {"s": session_id, "ids": list(ids)})

    def _keyed(self, where: str, params: dict, *, descending: bool = False) -> list[PendingMessage]:
        keys = self._history_keys()
        if keys is not None:
            key, n = params.get("k"), params["n"]
            ids = keys.before(params["s"], key, n) if descending else keys.after(params["s"], key, n)
            rows = self._by_ids(params["s"], ids)
            return [PendingMessage(int(r[0]), decode=_decode_row, data=(*r, params["s"])) for r in rows]
        rows = self.db.rows(f"SELECT id, type, at, data FROM session_history WHERE session_id = :s{where} "
                            f"ORDER BY id{' DESC' if descending else ''} LIMIT :n", params)
        if descending:
            rows.reverse()
        sid = params["s"]
        return [PendingMessage(int(r[0]), decode=_decode_row, data=(*r, sid)) for r in rows]

    def page_after(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        params = {"s": ref.session_id, "n": max(0, int(n))}
        if key is None:
            return self._keyed("", params)
        return self._keyed(" AND id > :k", {**params, "k": int(key)})

    def page_before(self, ref: SessionRef, key: int | None, n: int) -> list[PendingMessage]:
        params = {"s": ref.session_id, "n": max(0, int(n))}
        if key is None:
            return self._keyed("", params, descending=True)
        return self._keyed(" AND id < :k", {**params, "k": int(key)}, descending=True)

    def key_chunk(self, ref: SessionRef, after: int | None, n: int) -> list[int]:
        keys = self._history_keys()
        if keys is not None:
            return list(keys.after(ref.session_id, None if after is None else int(after), int(n)))
        rows = self.db.rows("SELECT id FROM session_history WHERE session_id = :s AND id > :a ORDER BY id LIMIT :n",
                            {"s": ref.session_id, "a": -1 if after is None else int(after), "n": max(0, int(n))})
        return [int(r[0]) for r in rows]

    def tail(self, ref: SessionRef, after: int | None = None) -> tuple[int, int | None]:
        keys = self._history_keys()
        if keys is not None:
            ids = keys.after(ref.session_id, None if after is None else int(after), len(keys.ids(ref.session_id)))
            return len(ids), (int(ids[-1]) if ids else None)
        rows = self.db.rows("SELECT count(*), max(id) FROM session_history WHERE session_id = :s AND id > :a",
                            {"s": ref.session_id, "a": -1 if after is None else int(after)})
        count, last = (rows[0][0], rows[0][1]) if rows else (0, None)
        return int(count or 0), None if last is None else int(last)

    def locate(self, ref: SessionRef, message_id: str, hint: int | None = None) -> int | None:
        try:
            key = int(message_id)
        except (TypeError, ValueError):
            return None
        keys = self._history_keys()
        if keys is not None:
            return keys.position(ref.session_id, key)
        if not self.db.scalar("SELECT count(*) FROM session_history WHERE id = :i AND session_id = :s",
                              {"i": key, "s": ref.session_id}):
            return None
        return int(self.db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s AND id < :i",
                                  {"s": ref.session_id, "i": key}) or 0)

    def raw(self, ref: SessionRef, key: int):
        rows = self.db.rows("SELECT data FROM session_history WHERE id = :i AND session_id = :s",
                            {"i": int(key), "s": ref.session_id})
        return rows[0][0] if rows else None


def _decode_row(row) -> Message:
    id_, type_, at, data, session_id = row
    return _message(id_, type_, at, data, session_id=session_id)


def _message(id_, type_, at, data, *, session_id: str) -> Message:
    if isinstance(data, UnreadableJson):
        return Message(str(id_), "event", at=at, kind=type_, raw=data[:2000],
                       problem="data is nested too deeply to read")
    if isinstance(data, str):  # jsonb arrives parsed; a text column from an odd store may not
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder goes
            return Message(str(id_), "event", at=at, kind=type_, raw=data, problem="data is not valid JSON")
    if not isinstance(data, dict):
        return Message(str(id_), "event", at=at, kind=type_, raw=data, problem="data is not a JSON object")
    return message_of(history_record_from(type_, at, data, id=id_, session_id=session_id))


class PgTasks(_OnStore, api.Tasks):
    reader = "Daycare"

    def __init__(self, store) -> None:
        self.store = store

    def groups(self) -> tuple[tuple[str, str], ...]:
        # Today's Daycare keeps no heartbeat tasks: cron rows, and webhooks that run a task when called
        return (("cron", "Cron tasks"), ("webhook", "Webhooks"))

    def count_of(self, group: str) -> int | None:
        table = {"cron": "tasks_cron", "webhook": "tasks_webhook"}.get(group)
        if table is None or not self.store.has(table):
            return 0
        return int(self.db.scalar(f"SELECT count(*) FROM {table} WHERE valid_to IS NULL") or 0)

    def tasks(self) -> list[TaskItem]:
        out = []
        if self.store.has("tasks_cron"):
            rows = self.db.mappings(
                "SELECT c.*, t.title AS t_title, t.code AS t_code, t.version AS t_version FROM tasks_cron c "
                "LEFT JOIN tasks t ON t.id = c.task_id AND t.user_id = c.user_id AND t.valid_to IS NULL "
                "WHERE c.valid_to IS NULL ORDER BY c.id")
            for r in rows:
                out.append(TaskItem(
                    id=r["id"], title=r.get("t_title") or r["id"], schedule_kind="cron",
                    schedule=r.get("schedule") or "", timezone=r.get("timezone") or "",
                    enabled=bool(r.get("enabled")), last_run_at=r.get("last_run_at"), source="tasks_cron",
                    body=r.get("t_code") or "", meta=(("Task", r.get("task_id") or ""), ("Version", str(r["version"]))),
                    raw=plain_values(r), problem=None if r.get("t_title") is not None else "its task row is missing"))
        if self.store.has("tasks_webhook"):
            for r in self.db.mappings("SELECT * FROM tasks_webhook WHERE valid_to IS NULL ORDER BY id"):
                out.append(TaskItem(id=r["id"], title=r.get("task_id") or r["id"], schedule_kind="webhook",
                                    last_run_at=r.get("last_run_at"), source="tasks_webhook", raw=plain_values(r)))
        return out

    def editable(self, task: TaskItem) -> tuple[api.EditableField, ...]:
        if task.schedule_kind != "cron":
            return ()
        return (api.EditableField("title", "Title"), api.EditableField("schedule", "Schedule (cron)", "schedule"),
                api.EditableField("timezone", "Timezone", help="An IANA name such as Europe/Berlin"),
                api.EditableField("enabled", "Enabled", "bool"), api.EditableField("body", "Code", "markdown"))

    def update(self, task: TaskItem, changes: dict, *, force: bool = False) -> TaskItem:
        from daycare_gui.stores.daycare.pg.writes import update_cron_task

        update_cron_task(self.store, task, changes, force=force)
        return next((t for t in self.tasks() if t.id == task.id), task)


MEMORY_GROUP = "memory"  # a documents row whose slug starts memory/ is a memory
MEMORY_SHELF = "Memory"  # where it stands in the window (as memory files do in the SQLite generation)


def _memory_shelf(slug: str | None) -> str:
    """Daycare's memory, knowledge and vault files became the documents table (slug "vault/trip"): all of
    it stands on the Memory shelf, as memory files do in the SQLite generation, each folder a sub-shelf."""
    folder = (slug or "").split("/")[0] if "/" in (slug or "") else ""
    return MEMORY_SHELF if folder in ("", MEMORY_GROUP) else f"{MEMORY_SHELF} · {folder}"


class PgDocuments(_OnStore, api.Documents):
    """The ``documents`` table, and the files beside the store (skills, agents' prompt files) when the
    store was opened from its folder: one Documents section, each document routed to where it lives."""

    def __init__(self, store, files=None) -> None:
        self.store = store
        self.files = files  # datadir.documents.DataDirDocuments, or None

    def _table_docs(self) -> list[DocRef]:
        if not self.store.has("documents"):
            return []
        rows = self.db.rows("SELECT user_id, id, coalesce(title, slug, id), slug FROM documents "
                            "WHERE valid_to IS NULL ORDER BY slug, id")
        return [DocRef(f"{u}/{i}", title, None, group=_memory_shelf(slug)) for u, i, title, slug in rows]

    def count_of(self, shelf: str) -> int | None:
        # the navigation's count: a count query for the documents table (all of it is Memory), the files'
        # own list (read once, kept) for the rest
        files = self.files.count_of(shelf) if self.files is not None else 0
        if not self.store.has("documents") or not api.in_shelf(shelf, "Memory"):
            return files
        if shelf == "Memory":
            return files + int(self.db.scalar("SELECT count(*) FROM documents WHERE valid_to IS NULL") or 0)
        return files + sum(1 for d in self._table_docs() if api.in_shelf(d.group, shelf))

    def documents(self) -> list[DocRef]:
        return self._table_docs() + (self.files.documents() if self.files is not None else [])

    def count(self) -> int | None:
        return len(self._table_docs()) + (self.files.count() if self.files is not None else 0)

    def _file(self, ref: DocRef) -> bool:
        return self.files is not None and self.files.owns(ref)

    def read(self, ref: DocRef) -> bytes:
        if self._file(ref):
            return self.files.read(ref)
        user_id, _, doc_id = ref.id.partition("/")
        body = self.db.scalar("SELECT body FROM documents WHERE user_id = :u AND id = :i AND valid_to IS NULL",
                              {"u": user_id, "i": doc_id})
        return (body or "").encode("utf-8")

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *, force: bool = False):
        if self._file(ref):
            return self.files.save(ref, data, expected_sha256, force=force)
        from daycare_gui.stores.daycare.pg.writes import update_document

        update_document(self.store, ref, data.decode("utf-8"), expected_sha256, force=force)

    # The files beside the store answer for their own documents (outlines, fields, skill versions).
    def outline(self, ref: DocRef):
        return self.files.outline(ref) if self._file(ref) else []

    def fields(self, ref: DocRef):
        """A row's title and description (a memory renamed); the files' own fields for a file."""
        if self._file(ref):
            return self.files.fields(ref)
        user_id, _, doc_id = ref.id.partition("/")
        rows = self.db.rows("SELECT title, description FROM documents WHERE user_id = :u AND id = :i "
                            "AND valid_to IS NULL", {"u": user_id, "i": doc_id}) if self.store.has("documents") else []
        if not rows:
            return ()
        return ((api.EditableField("title", "Title"), rows[0][0] or ""),
                (api.EditableField("description", "Description"), rows[0][1] or ""))

    def update_fields(self, ref: DocRef, changes, expected_sha256, *, force: bool = False):
        if self._file(ref):
            return self.files.update_fields(ref, changes, expected_sha256, force=force)
        from daycare_gui.stores.daycare.pg.writes import update_document_fields

        update_document_fields(self.store, ref, changes, expected_sha256, force=force)
        return None

    def memory_of(self, thread_id: str) -> list[DocRef]:
        """The memory rows (slug memory/…) of the agent's user."""
        if not thread_id or not self.store.has("documents") or not self.store.has("agents"):
            return []
        current = self.store.current("agents").replace(" WHERE ", " AND ")  # (the agent's current version)
        rows = self.db.rows(f"SELECT user_id FROM agents WHERE id = :a{current}", {"a": thread_id})
        user_id = rows[0][0] if rows else None
        return [d for d in self._table_docs() if user_id and d.group == MEMORY_SHELF
                and d.id.partition("/")[0] == user_id]

    # -- New memory… (a ``documents`` row under memory/, as Daycare keeps a memory since 7c3c466c) ------
    def _owners(self) -> list[tuple[str, str]]:
        """(label, user id) of each current user, the label "name (id)"."""
        if not self.store.has("users"):
            return []
        rows = self.db.rows("SELECT id, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) FROM users "
                            "WHERE valid_to IS NULL ORDER BY created_at, id")
        return [(f"{name} ({uid})" if name else str(uid), str(uid)) for uid, name in rows]

    def creatable(self, group: str):
        if group not in ("", MEMORY_GROUP, MEMORY_SHELF) or not self.store.has("documents"):
            return ()
        owners = tuple(label for label, _ in self._owners())
        if not owners:
            return ()
        return (api.EditableField("user", "User", "choice", owners, default=owners[0]),
                api.EditableField("name", "Name", help="one word or a few, the end of its slug (memory/<name>)"),
                api.EditableField("title", "Title"), api.EditableField("description", "Description"),
                api.EditableField("body", "Text", "markdown"))

    def create(self, group: str, values: dict, *, force: bool = False):
        from daycare_gui.stores.daycare.pg.writes import create_document

        if group not in ("", MEMORY_GROUP, MEMORY_SHELF):
            return super().create(group, values, force=force)
        owners = dict(self._owners())
        user_id = owners.get(str(values.get("user") or ""))
        name = "-".join(str(values.get("name") or "").lower().split())
        if user_id is None or not name or "/" in name:
            raise api.WriteRefused("A new memory needs a user and a name (no slash).")
        title = str(values.get("title") or "").strip() or name
        doc_id = create_document(self.store, user_id, f"{MEMORY_GROUP}/{name}", title,
                                 str(values.get("description") or ""), str(values.get("body") or ""), force=force)
        return f"{MEMORY_GROUP}/{name} ({user_id}/{doc_id})"

    def versions(self, ref: DocRef):
        return self.files.versions(ref) if self._file(ref) else []

    # The file editor opens files by path (a skill, a prompt file): the files beside the store answer.
    def form(self, ref: DocRef):
        return self.files.form(ref) if self.files is not None and ref.path is not None else super().form(ref)

    def read_version(self, ref: DocRef, version_id: str) -> bytes:
        return self.files.read_version(ref, version_id) if self._file(ref) else b""


# name → (title, table, order by, columns shown)
LISTS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "users": ("Users", "users", "created_at, id", ("id", "nametag", "first_name", "last_name", "timezone", "created_at")),
    "inbox": ("Inbox", "inbox", "posted_at, id", ("id", "agent_id", "type", "posted_at")),
    "channels": ("Channels", "channels", "name", ("id", "name", "leader", "user_id", "updated_at")),
    "signals": ("Signals", "signals_events", "created_at DESC, id", ("id", "type", "user_id", "created_at")),
    "subscriptions": ("Signal subscriptions", "signals_subscriptions", "id", ("id", "pattern", "agent_id", "silent")),
    "delayed": ("Delayed signals", "signals_delayed", "deliver_at, id", ("id", "type", "deliver_at", "repeat_key")),
    "processes": ("Processes", "processes", "name, id", ("id", "name", "status", "desired_state", "pid", "command")),
    "system_prompts": ("System prompts", "system_prompts", "id", ("id", "scope", "kind", "enabled", "condition")),
    "key_values": ("Key/values", "key_values", "user_id, key", ("user_id", "key", "value", "updated_at")),
    "model_role_rules": ("Model-role rules", "model_role_rules", "role, id", ("id", "role", "kind", "model", "agent_id")),
    "mini_apps": ("Mini apps", "mini_apps", "title, id", ("id", "title", "icon", "code_version", "updated_at")),
    "observation_log": ("Observation log", "observation_log", "created_at DESC, id",
                        ("id", "type", "source", "message", "created_at")),
    "voice_agents": ("Voice agents", "voice_agents", "name, id", ("id", "name", "description", "updated_at")),
}


class PgCollections(_OnStore, PgListing, api.Collections):
    def __init__(self, store, files=None) -> None:
        self.store = store
        self.files = files  # datadir.collections.DataDirLists (ids "files:…"), or None

    def _lists(self) -> dict:
        return {k: v for k, v in LISTS.items() if self.store.has(v[1])}

    def collections(self) -> list[Collection]:
        out = [users_collection() if k == USERS else self.listed(Collection(k, title, tuple(c for c in cols if c in self.db.columns(table))))
               for k, (title, table, _o, cols) in self._lists().items()]
        out += self.extra_collections()  # a channel's members and messages, shown under it
        for table in VERSIONED:
            if self.store.has(table) and "valid_to" in self.db.columns(table):
                out.append(Collection(f"versions:{table}", table.replace("_", " "),
                                      ("id", "version", "valid from", "valid to", "what changed"), tree=True,
                                      group="Versions"))
        return out + (self.files.collections() if self.files is not None else [])

    def size(self, collection_id: str) -> int:
        if self.files is not None and self.files.owns(collection_id):
            return self.files.size(collection_id)
        if collection_id in DETAILS:
            return 0  # asked for one channel at a time (Query.parent)
        if collection_id.startswith("versions:"):
            table = collection_id.split(":", 1)[1]
            return int(self.db.scalar(f'SELECT count(*) FROM "{table}"') or 0)
        _title, table, _order, _cols = self._lists()[collection_id]
        return int(self.db.scalar(f'SELECT count(*) FROM "{table}"{self.store.current(table)}') or 0)

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        if self.files is not None and self.files.owns(collection_id):
            return self.files.rows(collection_id, offset, limit)
        if collection_id.startswith("versions:"):
            return self._versions(collection_id.split(":", 1)[1], offset, limit)
        if collection_id == USERS and self.store.has("users"):  # owner first, keys, agents: pg/users.py
            return pg_user_rows(self.store)[offset:offset + limit]
        if collection_id in DETAILS:
            return []
        if collection_id == "inbox":  # age and the stuck flag, oldest first
            from daycare_gui.stores.records import Query

            return self.fetch("inbox", self.keys("inbox", Query())[max(0, offset): max(0, offset) + limit])
        _title, table, order, cols = self._lists()[collection_id]
        shown = [c for c in cols if c in self.db.columns(table)]
        rows = self.db.mappings(f'SELECT * FROM "{table}"{self.store.current(table)} ORDER BY {order} '
                                "LIMIT :n OFFSET :o", {"n": int(limit), "o": int(offset)})
        out = []
        for r in rows:
            shown_row = masked_row(plain_values(r), table)
            key = "/".join(str(r.get(k)) for k in ("user_id", "key") if k in r) if table == "key_values" else str(r.get("id"))
            out.append(Row(key, tuple(shown_row.get(c) for c in shown), raw=shown_row,
                           markdown=markdown_of(table, shown_row)))
        return self.joined(collection_id, out)

    def _versions(self, table: str, offset: int, limit: int) -> list[Row]:
        key_cols = [c for c in ("user_id", "id", "key", "user_a_id", "user_b_id") if c in self.db.columns(table)]
        order = ", ".join([*key_cols, "version"])
        rows = self.db.mappings(f'SELECT * FROM "{table}" ORDER BY {order} LIMIT :n OFFSET :o',
                                {"n": int(limit) + 1, "o": max(0, int(offset) - 1)})
        out, previous = [], None
        if offset > 0 and rows:
            previous, rows = rows[0], rows[1:]
        for r in rows[:limit]:
            plain = masked_row(plain_values(r), table)
            ident = "/".join(str(r.get(c)) for c in key_cols)
            same = previous is not None and all(previous.get(c) == r.get(c) for c in key_cols)
            changed = _changes(masked_row(plain_values(previous), table), plain) if same else "first version"
            key = f"{ident}#{r.get('version')}"
            parent = f"{ident}#{previous.get('version')}" if same else None
            out.append(Row(key, (ident, r.get("version"), _when(r.get("valid_from")), _when(r.get("valid_to")) or
                                 "current", changed), parent=None if parent is None else _root_of(out, parent),
                           raw=plain, flag="" if r.get("valid_to") is None else ""))
            previous = r
        return out

    def row(self, collection_id: str, key: str):
        if self.files is not None and self.files.owns(collection_id):
            return next((r for r in self.files.rows(collection_id, 0, self.files.size(collection_id))
                         if r.key == key), None)
        if collection_id == USERS and self.store.has("users"):
            return next((r for r in pg_user_rows(self.store) if r.key == key), None)
        return None


def _root_of(rows: list[Row], parent_key: str) -> str:
    by_key = {r.key: r for r in rows}
    node = by_key.get(parent_key)
    while node is not None and node.parent is not None:
        node = by_key.get(node.parent)
    return node.key if node is not None else parent_key


_SKIP = {"version", "valid_from", "valid_to", "updated_at"}


def _changes(before: dict, after: dict) -> str:
    keys = [k for k in after if k not in _SKIP and before.get(k) != after.get(k)]
    return ", ".join(keys) if keys else "no field changed"


def _when(ms) -> str:
    if not isinstance(ms, int):
        return ""
    return _dt.datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M:%S")


class PgTables(_OnStore, api.Tables):
    def __init__(self, store) -> None:
        self.store = store

    def tables(self) -> list[TableRef]:
        counts = self.store.counts()
        columns: dict[str, list[str]] = {}
        for table, column in self.db.rows(  # every table's columns in one query, for the table list
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
                "ORDER BY table_name, ordinal_position"):
            columns.setdefault(table, []).append(column)
        return [TableRef(t, counts.get(t), columns=tuple(columns.get(t, ()))) for t in sorted(self.store._tables)]

    def columns(self, table: str) -> list[str]:
        return self.db.columns(table)

    def rows(self, table: str, offset: int, limit: int) -> list[tuple]:
        if not self.store.has(table):
            return []
        rows = self.db.mappings(f'SELECT * FROM "{table}" LIMIT :n OFFSET :o', {"n": int(limit), "o": int(offset)})
        return [tuple(masked_row(plain_values(r), table).values()) for r in rows]

    def rows_after(self, table: str, key: str | None, n: int) -> list[Row]:
        """Keyed by each row's place in the table (its ctid, PostgreSQL's rowid): a TID range scan, so a page
        deep in session_history costs what the first does. (An update moves a row; the private copy a
        PGlite store is read from does not change, and OFFSET pages on a live server shift alike.)"""
        if not self.store.has(table):
            return []
        after = "WHERE ctid > CAST(:k AS tid) " if key is not None else ""
        rows = self.db.mappings(f'SELECT ctid::text AS "ctid  place", * FROM "{table}" {after}ORDER BY ctid LIMIT :n',
                                {"k": key, "n": int(n)})
        out = []
        for r in rows:
            place = str(r.pop("ctid  place"))
            values = masked_row(plain_values(r), table)
            out.append(Row(place, tuple(values.values()), raw=values))
        return out


class PgCharts(_OnStore, api.Charts):
    def __init__(self, store) -> None:
        self.store = store

    def tokens_per_day(self) -> list[DayCount]:
        if not self.store.has("token_stats_hourly"):
            return []
        rows = self.db.rows(
            "SELECT (hour_start / 86400000) AS d, model, sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)) "
            "FROM token_stats_hourly GROUP BY d, model ORDER BY d, model")
        return [DayCount(_ms_day(int(d) * 86400000), m or "", float(v)) for d, m, v in rows]

    def cost_per_day(self) -> list[DayCount]:
        if not self.store.has("token_stats_hourly"):
            return []
        rows = self.db.rows("SELECT (hour_start / 86400000) AS d, model, sum(coalesce(cost, 0)) "
                            "FROM token_stats_hourly GROUP BY d, model ORDER BY d, model")
        return [DayCount(_ms_day(int(d) * 86400000), m or "", float(v)) for d, m, v in rows]

    def activity_per_day(self) -> list[DayCount]:
        rows = self.db.rows("SELECT (at / 86400000) AS d, count(*) FROM session_history GROUP BY d ORDER BY d")
        return [DayCount(_ms_day(int(d) * 86400000), "", float(n)) for d, n in rows if d is not None]


class PgSearchSource(_OnStore, api.SearchSource):
    def __init__(self, store) -> None:
        self.store = store

    def identity(self) -> str:
        return self.store.title

    def location(self) -> str | None:
        paths = self.store.paths  # (None for a server: it is not known gone from here)
        return str(paths.pglite_path) if paths is not None and self.store.generation == "pglite" else None

    BATCH = 5000

    def messages(self, after: str | None):
        for id_, sid, agent, type_, at, data in self._records(after):
            yield str(id_), SessionRef(agent, sid), _message(id_, type_, at, data, session_id=sid)

    def index_rows(self, after: str | None):
        """What the index reads of each message (``SearchSource.index_rows``), in one pass over each record:
        no :class:`Message` with the details a view shows (its facts, raw data) is made."""
        for id_, sid, agent, type_, at, data in self._records(after):
            if isinstance(data, dict):
                rec = history_record_from(type_, at, data, id=id_, session_id=sid)
                role, text, calls, result = message_parts(rec)
                yield (str(id_), agent, sid, str(rec.id) if rec.id is not None else "", role, rec.type, rec.at, text,
                       calls, result, tuple(f.name for f in rec.files))
            else:  # (data the view shows as a problem: as its message says it)
                m = _message(id_, type_, at, data, session_id=sid)
                yield (str(id_), agent, sid, m.id, m.role, m.kind, m.at, m.text, m.tool_calls, m.tool_result,
                       m.attachments)

    def _records(self, after: str | None):
        """``(id, session id, agent id, type, at, data)`` of the records after ``after``, in id order.
        Batches by the primary key, the connection free between them (the window reads on while the
        index is built). Each session's agent is looked up once here, not joined into every batch; a
        record whose session is gone is left out, as the join left it out. The next batch is asked for
        while this one is made into messages: the server (PGlite's own process) works meanwhile."""
        def sessions() -> dict:
            return {sid: agent for sid, agent in self.db.rows("SELECT id, agent_id FROM sessions")}

        def batch(last: int) -> list[tuple]:
            # (the driver's rows as they come, not through SQLAlchemy's: a batch is thousands of records)
            return self.db.rows_with({}, "SELECT id, session_id, type, at, data FROM session_history "
                                         f"WHERE id > {int(last)} ORDER BY id LIMIT {int(self.BATCH)}")

        agents = sessions()
        with ThreadPoolExecutor(1, thread_name_prefix="search-feed") as ahead:
            # (a generator closed early, cancelled or done, waits here for the batch still being read)
            coming = ahead.submit(batch, int(after) if after else -1)
            while True:
                rows = coming.result()
                if not rows:
                    return
                coming = ahead.submit(batch, rows[-1][0])
                if any(r[1] not in agents for r in rows):  # a server's session begun since: read them again
                    agents = sessions()
                for id_, sid, type_, at, data in rows:
                    agent = agents.get(sid, agents)
                    if agent is agents:
                        continue
                    yield id_, sid, agent or "", type_, at, data

    # Daycare's filters, as its SQLite generation offers them: the record type tagged on each message; the
    # agent's kind, lifecycle and user asked of its current row when searching (they change).
    _AGENT_COLUMNS = {"agent_kind": "kind", "lifecycle": "lifecycle", "user": "user_id"}
    _LABELS = {"agent_kind": "All agent kinds", "lifecycle": "Any lifecycle", "user": "All users"}

    def tags(self, ref: SessionRef, message: Message):
        return (("record_type", message.kind),)

    def facets(self):
        from daycare_gui.stores.daycare.records import HISTORY_KINDS

        out = []
        have = set(self.db.columns("agents"))
        for name, column in self._AGENT_COLUMNS.items():
            if column in have:
                values = [r[0] for r in self.db.rows(f"SELECT DISTINCT {column} FROM agents"
                                                     f"{self.store.current('agents')} ORDER BY 1") if r[0]]
                out.append(FilterSpec(name, self._LABELS[name], "choice", tuple((v, v) for v in values)))
        out.append(FilterSpec("record_type", "All record types", "choice", tuple((t, t) for t in HISTORY_KINDS)))
        return tuple(out)

    def facet_threads(self, name: str, value: str):
        column = self._AGENT_COLUMNS.get(name)
        if column is None:
            return None
        if column not in self.db.columns("agents"):
            return frozenset()
        where = self.store.current("agents")
        where = (where + " AND" if where else " WHERE") + f" {column} = :v"
        return frozenset(str(r[0]) for r in self.db.rows(f"SELECT DISTINCT id FROM agents{where}", {"v": value}))


def offer_pg_capabilities(store) -> None:
    if store.has("agents") and store.has("sessions") and store.has("session_history"):
        store.offer(api.Conversations, PgConversations(store))
        store.offer(api.SearchSource, PgSearchSource(store))
        store.offer(api.Charts, PgCharts(store))
        from daycare_gui.stores.daycare.pg.usage import DaycarePgUsage

        store.offer(api.Usage, DaycarePgUsage(store))  # tokens per model call, for the costs page (#37)
    if store.has("tasks_cron") or store.has("tasks_webhook"):
        store.offer(api.Tasks, PgTasks(store))
        if store.has("agents") and store.has("session_history"):  # runs are told from the task agents' records
            from daycare_gui.stores.daycare.pg.automations import PgAutomations

            store.offer(api.Automations, PgAutomations(store, store.capability(api.Tasks)))
    files = store.data_dir_documents()
    if store.has("documents") or files is not None:
        store.offer(api.Documents, PgDocuments(store, files))
    store.offer(api.Collections, PgCollections(store, store.data_dir_lists()))
    if store.paths is not None:  # users' homes and databases beside the store
        from daycare_gui.stores.daycare.datadir.files import daycare_files

        store.offer(api.Files, daycare_files(store.paths))
    store.offer(api.Tables, PgTables(store))
    store.offer(api.Storage, PgStorage(store))
    from daycare_gui.stores.daycare.pg.directory import PgDirectory

    store.offer(api.Directory, PgDirectory(store))  # quick open without a sessions() call per agent
    if store.paths is not None:  # what the editors deleted from the data directory beside the store
        store.offer(api.Trash, DaycareTrash(store.paths))
    from daycare_gui.stores.daycare.pg.before_pglite import offer_earlier_history

    offer_earlier_history(store)  # the old daycare.db's conversations, when the data dir still has it
