"""Sessions, the task tree, consensus checkpoints and review loops."""

from __future__ import annotations

import time
from array import array

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.edits import set_task_status
from daycare_gui.stores.agentstack.memory_entry import SESSION_PREFIX, ns_key
from daycare_gui.stores.agentstack.schema import RISK_LEVELS, SESSION_STATUSES, TASK_STATUSES
from daycare_gui.stores.agentstack.spec import (
    Spec,
    TableSpec,
    bullet_list,
    existing,
    in_batches,
    problems_of,
    report,
)
from daycare_gui.stores.api import EditableField
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.records import Link, Row

LINKS_SHOWN = 20  # tasks linked from one session row (the markdown says how many more)


def _status_problem(name: str, value, allowed: tuple[str, ...]) -> str | None:
    return None if value in allowed else f"{name} {value!r} is not one of {', '.join(allowed)}"


class Sessions(TableSpec):
    id = "sessions"
    title = "Sessions"
    group = "Work"
    table = "sessions"
    columns = ("Session", "Status", "Started", "Ended", "Tasks", "Memory entries")
    select = ("id", "status", "started_at", "ended_at", "metadata")
    order = "started_at DESC, id"

    def enrich(self, recs: list[dict]) -> dict:
        ids = [r["id"] for r in recs]
        tasks: dict[str, list[dict]] = {}
        counts: dict[str, int] = {}
        if self.store.has("tasks"):
            for r in in_batches(self.db, "SELECT session_id AS s, count(*) AS n FROM tasks "
                                         "WHERE session_id IN ({ids}) GROUP BY session_id", ids):
                counts[r["s"]] = r["n"]
            sql = ("SELECT * FROM (SELECT id, session_id, agent_type, status, input, row_number() OVER "
                   "(PARTITION BY session_id ORDER BY created_at, id) AS rn FROM tasks "
                   f"WHERE session_id IN ({{ids}})) WHERE rn <= {LINKS_SHOWN}")
            for r in in_batches(self.db, sql, ids):
                tasks.setdefault(r["session_id"], []).append(r)
        memory = {r["namespace"]: r["n"] for r in in_batches(
            self.db, "SELECT namespace, count(*) AS n FROM memory WHERE namespace IN ({ids}) GROUP BY namespace",
            [SESSION_PREFIX + str(i) for i in ids])} if self.store.has("memory") else {}
        loops: dict[str, list] = {}
        if self.store.has("review_loops"):
            for r in in_batches(self.db, "SELECT id, session_id, status FROM review_loops "
                                         "WHERE session_id IN ({ids})", ids):
                loops.setdefault(r["session_id"], []).append(r)
        return {"tasks": tasks, "counts": counts, "memory": memory, "loops": loops}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["id"])
        meta, meta_problem = v.parse_json(rec["metadata"])
        status = rec["status"]
        problem = problems_of(
            _status_problem("status", status, SESSION_STATUSES),
            "active but has ended_at" if status == "active" and rec["ended_at"] is not None else None,
            f"metadata {meta_problem}" if meta_problem else None,
            v.time_problem("started_at", rec["started_at"]), v.time_problem("ended_at", rec["ended_at"]))
        report(self.store, self.table, key, problem)
        tasks = extra["tasks"].get(rec["id"], [])
        n_tasks = extra["counts"].get(rec["id"], 0)
        n_memory = extra["memory"].get(SESSION_PREFIX + key, 0)
        links = [Link("row", ("tasks", str(t["id"])), f"{t['status']}: {v.short(t['input'] or t['agent_type'], 50)}")
                 for t in tasks]
        if n_memory:
            links.append(Link("row", ("memory", ns_key(SESSION_PREFIX + key)), f"memory ({n_memory})"))
        links += [Link("row", ("review-loops", str(r["id"])), f"review loop ({r['status']})")
                  for r in extra["loops"].get(rec["id"], [])]
        md = [f"### Session {key}", f"**{status}** · started {v.when(rec['started_at'])}"
              + (f" · ended {v.when(rec['ended_at'])}" if rec["ended_at"] is not None else "")]
        if meta is not None:
            md += ["**Metadata**", v.json_block(meta)]
        md += [f"**Tasks** ({n_tasks:,})", bullet_list(
            f"{t['status']} · {t['agent_type']} · {v.short(t['input'], 100)}" for t in tasks)]
        if n_tasks > len(tasks):
            md.append(f"*… {n_tasks - len(tasks):,} more in Tasks*")
        raw = {**rec, "metadata": v.shown_json(rec["metadata"])}
        return Row(key, (key, str(status), v.when(rec["started_at"]), v.when(rec["ended_at"]), n_tasks, n_memory),
                   raw=raw, markdown="\n\n".join(md), links=tuple(links), problem=problem,
                   flag="error" if status == "error" else "")


