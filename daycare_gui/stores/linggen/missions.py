"""Missions in both layouts, with the ones Linggen would lose or ignore flagged.

Per-project missions are ``projects/<enc>/missions/<created_at>.json``: the file is named by the *second*
the mission was set, so a second mission set within the same second overwrites the first (and setting a
mission rewrites the previous active one in place). The active mission is the newest file (by name,
descending) whose ``active`` is true; any other file still marked active is ignored by Linggen. A legacy
``mission.json`` is moved into ``missions/`` on the next read, and deleted even when it cannot be parsed
or when a mission of the same second already exists there: both losses are flagged before they happen.

Flat missions are ``missions/<id>/mission.md`` (YAML frontmatter + prompt) with ``runs.jsonl`` beside it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.linggen.byte_order_mark import (
    JSONL_LINE_UNREAD,
    MISSION_UNREAD,
    REMOVE_BOM,
    file_starts_with_bom,
)
from daycare_gui.stores.linggen.inventory import FLAT, PER_PROJECT, Inventory, Project
from daycare_gui.stores.linggen.mission_settings import legacy_problem
from daycare_gui.stores.linggen.readers import (
    first_line,
    list_dirs,
    list_files,
    plain,
    read_json,
    read_text,
    seconds_to_ms,
    text_of,
)
from daycare_gui.stores.problems import ProblemLog


@dataclass
class Mission:
    key: str
    path: Path
    layout: str
    project: str  # the project path or label it belongs to
    data: dict
    text: str
    created_ms: int | None
    state: str  # "active", "inactive", "enabled", "disabled", "unreadable", "legacy"
    flags: list[str] = field(default_factory=list)
    problem: str | None = None
    runs: Counter = field(default_factory=Counter)  # flat missions: run statuses from runs.jsonl
    last_run_ms: int | None = None  # flat missions: the latest triggered_at in runs.jsonl

    @property
    def title(self) -> str:
        return text_of(self.data.get("name")) or first_line(self.text) or self.path.parent.name


def scan_missions(inv: Inventory, problems: ProblemLog) -> list[Mission]:
    out: list[Mission] = []
    for project in inv.projects:
        out.extend(_project_missions(project, problems, inv))
    out.extend(_flat_missions(inv, problems))
    return out


def _project_missions(project: Project, problems: ProblemLog, inv: Inventory) -> list[Mission]:
    label = project.path or project.folder.name
    missions: list[Mission] = []
    files = list_files(project.folder / "missions", problems, ".json")
    files.sort(key=lambda p: p.name, reverse=True)  # as Linggen scans: by name, not by number
    for path in files:
        read = read_json(path, problems, what="Linggen skips this mission", bad=inv.bad_files)
        data = read.value
        if data is None or read.unread:  # behind a byte-order mark: shown as it is, but Linggen skips it
            problem = (f"the file {read.unread}: Linggen skips this mission" if read.unread
                       else "the mission file could not be read")
            shown = data or {}
            missions.append(Mission(f"{project.folder.name}/{path.name}", path, PER_PROJECT, label, shown,
                                    text_of(shown.get("text")), seconds_to_ms(shown.get("created_at")),
                                    "unreadable", problem=problem))
            continue
        created = data.get("created_at")
        mission = Mission(f"{project.folder.name}/{path.name}", path, PER_PROJECT, label, data,
                          text_of(data.get("text")), seconds_to_ms(created),
                          "inactive" if data.get("active") is not True else "active")
        if str(created) != path.stem:
            mission.flags.append("name ≠ created_at")
            problems.add(path, f"file name does not match created_at {created!r}: setting another mission "
                               "deactivates a different file, so this one can stay active", severity="warning")
        missions.append(mission)
    _mark_active(missions, problems)
    _mark_same_second(missions, problems)
    if "collision" in project.flags:
        for m in missions:
            m.flags.append("shared folder")
    legacy = project.folder / "mission.json"
    if legacy.exists():
        missions.append(_legacy_mission(project, legacy, label, missions, problems, inv))
    return missions


def _mark_active(missions: list[Mission], problems: ProblemLog) -> None:
    seen_active = False
    for m in missions:  # newest file name first, as Linggen scans them
        if m.state != "active":
            continue
        if seen_active:
            m.state = "inactive"
            m.flags.append("also marked active")
            problems.add(m.path, "marked active, but a newer mission is active: Linggen ignores this one",
                         severity="warning")
        seen_active = True


def _mark_same_second(missions: list[Mission], problems: ProblemLog) -> None:
    by_second = Counter(m.created_ms for m in missions if m.created_ms is not None)
    for m in missions:
        if m.created_ms is not None and by_second[m.created_ms] > 1:
            m.flags.append("same second")
            problems.add(m.path, "another mission was created in the same second: Linggen names mission files "
                                 "by that second, so one of them overwrites the other", severity="warning")


def _legacy_mission(project: Project, path: Path, label: str, missions: list[Mission], problems: ProblemLog,
                    inv: Inventory) -> Mission:
    key = f"{project.folder.name}/mission.json"
    read = read_json(path, problems, what="Linggen deletes it unread on its next mission read", bad=inv.bad_files)
    data = read.value
    if data is None or read.unread:  # behind a byte-order mark: what is lost is shown
        why = "starts with a byte-order mark, which Linggen cannot parse" if read.unread else "cannot be parsed"
        return Mission(key, path, PER_PROJECT, label, data or {}, text_of((data or {}).get("text")),
                       seconds_to_ms((data or {}).get("created_at")), "legacy", ["lost: deleted unread"],
                       f"legacy mission.json {why}; Linggen deletes it when it next reads missions")
    mission = Mission(key, path, PER_PROJECT, label, data, text_of(data.get("text")),
                      seconds_to_ms(data.get("created_at")), "legacy")
    clash = next((m for m in missions if m.path.stem == str(data.get("created_at"))), None)
    if clash is not None:
        mission.flags.append("lost: same second")
        mission.problem = (f"a mission of the same second ({clash.path.name}) exists: Linggen deletes this "
                           "legacy mission when it migrates it")
        problems.add(path, mission.problem)
    else:
        mission.flags.append("legacy: moved on next read")
    return mission


def _flat_missions(inv: Inventory, problems: ProblemLog) -> list[Mission]:
    out: list[Mission] = []
    for folder in list_dirs(inv.home.missions, problems):
        md = folder / "mission.md"
        key = f"{FLAT}/{folder.name}"
        if not md.exists():
            problems.add(folder, "no mission.md: Linggen skips this mission folder", severity="warning")
            out.append(Mission(key, md, FLAT, "", {}, "", None, "unreadable", problem="no mission.md"))
            continue
        text = read_text(md, problems) or ""
        doc = parse_markdown(text, md)
        problems.extend(doc.problems)
        bom = file_starts_with_bom(md)
        if bom:  # read here (the mark is dropped), not by Linggen: its settings are shown, and why they are lost
            problems.add(md, f"{MISSION_UNREAD}; {REMOVE_BOM}", line=1)
        if doc.problems or bom:
            inv.bad_files["yaml"] += 1
        meta = plain(doc.meta)  # aliases may make it refer to itself
        if doc.problems:
            problem, state = "frontmatter could not be read: Linggen skips this mission", "unreadable"
        elif bom:
            problem, state = f"mission.md {MISSION_UNREAD}", "disabled"  # as Linggen runs it: not at all
        else:
            problem, state = None, "enabled" if meta.get("enabled") is True else "disabled"
        legacy, still_runs = (legacy_problem(meta) if problem is None else None) or (None, True)
        if legacy:  # a problem: Linggen 1.7 gives the mission no grants, or does not load it at all
            problems.add(md, legacy, severity="warning" if still_runs else "error")
            problem = legacy
            if not still_runs:
                state = "disabled"  # as Linggen 1.7 runs it: not at all
        project = text_of(meta.get("project") or meta.get("cwd"))
        mission = Mission(key, md, FLAT, project, meta, doc.body.strip(), seconds_to_ms(meta.get("created_at")),
                          state, problem=problem)
        if legacy:
            mission.flags.append("legacy: no permission grants" if still_runs else "skipped by Linggen 1.7")
        runs = folder / "runs.jsonl"
        first_unread = run_line_unread(runs)
        if first_unread:
            problems.add(runs, f"{first_unread}; {REMOVE_BOM}", line=1)
        for n, run in iter_jsonl(runs, problems):
            if n == 1 and first_unread:
                continue  # Linggen's history lacks this run
            status = text_of(run.get("status")) or "unknown"
            mission.runs["skipped" if run.get("skipped") is True else status] += 1
            at = seconds_to_ms(run.get("triggered_at"))
            if at is not None and (mission.last_run_ms is None or at > mission.last_run_ms):
                mission.last_run_ms = at
        out.append(mission)
    return out


def run_line_unread(runs_jsonl: Path) -> str | None:
    """Why Linggen skips the first line of a mission's runs.jsonl (a byte-order mark), or None."""
    return JSONL_LINE_UNREAD if file_starts_with_bom(runs_jsonl) else None
