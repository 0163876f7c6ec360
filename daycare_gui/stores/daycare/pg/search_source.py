"""Today's Daycare history for the search index: every record after the last one indexed, and the filters."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from daycare_gui.stores import api
from daycare_gui.stores.daycare.history_messages import message_parts
from daycare_gui.stores.daycare.pg.conversations import message_of_row
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.daycare.records.history import history_record_from
from daycare_gui.stores.records import FilterSpec, Message, SessionRef


class PgSearchSource(OnStore, api.SearchSource):
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
            yield str(id_), SessionRef(agent, sid), message_of_row(id_, type_, at, data, session_id=sid)

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
                m = message_of_row(id_, type_, at, data, session_id=sid)
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
        from daycare_gui.stores.daycare.records.history import HISTORY_KINDS

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