TASK_COLUMNS = ("id", "session_id", "agent_type", "status", "input", "output", "created_at", "completed_at",
                "risk_level", "parent_task_id", "depth", "consensus_checkpoint_id")


class TaskOrder:
    """The task tree in pre-order (children by creation), as rowids and depths: the pages' keys.

    AgentStack has no index on ``parent_task_id``, so SQLite walks a tree in seconds per page on 50k tasks;
    reading (rowid, id, parent) once and ordering here takes a fraction of that, and the pages then fetch
    full rows by rowid. Tasks whose parent chain loops (unreachable from any root) come last, depth -1.
    """

    def __init__(self, rowids: array, levels: array) -> None:
        self.rowids, self.levels = rowids, levels

    @classmethod
    def read(cls, db) -> TaskOrder:
        children: dict[object, list[int]] = {}
        ids: dict[object, int] = {}
        created: list[tuple[int, object]] = []
        with db.reader() as conn:
            for rowid, ident, parent in conn.execute(
                    "SELECT rowid, id, parent_task_id FROM tasks ORDER BY created_at, id"):
                ids[ident] = rowid
                created.append((rowid, parent))
        roots = []
        for rowid, parent in created:
            if parent is None or parent not in ids:
                roots.append(rowid)
            else:
                children.setdefault(ids[parent], []).append(rowid)
        del ids
        rowids, levels = array("q"), array("i")
        stack = [(r, 0) for r in reversed(roots)]
        seen: set[int] = set()
        while stack:
            rowid, level = stack.pop()
            if rowid in seen:
                continue
            seen.add(rowid)
            rowids.append(rowid)
            levels.append(level)
            stack.extend((c, level + 1) for c in reversed(children.get(rowid, ())))
        for rowid, _parent in created:
            if rowid not in seen:
                rowids.append(rowid)
                levels.append(-1)
        return cls(rowids, levels)


