"""Projects → project tasks → specifications, as one tree."""

from __future__ import annotations

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.spec import bullet_list, existing, in_batches, problems_of, report
from daycare_gui.stores.agentstack.tree import Level, LevelTree
from daycare_gui.stores.records import Link, Row

_P = "printf('%020d', coalesce(p.created_at, 0)) || p.id"
_T = "printf('%020d', coalesce(t.created_at, 0)) || t.id"
_S = "printf('%020d', coalesce(s.created_at, 0)) || s.id"

FIELDS = {
    "p:": ("projects", ("id", "name", "description", "path", "status", "created_at", "updated_at", "metadata")),
    "t:": ("project_tasks", ("id", "project_id", "session_id", "title", "description", "phase", "priority",
                             "assigned_agents", "created_at", "updated_at", "completed_at")),
    "s:": ("specifications", ("id", "project_task_id", "type", "title", "content", "version", "status",
                              "created_by", "reviewed_by", "created_at", "updated_at", "approved_at", "comments")),
}


class Projects(LevelTree):
    id = "projects"
    title = "Projects"
    group = "Projects"
    tables = ("projects",)
    columns = ("Name", "Status / phase", "Kind", "Updated", "Path / agents / author")

    def levels(self) -> list[Level]:
        found = [Level("p:", "projects p", "p.id", "NULL", _P)]
        if self.store.has("project_tasks"):
            found.append(Level("t:", "project_tasks t LEFT JOIN projects p ON p.id = t.project_id", "t.id", "p.id",
                               f"coalesce({_P}, '~') || '/' || {_T}", "p:"))
            if self.store.has("specifications"):
                found.append(Level(
                    "s:", "specifications s LEFT JOIN project_tasks t ON t.id = s.project_task_id "
                          "LEFT JOIN projects p ON p.id = t.project_id", "s.id", "t.id",
                    f"coalesce({_P}, '~') || '/' || coalesce({_T}, '~') || '/' || {_S}", "t:"))
        return found

    def fetch(self, prefix: str, ids: list) -> dict:
        table, cols = FIELDS[prefix]
        select = ", ".join(self.store.col(table, c) for c in cols)
        found = {r["id"]: r for r in in_batches(self.db, f"SELECT {select} FROM {table} WHERE id IN ({{ids}})", ids)}
        if prefix == "t:":
            sessions = existing(self.store, "sessions", "id", [r["session_id"] for r in found.values()])
            for r in found.values():
                r["_session"] = r["session_id"] in sessions
        return found

    def make(self, prefix: str, rec: dict, parent: str | None) -> Row:
        table = FIELDS[prefix][0]
        key = prefix + str(rec["id"])
        if prefix == "p:":
            meta, problem = v.parse_json(rec["metadata"])
            problem = f"metadata {problem}" if problem else None
            report(self.store, table, str(rec["id"]), problem)
            md = [f"### {rec['name']}", f"`{rec['path']}` · {rec['status']} · updated {v.when(rec['updated_at'])}"]
            if rec["description"]:
                md.append(str(rec["description"]))
            if meta is not None:
                md += ["**Metadata**", v.json_block(meta)]
            return Row(key, (str(rec["name"]), str(rec["status"]), "project", v.when(rec["updated_at"]),
                             str(rec["path"])), raw={**rec, "metadata": v.shown_json(rec["metadata"])},
                       markdown="\n\n".join(md), problem=problem)
        if prefix == "t:":
            agents, problem = v.parse_json(rec["assigned_agents"])
            problem = problems_of(f"assigned_agents {problem}" if problem else None,
                                  None if parent else f"project {rec['project_id']} does not exist")
            report(self.store, table, str(rec["id"]), problem)
            shown = ", ".join(map(str, agents)) if isinstance(agents, list) else ""
            md = [f"### {rec['title']}", f"{rec['phase']} · priority {rec['priority']} · updated "
                  f"{v.when(rec['updated_at'])}" + (f" · completed {v.when(rec['completed_at'])}"
                                                    if rec["completed_at"] is not None else "")]
            if rec["description"]:
                md.append(str(rec["description"]))
            if shown:
                md.append(f"**Assigned agents** {shown}")
            links = (Link("row", ("sessions", str(rec["session_id"])), "session"),) if rec.pop("_session") else ()
            return Row(key, (str(rec["title"]), str(rec["phase"]), f"task (priority {rec['priority']})",
                             v.when(rec["updated_at"]), shown), parent=parent, links=links,
                       raw={**rec, "assigned_agents": v.shown_json(rec["assigned_agents"])},
                       markdown="\n\n".join(md), problem=problem)
        comments, problem = v.parse_json(rec["comments"])
        problem = problems_of(f"comments {problem}" if problem else None,
                              None if parent else f"project task {rec['project_task_id']} does not exist",
                              v.text_problem("content", rec["content"]))
        report(self.store, table, str(rec["id"]), problem)
        md = [f"### {rec['title']} ({rec['type']}, v{rec['version']})",
              f"{rec['status']} · by {rec['created_by']}" + (f" · reviewed by {rec['reviewed_by']}"
                                                             if rec["reviewed_by"] else "")
              + (f" · approved {v.when(rec['approved_at'])}" if rec["approved_at"] is not None else ""),
              str(rec["content"] or "")]
        if isinstance(comments, list) and comments:
            md += ["**Comments**", bullet_list(v.short(c.get("content", c) if isinstance(c, dict) else c, 300)
                                               for c in comments)]
        return Row(key, (str(rec["title"]), str(rec["status"]), f"{rec['type']} spec v{rec['version']}",
                         v.when(rec["updated_at"]), str(rec["created_by"])), parent=parent,
                   raw={**rec, "comments": v.shown_json(rec["comments"])}, markdown="\n\n".join(md), problem=problem)


SPECS = (Projects,)
