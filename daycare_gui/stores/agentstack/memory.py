"""Memory entries: grouped by namespace (session namespaces under their session) or by agent, with
tags, relationships, versions and embedding facts; and full-text search through the store's own index.

AgentStack saves an entry's previous state into ``memory_versions`` (version = last + 1, created_at = the
old ``updated_at``) before each update, so versions are the history *before* the current content.
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.edits import update_memory
from daycare_gui.stores.agentstack.memory_entry import (
    SESSION_PREFIX,
    memory_select,
    memory_state,
    ns_key,
    ns_label,
)
from daycare_gui.stores.agentstack.spec import (
    BATCH,
    Spec,
    TableSpec,
    bullet_list,
    existing,
    in_batches,
    problems_of,
    report,
)
from daycare_gui.stores.api import EditableField
from daycare_gui.stores.records import Link, Row

SESSIONS_KEY = "group:sessions"
TAG_LINKS = 100  # entries linked from one tag row; the count says how many there are
HISTORY_SHOWN = 3  # newest changes described in an entry's detail; the rest in the versions list


@dataclass
class Segment:
    header: Row
    count: int
    where: str  # SQL condition selecting the segment's entries
    params: tuple


class MemoryPages:
    """Builds entry rows for a page of memory records (tags, relationships, versions in a few queries)."""

    def __init__(self, store) -> None:
        self.store = store
        self.db = store.db

    def entries(self, where: str, params: tuple, offset: int, limit: int, parent: str | None,
                order: str = "key, id") -> list[Row]:
        recs = self.db.dicts(f"SELECT {memory_select(self.store)} FROM memory WHERE {where} "
                             f"ORDER BY {order} LIMIT ? OFFSET ?", (*params, max(0, limit), max(0, offset)))
        return self.build(recs, lambda _rec: parent)

    def by_id(self, key: str, parent_of) -> Row | None:
        recs = self.db.dicts(f"SELECT {memory_select(self.store)} FROM memory WHERE id = ?", (key,))
        return self.build(recs, parent_of)[0] if recs else None

    def build(self, recs: list[dict], parent_of) -> list[Row]:
        if not recs:
            return []
        ids = [r["id"] for r in recs]
        tags = self._tags(ids)
        rels = self._relationships(ids)
        versions = self._versions(ids)
        targets = existing(self.store, "agent_identities", "agent_id", [r["agent_id"] for r in recs]) | existing(
            self.store, "sessions", "id", [str(r["namespace"])[len(SESSION_PREFIX):] for r in recs])
        return [self._row(r, parent_of(r), tags.get(r["id"], []), rels.get(r["id"], []),
                          versions.get(r["id"], []), targets) for r in recs]

    def _tags(self, ids: list) -> dict[str, list[str]]:
        if not (self.store.has("tags") and self.store.has("memory_tags")):
            return {}
        out: dict[str, list[str]] = {}
        for r in in_batches(self.db, "SELECT mt.memory_id AS m, t.name AS name FROM memory_tags mt "
                                     "JOIN tags t ON t.id = mt.tag_id WHERE mt.memory_id IN ({ids}) "
                                     "ORDER BY t.name", ids):
            out.setdefault(r["m"], []).append(str(r["name"]))
        return out

    def _relationships(self, ids: list) -> dict[str, list[tuple[str, str, str, str | None]]]:
        """id → [(direction, type, other id, other key)] (at most 50 each way per page)."""
        if not self.store.has("memory_relationships"):
            return {}
        out: dict[str, list] = {}
        for direction, mine, other in (("→", "from_id", "to_id"), ("←", "to_id", "from_id")):
            sql = (f"SELECT r.{mine} AS me, r.{other} AS other, r.relationship_type AS type, m.key AS other_key "
                   f"FROM memory_relationships r LEFT JOIN memory m ON m.id = r.{other} "
                   f"WHERE r.{mine} IN ({{ids}}) ORDER BY r.created_at LIMIT {50 * BATCH}")
            for r in in_batches(self.db, sql, ids):
                found = out.setdefault(r["me"], [])
                if len(found) < 100:
                    found.append((direction, str(r["type"]), r["other"], r["other_key"]))
        return out

    def _versions(self, ids: list) -> dict[str, list[dict]]:
        """id → its newest versions (newest first), each with ``total`` = how many it has."""
        if not self.store.has("memory_versions"):
            return {}
        sql = ("SELECT * FROM (SELECT id, memory_id, version, key, namespace, content, metadata, created_at, "
               "row_number() OVER (PARTITION BY memory_id ORDER BY version DESC) AS rn, "
               "count(*) OVER (PARTITION BY memory_id) AS total FROM memory_versions "
               f"WHERE memory_id IN ({{ids}})) WHERE rn <= {HISTORY_SHOWN} ORDER BY memory_id, version DESC")
        out: dict[str, list[dict]] = {}
        for r in in_batches(self.db, sql, ids):
            out.setdefault(r["memory_id"], []).append(r)
        return out

    def _row(self, rec: dict, parent: str | None, tags: list[str], rels: list, versions: list[dict],
             targets: set) -> Row:
        key = str(rec["id"])
        metadata, meta_problem = v.parse_json(rec["metadata"])
        emb_text, emb_facts, emb_problem = v.embedding_facts(rec["embedding"])
        problem = problems_of(
            v.text_problem("key", rec["key"]), v.text_problem("content", rec["content"]),
            f"metadata {meta_problem}" if meta_problem else None, emb_problem,
            v.time_problem("created_at", rec["created_at"]), v.time_problem("updated_at", rec["updated_at"]),
        )
        report(self.store, "memory", key, problem)
        total = versions[0]["total"] if versions else 0
        raw = {**memory_state(rec), "id": rec["id"], "rowid": rec["rowid"], "created_at": rec["created_at"],
               "embedding": emb_facts, "tags": tags, "versions": total}
        namespace = rec["namespace"]
        links = []
        if isinstance(namespace, str) and namespace[len(SESSION_PREFIX):] in targets:
            links.append(Link("row", ("sessions", namespace[len(SESSION_PREFIX):]), "session"))
        if rec["agent_id"] in targets:
            links.append(Link("row", ("agents", str(rec["agent_id"])), f"agent {rec['agent_id']}"))
        links += [Link("row", ("memory", str(other)), f"{kind} {direction} {other_key}")
                  for direction, kind, other, other_key in rels if other_key is not None]
        links.extend(Link("row", ("memory-versions", str(ver["id"])), f"version {ver['version']}")
                     for ver in versions)
        values = (str(rec["key"]), v.short(rec["content"]), str(rec["agent_id"] or ""), ", ".join(tags),
                  emb_text, v.when(rec["updated_at"]), ns_label(namespace))
        return Row(key, values, parent=parent, raw=raw, links=tuple(links), problem=problem,
                   markdown=self._markdown(rec, metadata, meta_problem, tags, rels, emb_text, versions, total))

    def _markdown(self, rec, metadata, meta_problem, tags, rels, emb_text, versions, total) -> str:
        parts = [f"### {rec['key']}",
                 f"namespace `{ns_label(rec['namespace'])}` · agent {rec['agent_id'] or '*shared*'} · "
                 f"created {v.when(rec['created_at'])} · updated {v.when(rec['updated_at'])}",
                 v.fenced(str(rec["content"] or ""))]
        if metadata is not None:
            parts += ["**Metadata**", v.json_block(metadata)]
        elif meta_problem:
            parts += [f"**Metadata** {meta_problem}:", v.fenced(str(rec["metadata"]), 2000)]
        if tags:
            parts.append("**Tags** " + ", ".join(f"`{t}`" for t in tags))
        if rels:
            parts += ["**Relationships**", bullet_list(
                f"{kind} {d} `{k if k is not None else o + ' (missing)'}`" for d, kind, o, k in rels)]
        if emb_text:
            parts.append(f"**Embedding** {emb_text} (values not shown)")
        if versions:
            parts.append(f"**History** {total} earlier version{'s' if total != 1 else ''}; newest changes:")
            newer = {"key": rec["key"], "namespace": rec["namespace"], "content": rec["content"],
                     "metadata": rec["metadata"]}
            newer_label = "current"
            for ver in versions:  # newest first: ver → newer
                label = f"v{ver['version']}"
                parts.append(f"*{label} ({v.when(ver['created_at'])}) → {newer_label}*")
                parts.append(v.describe_change(ver, newer, label_a=label, label_b=newer_label))
                newer, newer_label = ver, label
        return "\n\n".join(parts)


class GroupedMemory(Spec):
    """Memory as a tree of groups (namespaces or agents) → entries, paged across the groups."""

    tree = True
    group = "Memory"
    tables = ("memory",)
    order = "key, id"  # within a group; namespaces have an index on (namespace, key)

    def __init__(self, store) -> None:
        super().__init__(store)
        self.pages = MemoryPages(store)
        self._segments: list[Segment] | None = None

    def forget(self) -> None:
        self._segments = None

    def segments(self) -> list[Segment]:
        if self._segments is None:
            self._segments = self.make_segments()
        return self._segments

    def make_segments(self) -> list[Segment]:
        raise NotImplementedError

    def size(self) -> int:
        return sum(1 + s.count for s in self.segments())

    def items(self) -> int | None:
        return sum(s.count for s in self.segments())  # the entries, not their group headers

    def rows(self, offset: int, limit: int) -> list[Row]:
        out: list[Row] = []
        pos, end = 0, offset + limit
        for seg in self.segments():
            if pos >= end:
                break
            seg_end = pos + 1 + seg.count
            if seg_end > offset:
                if pos >= offset:
                    out.append(seg.header)
                first = max(0, offset - pos - 1)
                want = min(seg.count - first, end - max(offset, pos + 1))
                if want > 0 and seg.count:
                    out.extend(self.pages.entries(seg.where, seg.params, first, want, seg.header.key, self.order))
            pos = seg_end
        return out

    def row(self, key: str) -> Row | None:
        for seg in self.segments():
            if seg.header.key == key:
                return seg.header
        return self.pages.by_id(key, self.parent_of)

    def parent_of(self, rec: dict) -> str | None:
        raise NotImplementedError

    def editable(self, row: Row) -> tuple[EditableField, ...]:
        if not (isinstance(row.raw, dict) and "rowid" in row.raw):
            return ()  # a group, not an entry
        return (EditableField("content", "Content", "markdown",
                              help="AgentStack's triggers update the search index; the old text is kept as a "
                                   "version"),
                EditableField("metadata", "Metadata (JSON object)", "text",
                              help="empty for none; masked secrets left as they are keep their stored value"))

    def update(self, row: Row, changes: dict, *, force: bool = False) -> Row:
        return update_memory(self, row, changes, force=force)

    def _header(self, key: str, label: str, count: int | None, parent: str | None = None, **kw) -> Row:
        shown = f"{count:,} entr{'y' if count == 1 else 'ies'}" if count is not None else ""
        return Row(key, (label, shown, "", "", "", "", ""), parent=parent, **kw)


class MemoryByNamespace(GroupedMemory):
    id = "memory"
    title = "Memory by namespace"
    columns = ("Key", "Content", "Agent", "Tags", "Embedding", "Updated", "Namespace")

    def make_segments(self) -> list[Segment]:
        counts = self.db.rows("SELECT namespace, count(*) FROM memory GROUP BY namespace "
                              "ORDER BY namespace LIKE 'session:%', namespace")
        plain = [(ns, n) for ns, n in counts if not (isinstance(ns, str) and ns.startswith(SESSION_PREFIX))]
        session_ns = [(ns, n) for ns, n in counts if (ns, n) not in plain]
        segs = [Segment(self._header(ns_key(ns), ns_label(ns), n), n, *self._where(ns)) for ns, n in plain]
        if session_ns:
            sessions = self._sessions([ns[len(SESSION_PREFIX):] for ns, _ in session_ns])
            segs.append(Segment(self._header(SESSIONS_KEY, f"Sessions ({len(session_ns):,})", None), 0, "0", ()))
            for ns, n in session_ns:
                sid = ns[len(SESSION_PREFIX):]
                found = sessions.get(sid)
                status = str(found["status"]) if found else "no such session"
                flag = ""
                if found is None or status in ("ended", "error"):
                    flag = "left over"  # AgentStack clears a session's memory when the session ends
                header = self._header(ns_key(ns), f"{sid} ({status})", n, parent=SESSIONS_KEY, flag=flag,
                                      links=(Link("row", ("sessions", sid), "session"),) if found else ())
                segs.append(Segment(header, n, *self._where(ns)))
        return segs

    def _sessions(self, ids: list[str]) -> dict[str, dict]:
        if not self.store.has("sessions"):
            return {}
        return {r["id"]: r for r in in_batches(self.db, "SELECT id, status FROM sessions WHERE id IN ({ids})", ids)}

    @staticmethod
    def _where(ns: str | None) -> tuple[str, tuple]:
        return ("namespace IS NULL", ()) if ns is None else ("namespace = ?", (ns,))

    def parent_of(self, rec: dict) -> str | None:
        return ns_key(rec["namespace"])


class MemoryByAgent(GroupedMemory):
    id = "memory-agents"
    title = "Memory by agent"
    columns = MemoryByNamespace.columns
    order = "rowid"  # oldest first: the agent_id index gives that order; sorting by key took 0.6 s a page at 100k

    def available(self) -> bool:
        return self.store.has("memory", "agent_id")

    def make_segments(self) -> list[Segment]:
        counts = self.db.rows("SELECT agent_id, count(*) FROM memory GROUP BY agent_id "
                              "ORDER BY agent_id IS NOT NULL, agent_id")
        identities = existing(self.store, "agent_identities", "agent_id", [a for a, _ in counts])
        segs = []
        for agent, n in counts:
            if agent is None:
                segs.append(Segment(self._header("agent:", "shared (no agent)", n), n, "agent_id IS NULL", ()))
            else:
                header = self._header(f"agent:{agent}", str(agent), n, links=(
                    (Link("row", ("agents", str(agent)), "agent identity"),) if agent in identities else ()))
                segs.append(Segment(header, n, "agent_id = ?", (agent,)))
        return segs

    def parent_of(self, rec: dict) -> str | None:
        return f"agent:{rec['agent_id'] or ''}"


class MemoryVersions(TableSpec):
    """Every saved earlier state, newest first, each with what changed after it."""

    id = "memory-versions"
    title = "Memory versions"
    group = "Memory"
    table = "memory_versions"
    columns = ("Key", "Namespace", "Version", "Saved", "Changed after")
    select = ("id", "memory_id", "version", "key", "namespace", "content", "metadata", "agent_id", "created_at")

    def _select(self, where: str = "", tail: str = "") -> str:
        cols = ", ".join(self.store.col(self.table, c, prefix="v.") for c in self.select)
        nxt = ("(SELECT n.id FROM memory_versions n WHERE n.memory_id = v.memory_id AND n.version > v.version "
               "ORDER BY n.version LIMIT 1) AS next_id")
        where = where.replace("WHERE id", "WHERE v.id")
        tail = tail.replace("created_at DESC, id", "v.created_at DESC, v.id")
        return f"SELECT {cols}, {nxt} FROM memory_versions v {where} {tail}"

    def enrich(self, recs: list[dict]) -> dict:
        nexts = {r["id"]: r for r in in_batches(
            self.db, "SELECT id, version, key, namespace, content, metadata FROM memory_versions "
                     "WHERE id IN ({ids})", [r["next_id"] for r in recs])}
        current = {r["id"]: r for r in in_batches(
            self.db, "SELECT id, key, namespace, content, metadata FROM memory WHERE id IN ({ids})",
            [r["memory_id"] for r in recs])}
        return {"next": nexts, "current": current}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["id"])
        newer = extra["next"].get(rec["next_id"])
        newer_label = f"v{newer['version']}" if newer else "current"
        entry = extra["current"].get(rec["memory_id"])
        if newer is None:
            newer = entry
        label = f"v{rec['version']}"
        problem = problems_of(None if entry else "its memory entry no longer exists",
                              v.text_problem("content", rec["content"]),
                              v.time_problem("created_at", rec["created_at"]))
        report(self.store, self.table, key, problem)
        change = v.change_summary(rec, newer) if newer else "entry deleted"
        md = [f"### {rec['key']} {label}", f"the entry as it was at {v.when(rec['created_at'])}"]
        if newer:
            md.append(v.describe_change(rec, newer, label_a=label, label_b=newer_label))
        md.append(f"**{label} content**")
        md.append(v.fenced(str(rec["content"] or "")))
        raw = {k: rec[k] for k in self.select if k != "metadata"} | {"metadata": v.shown_json(rec["metadata"])}
        return Row(key, (str(rec["key"]), ns_label(rec["namespace"]), rec["version"], v.when(rec["created_at"]),
                         change), raw=raw, markdown="\n\n".join(md), problem=problem,
                   links=(Link("row", ("memory", str(rec["memory_id"])), "entry"),) if entry else ())


class Tags(TableSpec):
    id = "tags"
    title = "Tags"
    group = "Memory"
    table = "tags"
    columns = ("Tag", "Entries", "Created")
    select = ("id", "name", "created_at")
    order = "name, id"

    def enrich(self, recs: list[dict]) -> dict:
        if not self.store.has("memory_tags"):
            return {}
        ids = [r["id"] for r in recs]
        counts = {r["tag"]: r["n"] for r in in_batches(
            self.db, "SELECT tag_id AS tag, count(*) AS n FROM memory_tags WHERE tag_id IN ({ids}) GROUP BY tag_id",
            ids)}
        entries: dict[str, list] = {}
        sql = ("SELECT * FROM (SELECT mt.tag_id AS tag, m.id AS id, m.key AS key, row_number() OVER "
               "(PARTITION BY mt.tag_id ORDER BY m.key, m.id) AS rn FROM memory_tags mt JOIN memory m "
               f"ON m.id = mt.memory_id WHERE mt.tag_id IN ({{ids}})) WHERE rn <= {TAG_LINKS} ORDER BY tag, rn")
        for r in in_batches(self.db, sql, ids):
            entries.setdefault(r["tag"], []).append(r)
        return {"counts": counts, "entries": entries}

    def build(self, rec: dict, extra: dict) -> Row:
        entries = extra.get("entries", {}).get(rec["id"], [])
        n = extra.get("counts", {}).get(rec["id"], 0)
        links = tuple(Link("row", ("memory", str(e["id"])), str(e["key"])) for e in entries)
        more = f"\n\n*… {n - len(entries):,} more*" if n > len(entries) else ""
        return Row(str(rec["id"]), (str(rec["name"]), n, v.when(rec["created_at"])), raw=rec, links=links,
                   markdown=f"### Tag `{rec['name']}`\n\n" + bullet_list(f"`{e['key']}`" for e in entries) + more)


class Relationships(TableSpec):
    id = "memory-relationships"
    title = "Relationships"
    group = "Memory"
    table = "memory_relationships"
    columns = ("From", "Relationship", "To", "Created")
    select = ("id", "from_id", "to_id", "relationship_type", "metadata", "created_at")

    def enrich(self, recs: list[dict]) -> dict:
        ids = [r["from_id"] for r in recs] + [r["to_id"] for r in recs]
        return {r["id"]: r["key"] for r in in_batches(self.db, "SELECT id, key FROM memory WHERE id IN ({ids})", ids)}

    def build(self, rec: dict, keys: dict) -> Row:
        key = str(rec["id"])
        a, b = keys.get(rec["from_id"]), keys.get(rec["to_id"])
        problem = problems_of(None if a is not None else f"from_id {rec['from_id']} is no memory entry",
                              None if b is not None else f"to_id {rec['to_id']} is no memory entry")
        report(self.store, self.table, key, problem)
        links = [Link("row", ("memory", str(i)), str(k)) for i, k in ((rec["from_id"], a), (rec["to_id"], b))
                 if k is not None]
        meta, _ = v.parse_json(rec["metadata"])
        raw = {**rec, "metadata": v.shown_json(rec["metadata"])}
        return Row(key, (str(a if a is not None else rec["from_id"]), str(rec["relationship_type"]),
                         str(b if b is not None else rec["to_id"]), v.when(rec["created_at"])),
                   raw=raw, links=tuple(links), problem=problem,
                   markdown=v.json_block(meta) if meta is not None else None)


SPECS: tuple[type[Spec], ...] = (MemoryByNamespace, MemoryByAgent, MemoryVersions, Tags, Relationships)


def entry_row(store, key: str) -> Row | None:
    """One memory entry as the namespace tree shows it."""
    return MemoryPages(store).by_id(key, lambda rec: ns_key(rec["namespace"]))