class Tasks(Spec):
    """Tasks as a tree by ``parent_task_id`` (pre-order, children by creation; see TaskOrder), flat on old
    files that lack the column."""

    id = "tasks"
    title = "Tasks"
    group = "Work"
    tables = ("tasks",)
    columns = ("Task", "Agent", "Status", "Risk", "Depth", "Created", "Completed", "Session")

    def __init__(self, store) -> None:
        super().__init__(store)
        self.tree = store.has("tasks", "parent_task_id")

    def _cols(self, prefix: str = "t.") -> str:
        return ", ".join(self.store.col("tasks", c, prefix=prefix) for c in TASK_COLUMNS)

    def forget(self) -> None:
        self._order = None

    def order(self) -> TaskOrder:
        if getattr(self, "_order", None) is None:
            self._order = TaskOrder.read(self.db) if self.tree else None
        return self._order

    def size(self) -> int:
        return int(self.db.scalar("SELECT count(*) FROM tasks") or 0) if not self.tree else len(self.order().rowids)

    def rows(self, offset: int, limit: int) -> list[Row]:
        offset, limit = max(0, int(offset)), max(0, int(limit))
        if not self.tree:
            recs = self.db.dicts(f"SELECT NULL AS tree_parent, 0 AS tree_level, {self._cols()} FROM tasks t "
                                 "ORDER BY t.created_at, t.id LIMIT ? OFFSET ?", (limit, offset))
            return self.build_all(recs)
        order = self.order()
        wanted = order.rowids[offset:offset + limit]
        levels = order.levels[offset:offset + limit]
        found = {r["_rowid"]: r for r in in_batches(
            self.db, f"SELECT t.rowid AS _rowid, {self._cols()} FROM tasks t WHERE t.rowid IN ({{ids}})", wanted)}
        recs = []
        for rowid, level in zip(wanted, levels):
            rec = found.get(rowid)
            if rec is not None:  # gone since the order was read: the next refresh drops it
                rec["tree_level"] = level
                rec["tree_parent"] = rec["parent_task_id"] if level > 0 else None
                recs.append(rec)
        return self.build_all(recs)

    def row(self, key: str) -> Row | None:
        parent = ("(SELECT p.id FROM tasks p WHERE p.id = t.parent_task_id AND p.id != t.id)"
                  if self.tree else "NULL")
        recs = self.db.dicts(f"SELECT {parent} AS tree_parent, NULL AS tree_level, {self._cols()} FROM tasks t "
                             "WHERE t.id = ?", (key,))
        return self.build_all(recs)[0] if recs else None

    def build_all(self, recs: list[dict]) -> list[Row]:
        if not recs:
            return []
        ids = [r["id"] for r in recs]
        sessions = {r["id"]: r["status"] for r in in_batches(
            self.db, "SELECT id, status FROM sessions WHERE id IN ({ids})",
            [r["session_id"] for r in recs])} if self.store.has("sessions") else {}
        rels: dict[str, list] = {}
        if self.store.has("task_relationships"):
            for mine, other, arrow in (("from_task_id", "to_task_id", "→"), ("to_task_id", "from_task_id", "←")):
                for r in in_batches(self.db, f"SELECT {mine} AS me, {other} AS other, relationship_type AS type "
                                             f"FROM task_relationships WHERE {mine} IN ({{ids}})", ids):
                    rels.setdefault(r["me"], []).append((arrow, r["type"], r["other"]))
        drift: dict[str, list] = {}
        if self.store.has("drift_detection_events"):
            for r in in_batches(self.db, "SELECT task_id, similarity_score, threshold, action_taken, "
                                         "ancestor_task_id, created_at FROM drift_detection_events "
                                         "WHERE task_id IN ({ids}) ORDER BY created_at", ids):
                drift.setdefault(r["task_id"], []).append(r)
        targets = existing(self.store, "consensus_checkpoints", "id", [r["consensus_checkpoint_id"] for r in recs])
        targets |= existing(self.store, "tasks", "id", [o for found in rels.values() for _, _, o in found])
        embeddings = {}
        if self.store.has("task_embeddings"):
            embeddings = {r["task_id"]: r for r in in_batches(
                self.db, "SELECT task_id, model, dimensions, length(embedding) AS size FROM task_embeddings "
                         "WHERE task_id IN ({ids})", ids)}
        return [self.build(r, sessions, rels.get(r["id"], []), drift.get(r["id"], []), embeddings.get(r["id"]),
                           targets) for r in recs]

    def editable(self, row: Row) -> tuple[EditableField, ...]:
        return (EditableField("status", "Status", "choice", TASK_STATUSES,
                              help="completed and failed set completed_at to now; pending and running clear it"),)

    def update(self, row: Row, changes: dict, *, force: bool = False) -> Row:
        return set_task_status(self, row, changes, force=force)

    def build(self, rec: dict, sessions: dict, rels: list, drift: list, embedding: dict | None,
              targets: set) -> Row:
        key = str(rec["id"])
        status, risk = rec["status"], rec["risk_level"]
        session_status = sessions.get(rec["session_id"])
        parent = rec["tree_parent"]
        problems = [
            _status_problem("status", status, TASK_STATUSES),
            _status_problem("risk_level", risk, RISK_LEVELS) if risk is not None else None,
            v.text_problem("input", rec["input"]), v.text_problem("output", rec["output"]),
            v.time_problem("created_at", rec["created_at"]), v.time_problem("completed_at", rec["completed_at"]),
        ]
        if rec["session_id"] is not None and self.store.has("sessions") and session_status is None:
            problems.append(f"session {rec['session_id']} does not exist")
        if rec["tree_level"] == -1:
            problems.append("its parent chain loops back on itself; shown at the end")
        elif (rec["tree_level"] is not None and rec["depth"] is not None and self.tree
              and rec["depth"] != rec["tree_level"] and isinstance(rec["depth"], int)):
            problems.append(f"depth says {rec['depth']} but the parent chain is {rec['tree_level']} deep")
        if embedding and embedding["size"] != (embedding["dimensions"] or 0) * 4:
            problems.append(f"task embedding has {count(embedding['size'], 'byte')} for "
                            f"{count(embedding['dimensions'] or 0, 'dimension')}")
        problem = problems_of(*problems)
        report(self.store, "tasks", key, problem)
        flag = ""
        if status == "failed":
            flag = "failed"
        elif status in ("pending", "running") and session_status in ("ended", "error"):
            flag = "stuck"  # its session is over, so nothing will run it
        elif risk == "high" and status in ("pending", "running"):
            flag = "high risk"
        links = []
        if session_status is not None:
            links.append(Link("row", ("sessions", str(rec["session_id"])), f"session ({session_status})"))
        if parent is not None:
            links.append(Link("row", ("tasks", str(parent)), "parent task"))
        if rec["consensus_checkpoint_id"] in targets:
            links.append(Link("row", ("consensus", str(rec["consensus_checkpoint_id"])), "consensus checkpoint"))
        links += [Link("row", ("tasks", str(o)), f"{t} {a}") for a, t, o in rels[:LINKS_SHOWN] if o in targets]
        md = [f"### {rec['agent_type']} task · {status}",
              f"created {v.when(rec['created_at'])}"
              + (f" · completed {v.when(rec['completed_at'])}" if rec["completed_at"] is not None else "")
              + (f" · risk **{risk}**" if risk else "") + (f" · depth {rec['depth']}" if rec["depth"] is not None else ""),
              "**Input**", v.fenced(str(rec["input"])) if rec["input"] else "*none*",
              "**Output**", v.fenced(str(rec["output"])) if rec["output"] else "*none yet*"]
        if rels:
            md += ["**Relationships**", bullet_list(f"{t} {a} `{o}`" for a, t, o in rels[:LINKS_SHOWN])]
        if drift:
            md += ["**Drift checks**", bullet_list(
                f"{v.when(d['created_at'])}: similarity {d['similarity_score']} vs threshold {d['threshold']} "
                f"to `{d['ancestor_task_id']}` → {d['action_taken']}" for d in drift[:50])]
        if embedding:
            md.append(f"**Embedding** {embedding['dimensions']} d ({embedding['model']}; values not shown)")
        raw = {c: rec[c] for c in TASK_COLUMNS}
        label = v.short(rec["input"], 80) or str(rec["agent_type"])
        return Row(key, (label, str(rec["agent_type"]), str(status), str(risk or ""),
                         "" if rec["depth"] is None else rec["depth"], v.when(rec["created_at"]),
                         v.when(rec["completed_at"]), str(rec["session_id"] or "")),
                   parent=str(parent) if parent is not None and self.tree else None, raw=raw,
                   markdown="\n\n".join(md), links=tuple(links), problem=problem, flag=flag)


