"""Agents: identities with their audit trail, active agents, resource metrics with the exhaustion events
that moved their phase, deliverable checkpoints; plugins; users (never their password hashes)."""

from __future__ import annotations

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.edits import set_plugin_enabled
from daycare_gui.stores.agentstack.memory_entry import ns_key
from daycare_gui.stores.agentstack.spec import (
    TableSpec,
    bullet_list,
    existing,
    in_batches,
    problems_of,
    report,
)
from daycare_gui.stores.agentstack.tree import Level, LevelTree
from daycare_gui.stores.api import EditableField
from daycare_gui.stores.records import Link, Row

PHASES = ("normal", "warning", "intervention", "termination")
DEFAULT_ADMIN = ("admin", "admin@aistack.local")  # what AgentStack's web server creates on an empty users table


class Identities(LevelTree):
    """Agent identities, each with its audit trail (oldest first) as children."""

    id = "agents"
    title = "Agent identities"
    group = "Agents"
    tables = ("agent_identities",)
    columns = ("Agent", "Type", "Status", "Version", "Last active", "Capabilities / reason")

    def levels(self) -> list[Level]:
        ident = "printf('%020d', coalesce(i.created_at, 0)) || i.agent_id"
        found = [Level("", "agent_identities i", "i.agent_id", "NULL", ident)]
        if self.store.has("agent_identity_audit"):
            found.append(Level(
                "audit:", "agent_identity_audit a LEFT JOIN agent_identities i ON i.agent_id = a.agent_id", "a.id",
                "i.agent_id", f"coalesce({ident}, '~' || a.agent_id) || '/' || "
                              "printf('%020d', coalesce(a.timestamp, 0)) || a.id", parent_prefix=""))
        return found

    def fetch(self, prefix: str, ids: list) -> dict:
        if prefix == "":
            cols = ", ".join(self.store.col("agent_identities", c) for c in (
                "agent_id", "agent_type", "status", "capabilities", "version", "display_name", "description",
                "metadata", "created_at", "last_active_at", "retired_at", "retirement_reason", "created_by",
                "updated_at"))
            found = {r["agent_id"]: r for r in in_batches(
                self.db, f"SELECT {cols} FROM agent_identities WHERE agent_id IN ({{ids}})", ids)}
            if self.store.has("memory", "agent_id"):
                for r in in_batches(self.db, "SELECT DISTINCT agent_id FROM memory WHERE agent_id IN ({ids})", ids):
                    found[r["agent_id"]]["_memory"] = True
            if self.store.has("agent_resource_metrics"):
                for r in in_batches(self.db, "SELECT agent_id, phase FROM agent_resource_metrics "
                                             "WHERE agent_id IN ({ids})", ids):
                    found[r["agent_id"]]["_phase"] = r["phase"]
            return found
        cols = ", ".join(self.store.col("agent_identity_audit", c) for c in (
            "id", "agent_id", "action", "previous_status", "new_status", "reason", "actor_id", "metadata",
            "timestamp"))
        return {r["id"]: r for r in in_batches(
            self.db, f"SELECT {cols} FROM agent_identity_audit WHERE id IN ({{ids}})", ids)}

    def make(self, prefix: str, rec: dict, parent: str | None) -> Row:
        if prefix == "":
            key = str(rec["agent_id"])
            caps, cap_problem = v.parse_json(rec["capabilities"])
            meta, meta_problem = v.parse_json(rec["metadata"])
            problem = problems_of(f"capabilities {cap_problem}" if cap_problem else None,
                                  f"metadata {meta_problem}" if meta_problem else None)
            report(self.store, "agent_identities", key, problem)
            md = [f"### {rec['display_name'] or key}", f"{rec['agent_type']} · {rec['status']} · version "
                  f"{rec['version']} · created {v.when(rec['created_at'])} by {rec['created_by'] or '?'} · "
                  f"last active {v.when(rec['last_active_at'])}"]
            if rec["description"]:
                md.append(str(rec["description"]))
            if rec["retired_at"] is not None:
                md.append(f"retired {v.when(rec['retired_at'])}: {rec['retirement_reason'] or ''}")
            if meta is not None:
                md += ["**Metadata**", v.json_block(meta)]
            links = [Link("row", ("memory-agents", f"agent:{key}"), "memory")] if rec.get("_memory") else []
            if "_phase" in rec:
                links.append(Link("row", ("resource-metrics", key), f"resources ({rec['_phase']})"))
            raw = {k: val for k, val in rec.items() if not k.startswith("_")} | {
                "capabilities": v.shown_json(rec["capabilities"]), "metadata": v.shown_json(rec["metadata"])}
            return Row(key, (str(rec["display_name"] or key), str(rec["agent_type"]), str(rec["status"]),
                             rec["version"], v.when(rec["last_active_at"]),
                             ", ".join(map(str, caps)) if isinstance(caps, list) else ""),
                       parent=parent, raw=raw, markdown="\n\n".join(md), links=tuple(links), problem=problem)
        key = "audit:" + str(rec["id"])
        problem = None if parent else f"agent {rec['agent_id']} has no identity"
        report(self.store, "agent_identity_audit", str(rec["id"]), problem, "warning")
        change = f"{rec['previous_status'] or '—'} → {rec['new_status'] or '—'}"
        md = f"### {rec['action']} · {v.when(rec['timestamp'])}\n\n{change} by {rec['actor_id'] or '?'}\n\n" + \
            (str(rec["reason"]) if rec["reason"] else "")
        raw = {**rec, "metadata": v.shown_json(rec["metadata"])}
        return Row(key, (str(rec["action"]), "", change, "", v.when(rec["timestamp"]), str(rec["reason"] or "")),
                   parent=parent, raw=raw, markdown=md, problem=problem)


