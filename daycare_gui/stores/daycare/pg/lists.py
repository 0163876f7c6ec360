"""What today's Daycare lists gain over plain pages, as the SQLite generation offers them: the inbox with
each item's age and a "stuck" flag (filtered by agent, text and stuck-only in SQL, with totals), a
channel's members and messages under it, processes with their ``sandbox.json`` and the end of their
``process.log``, and mini apps with their code folders. The rest of the lists answer through the
Listing defaults (read whole, they are small)."""

from __future__ import annotations

import json
import time

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.shown_rows import markdown_of, masked_row, plain_values
from daycare_gui.stores.records import Collection, FilterSpec, Link, Query, Row
from daycare_gui.stores.records.conversations import one_line

# Daycare deletes an inbox item right after handling it: one older than this is waiting on something.
STUCK_AFTER_MS = 15 * 60 * 1000
INBOX_COLUMNS = ("Posted", "Age", "State", "Kind", "Agent", "Summary")
DETAILS = {"channel_messages": ("Messages", "channel_messages", "created_at, id"),
           "channel_members": ("Members", "channel_members", "joined_at, agent_id")}


def fmt_age(ms: int) -> str:
    s = max(0, int(ms) // 1000)
    for unit, size, sub, sub_size in (("d", 86400, "h", 3600), ("h", 3600, "m", 60), ("m", 60, "s", 1)):
        if s >= size:
            rest = (s % size) // sub_size
            return f"{s // size}{unit} {rest}{sub}" if rest else f"{s // size}{unit}"
    return f"{s}s"


def _summary(data, limit: int = 160) -> str:
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            pass
    if isinstance(data, dict):
        for key in ("text", "message", "prompt", "reason", "title"):
            if isinstance(data.get(key), str) and data[key].strip():
                data = data[key]
                break
    return one_line(data if isinstance(data, str) else json.dumps(data, default=str), limit)


class PgListing(api.Listing):
    """Mixed into PgCollections (``self.db``, ``self.store``, ``self.files``, ``self.rows``)."""

    clock = staticmethod(lambda: int(time.time() * 1000))

    def extra_collections(self) -> list[Collection]:
        if not (self.store.has("channels") and self.store.has("channel_messages")):
            return []
        return [Collection(cid, title, tuple(self.db.columns(table)), detail=True)
                for cid, (title, table, _order) in DETAILS.items() if self.store.has(table)]

    def listed(self, c: Collection) -> Collection:
        """A collection of LISTS as this module shows it (the inbox's own columns, a channel's details)."""
        from dataclasses import replace

        if c.id == "inbox":
            return replace(c, columns=INBOX_COLUMNS, icon="mail-message")
        if c.id == "channels":
            return replace(c, details=tuple(d for d, (_t, table, _o) in DETAILS.items() if self.store.has(table)))
        return c

    # -- Listing ------------------------------------------------------------------------------------------
    def list_rows(self, list_id: str) -> list[Row]:
        return self.rows(list_id, 0, self.size(list_id))

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        if list_id != "inbox":
            return ()
        rows = self.db.rows("SELECT agent_id, count(*) FROM inbox GROUP BY agent_id ORDER BY agent_id")
        names = self._agent_names([r[0] for r in rows])
        return (FilterSpec("agent", "Agent", "choice",
                           tuple((a, f"{names.get(a) or a} — {n} item{'s' if n != 1 else ''}") for a, n in rows)),
                FilterSpec("stuck", f"Stuck only (waiting longer than {STUCK_AFTER_MS // 60000} minutes)", "flag"))

    def _inbox_where(self, q: Query, now: int) -> tuple[str, dict]:
        parts, params = [], {}
        if q.choice("agent"):
            parts.append("agent_id = :a")
            params["a"] = q.choice("agent")
        if "stuck" in q.flags:
            parts.append("posted_at < :cut")
            params["cut"] = now - STUCK_AFTER_MS
        if q.text.strip():
            parts.append("(strpos(lower(type), :t) > 0 OR strpos(lower(agent_id), :t) > 0 "
                         "OR strpos(lower(CAST(data AS TEXT)), :t) > 0)")
            params["t"] = q.text.strip().lower()
        return (" WHERE " + " AND ".join(parts)) if parts else "", params

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        if list_id != "inbox":
            return super().totals(list_id, query)
        now = self.clock()
        where, params = self._inbox_where(query, now)
        n, stuck = self.db.rows(f"SELECT count(*), count(*) FILTER (WHERE posted_at < :sc) FROM inbox{where}",
                                {**params, "sc": now - STUCK_AFTER_MS})[0]
        return {"items": int(n), "stuck": int(stuck or 0)}

    def keys(self, list_id: str, query: Query) -> list[str]:
        if list_id == "inbox":
            where, params = self._inbox_where(query, self.clock())
            return [r[0] for r in self.db.rows(f"SELECT id FROM inbox{where} ORDER BY posted_at, id", params)]
        if list_id in DETAILS:
            return [r.key for r in self._detail_rows(list_id, query.parent)
                    if api.row_matches(r, Query(text=query.text))]
        plain = self._plain_table(list_id)
        if plain is not None and not query.flags and not query.sort:
            table, order, shown = plain
            where, params = self.store.current(table), {}
            if query.text.strip():
                words = " OR ".join(f'strpos(lower(CAST("{c}" AS TEXT)), :t) > 0' for c in self._searched(table))
                where += (" AND " if where else " WHERE ") + f"({words})"
                params["t"] = query.text.strip().lower()
            keys = [str(r[0]) for r in self.db.rows(f'SELECT id FROM "{table}"{where} ORDER BY {order}', params)]
            return keys[::-1] if query.descending else keys
        return super().keys(list_id, query)

    def _searched(self, table: str) -> list[str]:
        """Every column but those shown masked (a process's environment, a verification's value, a column
        named for a secret): a filter must not become a way to guess a secret."""
        from daycare_gui.stores.masking import is_secret_key

        hidden = {"env"} if table == "processes" else {"value"} if table == "app_auth_verifications" else set()
        return [c for c in self.db.columns(table) if c not in hidden and not is_secret_key(c)]

    def _plain_table(self, list_id: str):
        """(table, order, shown columns) of a list of LISTS keyed by its ``id``: keyed in SQL, so a big
        table costs its keys and the rows shown, not a read of every row per page."""
        spec = self._lists().get(list_id) if list_id not in ("inbox", *DETAILS) else None
        if spec is None or "id" not in self.db.columns(spec[1]) or spec[1] == "key_values":
            return None
        _title, table, order, cols = spec
        return table, order, [c for c in cols if c in self.db.columns(table)]

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        if list_id == "inbox":
            return self._inbox_rows(keys)
        if list_id in DETAILS:
            parents = {k.split("|", 1)[0] for k in keys}
            rows = {r.key: r for p in parents for r in self._detail_rows(list_id, p)}
            return [rows[k] for k in keys if k in rows]
        plain = self._plain_table(list_id)
        if plain is not None:
            return self._plain_rows(list_id, plain, keys)
        return super().fetch(list_id, keys)

    def _plain_rows(self, list_id: str, plain, keys: list[str]) -> list[Row]:
        table, _order, shown = plain
        if not keys:
            return []
        current = " AND valid_to IS NULL" if self.store.current(table) else ""
        marks = ", ".join(f":k{i}" for i in range(len(keys)))
        found = {}
        for r in self.db.mappings(f'SELECT * FROM "{table}" WHERE CAST(id AS TEXT) IN ({marks}){current}',
                                  {f"k{i}": k for i, k in enumerate(keys)}):
            row = masked_row(plain_values(r), table)
            found[str(r.get("id"))] = Row(str(r.get("id")), tuple(row.get(c) for c in shown), raw=row,
                                          markdown=markdown_of(table, row))
        return self.joined(list_id, [found[k] for k in keys if k in found])

    # -- the inbox ----------------------------------------------------------------------------------------
    def _agent_names(self, ids: list[str]) -> dict[str, str]:
        if not ids or not self.store.has("agents"):
            return {}
        cols = set(self.db.columns("agents"))
        name = "coalesce(name, path, id)" if "name" in cols else "coalesce(path, id)"
        marks = ", ".join(f":a{i}" for i in range(len(ids)))
        return {r[0]: r[1] for r in self.db.rows(f"SELECT id, {name} FROM agents WHERE id IN ({marks})",
                                                 {f"a{i}": a for i, a in enumerate(ids)})}

    def _inbox_rows(self, keys: list[str]) -> list[Row]:
        if not keys:
            return []
        marks = ", ".join(f":k{i}" for i in range(len(keys)))
        found = {r["id"]: r for r in self.db.mappings(
            f"SELECT id, agent_id, posted_at, type, data FROM inbox WHERE id IN ({marks})",
            {f"k{i}": k for i, k in enumerate(keys)})}
        names = self._agent_names(sorted({r["agent_id"] for r in found.values()}))
        now, out = self.clock(), []
        for key in keys:
            r = found.get(key)
            if r is None:
                continue
            posted = r["posted_at"] if isinstance(r["posted_at"], int) else 0
            stuck = posted < now - STUCK_AFTER_MS
            agent = names.get(r["agent_id"]) or f"{r['agent_id']} (no such agent)"
            raw = masked_row(dict(r), "inbox")
            out.append(Row(key, (posted, fmt_age(now - posted), "stuck" if stuck else "waiting", r["type"], agent,
                                 _summary(raw.get("data"))),
                           raw=raw, flag="stuck" if stuck else "",
                           links=(Link("thread", r["agent_id"], f"Open agent {agent}"),)))
        return out

    # -- a channel's members and messages -------------------------------------------------------------------
    def _detail_rows(self, list_id: str, parent: str | None) -> list[Row]:
        _title, table, order = DETAILS[list_id]
        if parent is None or not self.store.has(table):
            return []
        columns = self.db.columns(table)
        rows = self.db.mappings(f'SELECT * FROM "{table}" WHERE channel_id = :p ORDER BY {order}', {"p": parent})
        out = []
        for i, r in enumerate(rows):
            shown = masked_row(plain_values(r), table)
            values = tuple(json.dumps(v, default=str) if isinstance(v, (dict, list)) else v
                           for v in (shown.get(c) for c in columns))
            out.append(Row(f"{parent}|{r.get('id', i)}", values, raw=shown,
                           markdown=shown.get("text") if isinstance(shown.get("text"), str) else None))
        return out

    # -- the files beside the rows --------------------------------------------------------------------------
    def joined(self, collection_id: str, rows: list[Row]) -> list[Row]:
        """Processes with their folder (sandbox.json, process.log's end), mini apps with their code folders:
        already masked by ``datadir.runtime_files``."""
        from dataclasses import replace

        if self.files is None or collection_id not in ("processes", "mini_apps"):
            return rows
        if collection_id == "processes":
            folders = {e.key: e for e in self.files.entries("processes")}
            return [replace(r, markdown="\n\n".join(p for p in (r.markdown, folders[r.key].markdown) if p),
                            raw={**(r.raw or {}), "folder": folders[r.key].raw})
                    if r.key in folders else r for r in rows]
        code: dict[tuple[str, str], list] = {}
        for e in self.files.entries("apps"):
            code.setdefault((e.raw["user"], e.raw["app"]), []).append(e)
        out = []
        for r in rows:
            raw = r.raw if isinstance(r.raw, dict) else {}
            found = code.get((str(raw.get("user_id")), r.key), [])
            if found:
                lines = "\n".join(f"- `{e.raw['folder']}` — version {e.raw['code_version']}"
                                  f"{' (current)' if e.raw['current'] else ''}, {e.raw['files']} files"
                                  for e in found)
                md = "\n\n".join(p for p in (r.markdown, f"## Code folders\n\n{lines}") if p)
                r = replace(r, markdown=md, raw={**raw, "code_folders": [e.raw for e in found]})
            out.append(r)
        return out