class Consensus(TableSpec):
    id = "consensus"
    title = "Consensus checkpoints"
    group = "Work"
    table = "consensus_checkpoints"
    columns = ("Task", "Risk", "Status", "Strategy", "Reviewer", "Subtasks", "Created", "Expires", "Decided")
    select = ("id", "task_id", "parent_task_id", "proposed_subtasks", "risk_level", "status", "reviewer_strategy",
              "reviewer_id", "reviewer_type", "decision", "created_at", "expires_at", "decided_at")

    def enrich(self, recs: list[dict]) -> dict:
        events: dict[str, list] = {}
        if self.store.has("consensus_checkpoint_events"):
            sql = ("SELECT * FROM (SELECT id, checkpoint_id, event_type, actor_id, actor_type, details, created_at, "
                   "row_number() OVER (PARTITION BY checkpoint_id ORDER BY created_at, id) AS rn "
                   "FROM consensus_checkpoint_events WHERE checkpoint_id IN ({ids})) WHERE rn <= 200")
            for r in in_batches(self.db, sql, [r["id"] for r in recs]):
                events.setdefault(r["checkpoint_id"], []).append(r)
        tasks = {r["id"]: r for r in in_batches(self.db, "SELECT id, input, agent_type FROM tasks WHERE id IN ({ids})",
                                                [r["task_id"] for r in recs])} if self.store.has("tasks") else {}
        return {"events": events, "tasks": tasks,
                "parents": existing(self.store, "tasks", "id", [r["parent_task_id"] for r in recs])}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["id"])
        subtasks, sub_problem = v.parse_json(rec["proposed_subtasks"])
        decision, dec_problem = v.parse_json(rec["decision"])
        if subtasks is not None and not isinstance(subtasks, list):
            sub_problem, subtasks = "is not a JSON array", None
        task = extra["tasks"].get(rec["task_id"])
        overdue = (rec["status"] == "pending" and isinstance(rec["expires_at"], int)
                   and rec["expires_at"] < time.time() * 1000)
        problem = problems_of(f"proposed_subtasks {sub_problem}" if sub_problem else None,
                              f"decision {dec_problem}" if dec_problem else None,
                              v.time_problem("created_at", rec["created_at"]),
                              v.time_problem("expires_at", rec["expires_at"]))
        report(self.store, self.table, key, problem)
        md = [f"### Consensus checkpoint · {rec['status']}",
              f"risk **{rec['risk_level']}** · reviewer {rec['reviewer_strategy']}"
              + (f" ({rec['reviewer_type']} {rec['reviewer_id']})" if rec["reviewer_id"] else "")
              + f" · created {v.when(rec['created_at'])} · expires {v.when(rec['expires_at'])}"
              + (f" · decided {v.when(rec['decided_at'])}" if rec["decided_at"] is not None else "")]
        if task:
            md.append(f"**Task** {task['agent_type']}: {v.short(task['input'], 200)}")
        md.append("**Proposed subtasks**")
        md.append(bullet_list(_subtask_line(s) for s in subtasks or []) if subtasks is not None
                  else v.fenced(str(rec["proposed_subtasks"]), 2000))
        md.append("**Decision**")
        md.append(_decision_text(decision) if decision is not None else "*none yet*")
        events = extra["events"].get(rec["id"], [])
        md.append("**Timeline**")
        md.append(bullet_list(
            f"{v.when(e['created_at'])} · {e['event_type']}"
            + (f" by {e['actor_type'] or ''} {e['actor_id']}" if e["actor_id"] else "")
            + (f" · {v.short(v.shown_json(e['details']), 160)}" if e["details"] else "") for e in events))
        links = [Link("row", ("tasks", str(rec["task_id"])), "task")] if task else []
        if rec["parent_task_id"] in extra["parents"]:
            links.append(Link("row", ("tasks", str(rec["parent_task_id"])), "parent task"))
        raw = {**rec, "proposed_subtasks": v.shown_json(rec["proposed_subtasks"]),
               "decision": v.shown_json(rec["decision"])}
        label = v.short(task["input"], 60) if task else str(rec["task_id"])
        return Row(key, (label, str(rec["risk_level"]), str(rec["status"]), str(rec["reviewer_strategy"]),
                         str(rec["reviewer_id"] or ""), len(subtasks) if subtasks is not None else "?",
                         v.when(rec["created_at"]), v.when(rec["expires_at"]), v.when(rec["decided_at"])),
                   raw=raw, markdown="\n\n".join(md), links=tuple(links), problem=problem,
                   flag="overdue" if overdue else ("rejected" if rec["status"] == "rejected" else ""))