class ActiveAgents(TableSpec):
    id = "active-agents"
    title = "Active agents"
    group = "Agents"
    table = "active_agents"
    columns = ("Name", "Type", "Status", "Session", "Namespace", "Updated")
    select = ("id", "type", "name", "status", "session_id", "memory_namespace", "identity_id", "created_at",
              "updated_at", "metadata")
    order = "updated_at DESC, id"

    def enrich(self, recs: list[dict]) -> dict:
        return {"sessions": existing(self.store, "sessions", "id", [r["session_id"] for r in recs]),
                "identities": existing(self.store, "agent_identities", "agent_id", [r["identity_id"] for r in recs]),
                "namespaces": existing(self.store, "memory", "namespace", [r["memory_namespace"] for r in recs])}

    def build(self, rec: dict, extra: dict) -> Row:
        links = []
        if rec["session_id"] in extra["sessions"]:
            links.append(Link("row", ("sessions", str(rec["session_id"])), "session"))
        if rec["identity_id"] in extra["identities"]:
            links.append(Link("row", ("agents", str(rec["identity_id"])), "identity"))
        if rec["memory_namespace"] in extra["namespaces"]:
            links.append(Link("row", ("memory", ns_key(str(rec["memory_namespace"]))), "memory"))
        meta, problem = v.parse_json(rec["metadata"])
        problem = f"metadata {problem}" if problem else None
        report(self.store, self.table, str(rec["id"]), problem)
        raw = {**rec, "metadata": v.shown_json(rec["metadata"])}
        return Row(str(rec["id"]), (str(rec["name"]), str(rec["type"]), str(rec["status"]),
                                    str(rec["session_id"] or ""), str(rec["memory_namespace"] or ""),
                                    v.when(rec["updated_at"])), raw=raw, links=tuple(links), problem=problem,
                   markdown=v.json_block(meta) if meta is not None else None)


