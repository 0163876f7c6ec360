"""Today's Daycare agents, their sessions and each session's history (``session_history``) as pages of
messages: by position for the conversation view, keyed by the record's id for the keyed pages."""

from __future__ import annotations

import json

from daycare_gui.stores import api
from daycare_gui.stores.daycare.history_messages import message_of
from daycare_gui.stores.daycare.pg.database import UnreadableJson
from daycare_gui.stores.daycare.pg.history_keys import HistoryKeys, history_keys
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.daycare.pg.threads import PgThreadListing
from daycare_gui.stores.daycare.records.history import history_record_from
from daycare_gui.stores.records import Message, PendingMessage, SessionRecord, SessionRef, ThreadRecord


class PgConversations(PgThreadListing, OnStore, api.Conversations):  # thread list: pg/threads
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
            return [message_of_row(*r, session_id=ref.session_id) for r in self._by_ids(ref.session_id, ids)]
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
        return [message_of_row(*r, session_id=ref.session_id) for r in rows]

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
    return message_of_row(id_, type_, at, data, session_id=session_id)


def message_of_row(id_, type_, at, data, *, session_id: str) -> Message:
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