def _subtask_line(sub) -> str:
    if not isinstance(sub, dict):
        return v.short(sub, 200)
    risk = sub.get("estimatedRiskLevel") or sub.get("riskLevel") or "?"
    return f"`{sub.get('id', '?')}` {sub.get('agentType', '?')} (risk {risk}): {v.short(sub.get('input'), 200)}"


def _decision_text(decision) -> str:
    if not isinstance(decision, dict):
        return v.json_block(decision)
    verdict = "approved" if decision.get("approved") else "not approved"
    lines = [f"**{verdict}**" + (f" by {decision.get('reviewerType', '')} {decision.get('reviewedBy')}"
                                  if decision.get("reviewedBy") else "")]
    if decision.get("feedback"):
        lines.append(f"> {v.short(decision['feedback'], 2000)}")
    if decision.get("rejectedSubtaskIds"):
        lines.append("rejected subtasks: " + ", ".join(f"`{i}`" for i in decision["rejectedSubtaskIds"]))
    return "\n\n".join(lines)


class ReviewLoops(TableSpec):
    id = "review-loops"
    title = "Review loops"
    group = "Work"
    table = "review_loops"
    columns = ("Loop", "Status", "Iteration", "Verdict", "Coder", "Adversarial", "Session", "Updated")
    select = ("id", "coder_id", "adversarial_id", "session_id", "status", "iteration", "max_iterations",
              "code_input", "current_code", "reviews", "final_verdict", "created_at", "updated_at", "completed_at")
    order = "updated_at DESC, id"

    def enrich(self, recs: list[dict]) -> dict:
        return {"sessions": existing(self.store, "sessions", "id", [r["session_id"] for r in recs])}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["id"])
        reviews, rev_problem = v.parse_json(rec["reviews"])
        problem = problems_of(f"reviews {rev_problem}" if rev_problem else None,
                              v.time_problem("updated_at", rec["updated_at"]))
        report(self.store, self.table, key, problem)
        md = [f"### Review loop · {rec['status']}",
              f"iteration {rec['iteration']} of {rec['max_iterations']} · coder `{rec['coder_id']}` · "
              f"adversarial `{rec['adversarial_id']}` · verdict {rec['final_verdict'] or '—'}"]
        for i, review in enumerate(reviews if isinstance(reviews, list) else [], 1):
            if not isinstance(review, dict):
                continue
            md.append(f"**Review {i}: {review.get('verdict', '?')}** {v.short(review.get('summary'), 500)}")
            issues = review.get("issues") if isinstance(review.get("issues"), list) else []
            if issues:
                md.append(bullet_list(
                    f"{i.get('severity', '?')}: {i.get('title', '')} — fix: {v.short(i.get('requiredFix'), 200)}"
                    for i in issues if isinstance(i, dict)))
        md += ["**Code under review**", v.fenced(str(rec["code_input"] or ""), 5000)]
        if rec["current_code"]:
            md += ["**Current code**", v.fenced(str(rec["current_code"]), 5000)]
        links = [Link("row", ("sessions", str(rec["session_id"])), "session")] if rec["session_id"] in \
            extra["sessions"] else []
        raw = {**rec, "reviews": v.shown_json(rec["reviews"])}
        return Row(key, (key, str(rec["status"]), f"{rec['iteration']}/{rec['max_iterations']}",
                         str(rec["final_verdict"] or ""), str(rec["coder_id"]), str(rec["adversarial_id"]),
                         str(rec["session_id"] or ""), v.when(rec["updated_at"])),
                   raw=raw, markdown="\n\n".join(md), links=tuple(links), problem=problem)


SPECS = (Sessions, Tasks, Consensus, ReviewLoops)