class ResourceMetrics(TableSpec):
    id = "resource-metrics"
    title = "Resource metrics"
    group = "Agents"
    table = "agent_resource_metrics"
    key = "agent_id"
    columns = ("Agent", "Phase", "Files r/w/m", "API calls", "Subtasks", "Tokens", "Last activity",
               "Last deliverable", "Paused")
    select = ("agent_id", "files_read", "files_written", "files_modified", "api_calls_count", "subtasks_spawned",
              "tokens_consumed", "started_at", "last_deliverable_at", "last_activity_at", "phase", "paused_at",
              "pause_reason", "updated_at")
    order = "last_activity_at DESC, agent_id"

    def enrich(self, recs: list[dict]) -> dict:
        ids = [r["agent_id"] for r in recs]
        events: dict[str, list] = {}
        if self.store.has("resource_exhaustion_events"):
            sql = ("SELECT * FROM (SELECT id, agent_id, phase, action_taken, triggered_by, thresholds, created_at, "
                   "row_number() OVER (PARTITION BY agent_id ORDER BY created_at DESC, id) AS rn "
                   "FROM resource_exhaustion_events WHERE agent_id IN ({ids})) WHERE rn <= 50 ORDER BY created_at")
            for r in in_batches(self.db, sql, ids):
                events.setdefault(r["agent_id"], []).append(r)
        deliverables: dict[str, list] = {}
        if self.store.has("agent_deliverable_checkpoints"):
            sql = ("SELECT * FROM (SELECT id, agent_id, type, description, created_at, row_number() OVER "
                   "(PARTITION BY agent_id ORDER BY created_at DESC, id) AS rn FROM agent_deliverable_checkpoints "
                   "WHERE agent_id IN ({ids})) WHERE rn <= 20 ORDER BY created_at")
            for r in in_batches(self.db, sql, ids):
                deliverables.setdefault(r["agent_id"], []).append(r)
        return {"events": events, "deliverables": deliverables,
                "identities": existing(self.store, "agent_identities", "agent_id", ids)}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["agent_id"])
        phase = rec["phase"]
        problem = problems_of(None if phase is None or phase in PHASES else f"phase {phase!r} is not one of "
                              + ", ".join(PHASES), v.time_problem("last_activity_at", rec["last_activity_at"]))
        report(self.store, self.table, key, problem)
        events = extra["events"].get(rec["agent_id"], [])
        md = [f"### Agent {key} · phase **{phase or 'normal'}**",
              f"files read {rec['files_read']}, written {rec['files_written']}, modified {rec['files_modified']} · "
              f"API calls {rec['api_calls_count']} · subtasks {rec['subtasks_spawned']} · tokens "
              f"{rec['tokens_consumed']}",
              f"started {v.when(rec['started_at'])} · last activity {v.when(rec['last_activity_at'])} · "
              f"last deliverable {v.when(rec['last_deliverable_at']) or 'never'}"]
        if rec["paused_at"] is not None:
            md.append(f"**Paused** {v.when(rec['paused_at'])}: {rec['pause_reason'] or ''}")
        md.append("**Exhaustion events** (what changed the phase)")
        md.append(bullet_list(_event_line(e) for e in events))
        delivered = extra["deliverables"].get(rec["agent_id"], [])
        if delivered:
            md += ["**Deliverables** (each resets the time without one)", bullet_list(
                f"{v.when(d['created_at'])} · {d['type']}: {v.short(d['description'], 120)}" for d in delivered)]
        links = [Link("row", ("agents", key), "identity")] if rec["agent_id"] in extra["identities"] else []
        links += [Link("row", ("exhaustion-events", str(e["id"])), f"{e['phase']} ({e['action_taken']})")
                  for e in events]
        return Row(key, (key, str(phase or "normal"),
                         f"{rec['files_read']}/{rec['files_written']}/{rec['files_modified']}",
                         rec["api_calls_count"], rec["subtasks_spawned"], rec["tokens_consumed"],
                         v.when(rec["last_activity_at"]), v.when(rec["last_deliverable_at"]),
                         v.when(rec["paused_at"])), raw=rec, markdown="\n\n".join(md), links=tuple(links),
                   problem=problem, flag="" if phase in (None, "normal") else str(phase))


def _event_line(e: dict) -> str:
    thresholds, _ = v.parse_json(e["thresholds"])
    limit = thresholds.get(e["triggered_by"]) if isinstance(thresholds, dict) else None
    return (f"{v.when(e['created_at'])} → **{e['phase']}**, {e['action_taken']} (triggered by {e['triggered_by']}"
            + (f", limit {limit}" if limit is not None else "") + ")")


def _metrics_link(rec: dict, extra: dict) -> tuple[Link, ...]:
    if rec["agent_id"] in extra["metrics"]:
        return (Link("row", ("resource-metrics", str(rec["agent_id"])), "agent's metrics"),)
    return ()


class ExhaustionEvents(TableSpec):
    id = "exhaustion-events"
    title = "Resource exhaustion events"
    group = "Agents"
    table = "resource_exhaustion_events"
    columns = ("When", "Agent", "Agent type", "Phase", "Action", "Triggered by")
    select = ("id", "agent_id", "agent_type", "phase", "action_taken", "metrics", "thresholds", "triggered_by",
              "created_at")

    def enrich(self, recs: list[dict]) -> dict:
        return {"metrics": existing(self.store, "agent_resource_metrics", "agent_id", [r["agent_id"] for r in recs])}

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["id"])
        metrics, m_problem = v.parse_json(rec["metrics"])
        thresholds, t_problem = v.parse_json(rec["thresholds"])
        problem = problems_of(f"metrics {m_problem}" if m_problem else None,
                              f"thresholds {t_problem}" if t_problem else None)
        report(self.store, self.table, key, problem)
        md = [_event_line(rec)]
        if isinstance(thresholds, dict):
            md += ["**Thresholds**", "\n".join(f"- {k}: {val}" + (" ← triggered" if k == rec["triggered_by"] else "")
                                               for k, val in thresholds.items())]
        if metrics is not None:
            md += ["**Metrics at the time**", v.json_block(metrics)]
        raw = {**rec, "metrics": v.shown_json(rec["metrics"]), "thresholds": v.shown_json(rec["thresholds"])}
        return Row(key, (v.when(rec["created_at"]), str(rec["agent_id"]), str(rec["agent_type"]), str(rec["phase"]),
                         str(rec["action_taken"]), str(rec["triggered_by"])), raw=raw, markdown="\n\n".join(md),
                   links=_metrics_link(rec, extra),
                   problem=problem, flag=str(rec["action_taken"]) if rec["action_taken"] in ("paused", "terminated")
                   else "")


