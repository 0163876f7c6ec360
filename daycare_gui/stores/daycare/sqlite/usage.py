"""Daycare's SQLite store through ``api.Usage``: the tokens each ``assistant_message`` record carries, one
record per model call, read in pages by row id.

``agents.stats`` (each agent's running totals) is never added to them: it counts the same calls again, and
misses some (estimates, context overflow). Its figures stay on the Overview; costs come from the records,
which drill down. At this generation an estimated count (characters / 4) cannot be told from a real one,
so every record says "cannot tell".
"""

from __future__ import annotations

from collections.abc import Iterator

from daycare_gui.stores.api import Usage
from daycare_gui.stores.common.token_counts import sizes_problem_of
from daycare_gui.stores.daycare.records.history import token_counts_of, token_sizes
from daycare_gui.stores.records import SessionRef, UsageRecord

_PAGE = 2000


# SQLite's json_type of a value, in a user's words (never the value itself)
_SQL_KIND = {"text": "text", "integer": "a number", "real": "a number", "true": "true or false",
             "false": "true or false", "array": "a list", "object": "an object"}


def usage_record(key: str, row_id, session_id: str, agent_id: str, at, tokens, *, title: str = "",
                 user: str = "", task: str = "") -> UsageRecord | None:
    """One Daycare ``tokens`` object ({provider, model, source?, size: {input, output, cacheRead, cacheWrite}})
    as a neutral record; None when the call stored none (null). Counts that cannot be read make a record
    with a ``problem`` and no counts. Daycare's ``input`` already excludes the cache."""
    if tokens is None:
        return None
    (inp, out, read, write), problem = token_sizes(tokens)
    fields = tokens if isinstance(tokens, dict) else {}
    source = fields.get("source")
    estimated = True if source == "estimate" else (False if source == "usage" else None)
    return UsageRecord(
        key=key, at=int(at) if at is not None else None, provider=str(fields.get("provider") or ""),
        model=str(fields.get("model") or ""), input=inp, output=out, cache_read=read, cache_write_5m=write,
        ref=SessionRef(agent_id or "", session_id or ""), message_id=str(row_id), thread_title=title, user=user,
        task=task, estimated=estimated, problem=problem)


class DaycareSqliteUsage(Usage):
    source = ("the tokens each assistant_message record carries (one per model call); agents.stats, each "
              "agent's running total of the same calls, is not added to them")

    def __init__(self, core) -> None:
        self.core = core

    def _labels(self) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
        """Agent id → its name, its user, and the cron task it runs for (only where one task names it)."""
        from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents, list_agent_ids

        db, cols = self.core.db, self.core.cols
        ids = list_agent_ids(db, cols=cols)
        agents = fetch_agents(db, ids, cols)
        titles = {i: agents[i].name for i in ids if i in agents}
        users = {i: agents[i].user_id or "" for i in ids if i in agents}
        tasks: dict[str, str] = {}
        if self.core.has_table("tasks_cron") and "agent_id" in set(cols.of("tasks_cron")):
            named: dict[str, set[str]] = {}
            for agent_id, name in db.fetch("SELECT agent_id, coalesce(name, id) FROM tasks_cron "
                                           "WHERE agent_id IS NOT NULL"):
                named.setdefault(str(agent_id), set()).add(str(name))
            tasks = {a: next(iter(n)) for a, n in named.items() if len(n) == 1}
        return titles, users, tasks

    def records(self, since: int | None = None) -> Iterator[UsageRecord]:
        return self._records(self.rows(since))

    def user_names(self) -> dict[str, str]:
        from daycare_gui.stores.daycare.sqlite.documents import user_names

        return user_names(self.core)

    @staticmethod
    def _records(rows) -> Iterator[UsageRecord]:
        for (key, at, provider, model, inp, out, read, w5, _w1h, agent, session, title, user, task,
             estimated, problem) in rows:
            yield UsageRecord(key=key, at=at, provider=provider, model=model, input=inp, output=out, cache_read=read,
                              cache_write_5m=w5, ref=SessionRef(agent, session), message_id=key[1:],
                              thread_title=title, user=user, task=task, estimated=estimated, problem=problem)

    def rows(self, since: int | None = None, ids: list[int] | None = None) -> Iterator[tuple]:
        """The sizes are picked out by SQLite (``json_extract``): no JSON decoded here, no object per call.
        ``ids``: only those history rows (looked up by primary key, a page of them a statement)."""
        if not (self.core.has_table("session_history") and self.core.has_table("sessions")):
            return
        titles, users, tasks = self._labels()
        after = -1
        pending = sorted(set(ids)) if ids is not None else None
        while True:
            if pending is not None:
                if not pending:
                    return
                page, pending = pending[:_PAGE], pending[_PAGE:]
                which = f"h.id IN ({','.join(str(int(i)) for i in page)})"  # (integers only: no text in SQL)
            else:
                which = "h.id > :after"
            rows = self.core.db.fetch(
                "SELECT h.id, h.session_id, s.agent_id, h.at, json_extract(h.data, '$.tokens.provider'), "
                "json_extract(h.data, '$.tokens.model'), json_extract(h.data, '$.tokens.source'), "
                "json_extract(h.data, '$.tokens.size.input'), json_extract(h.data, '$.tokens.size.output'), "
                "json_extract(h.data, '$.tokens.size.cacheRead'), json_extract(h.data, '$.tokens.size.cacheWrite'), "
                "json_type(h.data, '$.tokens'), json_type(h.data, '$.tokens.size') "
                f"FROM session_history h LEFT JOIN sessions s ON s.id = h.session_id WHERE {which} "
                "AND h.type = 'assistant_message' AND json_valid(h.data) "
                # (a call that stored tokens it said it used, whatever they hold: null is none)
                "AND json_type(h.data, '$.tokens') <> 'null' AND (:since IS NULL OR h.at >= :since) "
                "ORDER BY h.id LIMIT :n", {"after": after, "since": since, "n": _PAGE})
            for (row_id, session_id, agent_id, at, provider, model, source, inp, out, read, write, tokens_type,
                 size_type) in rows:
                agent = str(agent_id or "")
                if size_type == "object":
                    (inp, out, read, write), problem = token_counts_of((inp, out, read, write))
                else:
                    inp = out = read = write = 0
                    problem = sizes_problem_of(_SQL_KIND.get(tokens_type, "something else"),
                                               None if size_type is None else _SQL_KIND.get(size_type, "something else"))
                yield (f"h{row_id}", int(at) if at is not None else None, str(provider or ""), str(model or ""),
                       inp, out, read, write, 0, agent, str(session_id or ""),
                       titles.get(agent, ""), users.get(agent, ""), tasks.get(agent, ""),
                       True if source == "estimate" else (False if source == "usage" else None), problem)
            if pending is None:
                if len(rows) < _PAGE:
                    return
                after = rows[-1][0]

    def records_of(self, keys) -> Iterator[UsageRecord]:
        """By primary key: a key is ``h<history row id>``; any other is no record of this store."""
        ids = [int(k[1:]) for k in keys if isinstance(k, str) and k[:1] == "h" and k[1:].isascii() and k[1:].isdigit()]
        return self._records(self.rows(ids=ids))
