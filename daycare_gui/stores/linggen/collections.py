"""Linggen's own lists for the shared list pane: runs (a tree), missions, mission runs, agent overrides,
plans, credentials (masked) and tool permissions (editable: see :mod:`.permissions`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from daycare_gui.stores.api import Collections, EditableField
from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.common.secrets import MASK, mask_secrets
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.linggen.byte_order_mark import PLAN_TITLE_UNSEEN, file_starts_with_bom
from daycare_gui.stores.linggen.data_files import DATA_FILES, DataFile, data_file_rows
from daycare_gui.stores.linggen.inventory import FLAT, Inventory, Run
from daycare_gui.stores.linggen.mission_runs import (
    columns_for,
    run_flag,
    run_format,
    run_markdown,
    run_values,
)
from daycare_gui.stores.linggen.mission_settings import settings_in_words
from daycare_gui.stores.linggen.missions import Mission, run_line_unread
from daycare_gui.stores.linggen.permissions import PermissionFiles
from daycare_gui.stores.linggen.plans import parse_plan, plan_markdown
from daycare_gui.stores.linggen.readers import (
    duration_text,
    list_files,
    local_time,
    plain,
    read_json,
    read_text,
    seconds_to_ms,
    text_of,
)
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import Collection, DocRef, Link, Row, SessionRef

RUNS = Collection("runs", "Runs", ("Run", "Agent", "Kind", "Status", "Started", "Duration", "Session", "Detail",
                                   "Project"), tree=True, group="Activity")
MISSIONS = Collection("missions", "Missions", ("Mission", "State", "Project", "Created", "Schedule",
                                               "Agents / runs", "Layout"), group="Activity")
# Its columns are those of the run formats present (see collections()); these are Linggen 1.7's.
MISSION_RUNS = Collection("mission_runs", "Mission runs", columns_for(()), group="Activity")
OVERRIDES = Collection("agent_overrides", "Agent overrides",
                       ("Agent", "Project", "Idle prompt", "Idle interval"), group="Configuration")
PLANS = Collection("plans", "Plans", ("Plan", "Status", "Done", "In progress", "Pending", "Skipped", "File"),
                   group="Activity")
CREDENTIALS = Collection("credentials", "Credentials", ("Model", "Fields"), group="Configuration")
PERMISSIONS = Collection("permissions", "Tool permissions", ("Project", "Allowed tools", "File"),
                         group="Configuration")


class LinggenCollections(Collections):
    def __init__(self, inv: Inventory, missions: list[Mission], plans: list[Path], problems: ProblemLog,
                 permissions: PermissionFiles, running: bool, sessions: dict[str, SessionRef],
                 data_files: list[DataFile] | None = None) -> None:
        self.inv, self.missions, self.plan_paths, self.problems = inv, missions, plans, problems
        self.data_files = list(data_files or ())  # the activity log and memory backups (Linggen 1.7)
        self.permissions = permissions
        self.running = running
        self.session_refs = sessions  # session id → where it lives (for links)
        self._by_folder: dict[Path, list] | None = None
        self._rows: dict[str, list[Row]] = {}
        self._run_lines: list[tuple[Mission, int, dict, str | None]] | None = None

    def collections(self) -> list[Collection]:
        mission_runs = replace(MISSION_RUNS, columns=self._mission_run_columns())
        data = [DATA_FILES] if self.data_files else []
        return [RUNS, MISSIONS, mission_runs, *data, PLANS, OVERRIDES, PERMISSIONS, CREDENTIALS]

    def size(self, collection_id: str) -> int:
        return len(self._all(collection_id))

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        return self._all(collection_id)[max(0, offset): max(0, offset) + max(0, limit)]

    def row(self, collection_id: str, key: str) -> Row | None:
        return next((r for r in self._all(collection_id) if r.key == key), None)

    def editable(self, collection_id: str, row: Row) -> tuple[EditableField, ...]:
        if collection_id == PERMISSIONS.id and row.problem is None:
            return (EditableField("tool_allows", "Allowed tools", "list",
                                  help="Tools Linggen runs in this project without asking (one per line)"),)
        return ()

    def update(self, collection_id: str, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        from daycare_gui.stores.api import WriteRefused

        if collection_id != PERMISSIONS.id:
            raise WriteRefused(f"{collection_id} cannot be edited")
        new = self.permissions.update(row, changes, force=force)
        self._rows.pop(PERMISSIONS.id, None)
        return new

    def count(self) -> int | None:
        return len(self.collections())

    # -- building ---------------------------------------------------------------------------------------

    def _all(self, cid: str) -> list[Row]:
        if cid == PERMISSIONS.id:  # re-read every time: the file lives in the user's repository
            return self.permissions.rows()
        if cid not in self._rows:
            build = {RUNS.id: self._runs, MISSIONS.id: self._missions, MISSION_RUNS.id: self._mission_runs,
                     OVERRIDES.id: self._overrides, PLANS.id: self._plans, CREDENTIALS.id: self._credentials,
                     DATA_FILES.id: lambda: data_file_rows(self.data_files)}
            self._rows[cid] = build[cid]() if cid in build else []
        return self._rows[cid]

    def _session_link(self, session_id: str, folder: Path | None = None) -> tuple[Link, ...]:
        """A link to the session of that id, in ``folder`` when it holds one (a project stored in two
        folders may hold one session id in both: a run opens the copy beside it)."""
        ref = next((s.ref for s in self._folder_sessions().get(folder, ()) if s.id == session_id), None) \
            if folder is not None else None
        ref = ref or self.session_refs.get(session_id)
        return (Link("session", ref, "Open the session"),) if ref else ()

    def _folder_sessions(self) -> dict[Path, list]:
        if self._by_folder is None:
            self._by_folder = {p.folder: p.sessions for p in self.inv.projects}
        return self._by_folder

    def _runs(self) -> list[Row]:
        runs = sorted(self.inv.runs, key=lambda r: (_num(r.data.get("started_at")), r.key))
        keys = {r.key for r in runs}
        return [self._run_row(r, keys) for r in runs]

    def _run_row(self, r: Run, keys: set[str]) -> Row:
        d = r.data
        started, ended = d.get("started_at"), d.get("ended_at")
        status = r.status
        if _is_num(started) and _is_num(ended):
            duration = duration_text(ended - started)
        elif status == "running":
            duration = "running" if self.running else "never ended"
        else:
            duration = ""
        parent_id = text_of(d.get("parent_run_id"))
        parent = f"{r.project.folder.name}/{parent_id}" if parent_id else None
        flag = ""
        if parent and parent not in keys:
            flag, parent = "parent missing", None
        if status == "running" and not self.running:
            flag = "stale: Linggen is not running"
        elif status and status not in ("running", "completed", "failed", "cancelled"):
            flag = f"unknown status {status!r}"
        session = text_of(d.get("session_id"))
        return Row(r.key, (text_of(d.get("run_id")) or r.path.stem, text_of(d.get("agent_id")),
                           text_of(d.get("agent_kind")), status, local_time(seconds_to_ms(started)), duration,
                           session, text_of(d.get("detail")), text_of(d.get("repo_path")) or r.project.path),
                   parent=parent, raw=mask_secrets(d) or None,
                   links=self._session_link(session, r.project.folder), flag=flag, problem=r.problem)

    def _missions(self) -> list[Row]:
        out = []
        for m in self.missions:
            if m.layout == FLAT:
                extra = ", ".join(f"{n} {s}" for s, n in sorted(m.runs.items())) or "no runs"
                schedule = text_of(m.data.get("schedule"))
                doc = DocRef(f"mission:{m.path.parent.name}", m.title, m.path, group="Missions")
                links = (Link("doc", doc, "Edit mission.md"),)
                detail = "\n".join(settings_in_words(m.data)) + (f"\n\n{m.text}" if m.text else "")
            else:
                agents = m.data.get("agents") if isinstance(m.data.get("agents"), list) else []
                extra, schedule, links = count(len(agents), "agent"), "", ()
                detail = _mission_detail(m.text, agents)
            state = "● active" if m.state == "active" else m.state
            values = (m.title, state, m.project, local_time(m.created_ms), schedule, extra, m.layout)
            out.append(Row(m.key, values,
                           raw=mask_secrets(m.data) or None, markdown=detail, links=links,
                           flag=", ".join(m.flags), problem=m.problem))
        return out

    def _mission_run_lines(self) -> list[tuple[Mission, int, dict, str | None]]:
        """(mission, line number, run, why Linggen skips the line) of every flat mission's runs.jsonl."""
        if self._run_lines is None:
            self._run_lines = []
            for m in self.missions:
                if m.layout != FLAT:
                    continue
                runs = m.path.parent / "runs.jsonl"
                first_unread = run_line_unread(runs)  # shown as it is, though Linggen skips it
                for n, run in iter_jsonl(runs, None):
                    self._run_lines.append((m, n, plain(run), first_unread if n == 1 else None))
        return self._run_lines

    def _mission_run_columns(self) -> tuple[str, ...]:
        """The columns of the run formats present: before 1.7 a run had an exit code, since then none."""
        return columns_for({run_format(run) for _m, _n, run, _u in self._mission_run_lines()})

    def _mission_runs(self) -> list[Row]:
        out = []
        columns = self._mission_run_columns()
        for m, n, run, unread in self._mission_run_lines():
            session = text_of(run.get("session_id"))
            out.append(Row(f"{m.key}#{n}", run_values(columns, m.title, run),
                           raw=mask_secrets(run), markdown=run_markdown(run, self.running),
                           links=(Link("row", ("missions", m.key), "Mission"), *self._session_link(session)),
                           flag=run_flag(run, self.running), problem=f"line 1 {unread}" if unread else None))
        return out

    def _overrides(self) -> list[Row]:
        out = []
        for o in self.inv.overrides:
            d = o.data
            interval = d.get("idle_interval_secs")
            out.append(Row(f"{o.project.folder.name}/{o.path.stem}",
                           (text_of(d.get("agent_id")) or o.path.stem, o.project.path or o.project.folder.name,
                            text_of(d.get("idle_prompt")),
                            duration_text(interval) if _is_num(interval) else ""),
                           raw=d or None, markdown=text_of(d.get("idle_prompt")) or None, problem=o.problem))
        return out

    def _plans(self) -> list[Row]:
        out = []
        for path in self.plan_paths:
            text = read_text(path, ProblemLog()) or ""  # problems were listed when the store opened
            doc = parse_plan(text, path.stem)
            tally = doc.tally()
            ref = DocRef(f"plan:{path.name}", doc.title, path, group="Plans", editable=False,
                         readonly_reason="Linggen rewrites plan files while an agent works on them")
            flag = f"unknown marker on line {doc.unknown_markers[0]}" if doc.unknown_markers else ""
            if file_starts_with_bom(path):
                flag = ", ".join(f for f in ("title unseen by Linggen (byte-order mark)", flag) if f)
            values = (doc.title, doc.status, tally["done"], tally["in progress"], tally["pending"],
                      tally["skipped"], path.name)
            out.append(Row(path.name, values,
                           raw={"path": str(path), "status": doc.status, "origin": doc.origin},
                           markdown=plan_markdown(text, path.stem), links=(Link("doc", ref, "Open the file"),),
                           flag=flag))
        return out

    def _credentials(self) -> list[Row]:
        read = read_json(self.inv.home.credentials, ProblemLog())  # problems were listed at open
        data = read.value  # behind a byte-order mark: listed, each with why Linggen has none of them
        if not isinstance(data, dict):
            return []
        problem = (f"credentials.json {read.unread}: Linggen treats it as empty (no key is used) and overwrites "
                   "it on its next save") if read.unread else None
        out = []
        for model, entry in data.items():
            masked = mask_secrets(entry, all_strings=True) if isinstance(entry, dict) else MASK
            fields = ", ".join(f"{k}: {v}" for k, v in masked.items()) if isinstance(masked, dict) else masked
            out.append(Row(str(model), (str(model), fields), raw={str(model): masked}, problem=problem))
        return out


def _mission_detail(text: str, agents: list) -> str | None:
    """The mission text, then what each agent does while idle (its prompt and interval)."""
    lines = []
    for a in agents:
        if isinstance(a, dict):
            interval = a.get("idle_interval_secs")
            every = f" every {duration_text(interval)}" if _is_num(interval) else ""
            prompt = text_of(a.get("idle_prompt"))
            lines.append(f"- **{text_of(a.get('id')) or '?'}**{every}" + (f": {prompt}" if prompt else ""))
    if lines:
        text = (text + "\n\n" if text else "") + "**While idle**\n\n" + "\n".join(lines)
    return text or None


def _is_num(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _num(value: Any) -> float:
    return value if _is_num(value) else 0


def plan_files(root: Path, problems: ProblemLog) -> list[Path]:
    """The plan files; one starting with a byte-order mark is a warning (Linggen still reads its items)."""
    paths = list_files(root, problems, ".md")
    for path in paths:
        if file_starts_with_bom(path):
            problems.add(path, PLAN_TITLE_UNSEEN, line=1, severity="warning")
    return paths