class Deliverables(TableSpec):
    id = "deliverables"
    title = "Deliverable checkpoints"
    group = "Agents"
    table = "agent_deliverable_checkpoints"
    columns = ("When", "Agent", "Type", "Description", "Artifacts")
    select = ("id", "agent_id", "type", "description", "artifacts", "created_at")

    def enrich(self, recs: list[dict]) -> dict:
        return {"metrics": existing(self.store, "agent_resource_metrics", "agent_id", [r["agent_id"] for r in recs])}

    def build(self, rec: dict, extra: dict) -> Row:
        artifacts, problem = v.parse_json(rec["artifacts"])
        problem = f"artifacts {problem}" if problem else None
        report(self.store, self.table, str(rec["id"]), problem)
        listed = artifacts if isinstance(artifacts, list) else []
        return Row(str(rec["id"]), (v.when(rec["created_at"]), str(rec["agent_id"]), str(rec["type"]),
                                    v.short(rec["description"], 120), len(listed)),
                   raw={**rec, "artifacts": v.shown_json(rec["artifacts"])}, problem=problem,
                   markdown=bullet_list(f"`{a}`" for a in listed) if listed else None,
                   links=_metrics_link(rec, extra))


class Plugins(TableSpec):
    id = "plugins"
    title = "Plugins"
    group = "Setup"
    table = "plugins"
    key = "name"
    columns = ("Plugin", "Version", "Enabled", "Installed", "Config")
    select = ("name", "version", "enabled", "config", "installed_at")
    order = "name"

    def build(self, rec: dict, extra: dict) -> Row:
        key = str(rec["name"])
        config, problem = v.parse_json(rec["config"])
        problem = problems_of(f"config {problem}" if problem else None,
                              None if rec["enabled"] in (0, 1, None) else f"enabled is {rec['enabled']!r}, not 0 or 1")
        report(self.store, self.table, key, problem)
        raw = {**rec, "config": v.shown_json(rec["config"])}
        enabled = rec["enabled"] != 0  # NULL means the column default, 1
        return Row(key, (key, str(rec["version"]), enabled, v.when(rec["installed_at"]),
                         v.short(raw["config"], 80)), raw=raw, problem=problem,
                   markdown=v.json_block(config) if config is not None else None)

    def editable(self, row: Row) -> tuple[EditableField, ...]:
        return (EditableField("enabled", "Enabled", "bool", default=True,  # NULL: the column default, 1
                              help="AgentStack reads this when it loads plugins (its next start)"),)

    def update(self, row: Row, changes: dict, *, force: bool = False) -> Row:
        return set_plugin_enabled(self, row, changes, force=force)


def is_default_admin(rec: dict) -> bool:
    return (rec.get("username"), rec.get("email")) == DEFAULT_ADMIN


DEFAULT_ADMIN_WARNING = (
    "the default admin account that AgentStack's web server creates when it finds no users: its password is "
    "ADMIN_PASSWORD or a built-in default, and the server logs it in plain text. Change the password or "
    "remove the account.")


class Users(TableSpec):
    """Web-server accounts. ``password_hash`` is never read (not even to mask it)."""

    id = "users"
    title = "Users"
    group = "Setup"
    table = "users"
    columns = ("Username", "Email", "Role", "Created", "Last login", "Refresh tokens")
    select = ("id", "email", "username", "role", "created_at", "updated_at", "last_login_at")
    order = "created_at, id"

    def enrich(self, recs: list[dict]) -> dict:
        if not self.store.has("refresh_tokens"):
            return {}
        return {r["user_id"]: r["n"] for r in in_batches(
            self.db, "SELECT user_id, count(*) AS n FROM refresh_tokens WHERE coalesce(revoked, 0) = 0 "
                     "AND user_id IN ({ids}) GROUP BY user_id", [r["id"] for r in recs])}

    def build(self, rec: dict, tokens: dict) -> Row:
        default = is_default_admin(rec)
        same = rec["updated_at"] == rec["created_at"]
        md = [f"### {rec['username']}", f"{rec['email']} · role {rec['role']} · created {v.iso(rec['created_at'])}"
              f" · last login {v.iso(rec['last_login_at']) or 'never'}", "password hash: not shown"]
        if default:
            md.append("**Security:** " + DEFAULT_ADMIN_WARNING
                      + (" This account was never updated since it was created." if same else ""))
        return Row(str(rec["id"]), (str(rec["username"]), str(rec["email"]), str(rec["role"]), v.iso(rec["created_at"]),
                                    v.iso(rec["last_login_at"]), tokens.get(rec["id"], 0)),
                   raw=dict(rec), markdown="\n\n".join(md), flag="security" if default else "")


SPECS = (Identities, ActiveAgents, ResourceMetrics, ExhaustionEvents, Deliverables, Plugins, Users)
