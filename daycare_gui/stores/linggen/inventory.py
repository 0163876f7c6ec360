"""One pass over a Linggen home: projects, sessions, runs, overrides (missions in :mod:`.missions`).

Small files are parsed; each ``messages.jsonl`` is streamed once to count its messages and list its bad
lines (nothing of it is kept). Everything found broken becomes a problem with path and line; the rest
loads. Projects are named by the path inside ``project.json``: the folder name is a lossy encoding and is
never decoded.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.linggen.layout import HomePaths, encode_project_path
from daycare_gui.stores.linggen.readers import (
    JsonRead,
    list_dirs,
    list_files,
    load_yaml,
    read_json,
    seconds_to_ms,
    text_of,
)
from daycare_gui.stores.linggen.scanning import MessageStats, scan_messages
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import SessionRef

PER_PROJECT = "per-project"
FLAT = "flat"
RUN_STATUSES = ("running", "completed", "failed", "cancelled")


@dataclass
class Session:
    thread_id: str
    id: str
    folder: Path
    layout: str
    meta: dict
    title: str
    created_ms: int | None
    stats: MessageStats
    problem: str | None = None
    # The session's id within its thread when it differs from ``id``: a project stored in two folders
    # (or in a folder and the flat layout) may hold one id twice, e.g. after a folder was copied.
    key: str = ""

    @property
    def messages_path(self) -> Path:
        return self.folder / "messages.jsonl"

    @property
    def ref(self) -> SessionRef:
        return SessionRef(self.thread_id, self.key or self.id)


@dataclass
class Project:
    folder: Path
    info: dict | None
    path: str  # from project.json; "" when it has none
    name: str
    added_ms: int | None
    problem: str | None = None
    flags: list[str] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)
    flat_sessions: list[Session] = field(default_factory=list)  # flat-layout sessions naming this path
    # Two folders naming one path are one project: the others are listed with the first (see
    # _merge_same_path_folders), which holds them in ``other_folders``; each of them names it here.
    merged_into: Project | None = field(default=None, repr=False, compare=False)  # a cycle otherwise
    other_folders: list[Project] = field(default_factory=list)

    @property
    def thread_id(self) -> str:
        return f"{PER_PROJECT}:{self.folder.name}"

    @property
    def per_project_sessions(self) -> list[Session]:
        """This project's sessions in the per-project layout, from every folder that holds it."""
        return self.sessions + [s for other in self.other_folders for s in other.sessions]

    @property
    def all_sessions(self) -> list[Session]:
        return self.per_project_sessions + self.flat_sessions

    @property
    def folders(self) -> list[Path]:
        return [self.folder] + [other.folder for other in self.other_folders]

    @property
    def stored_in(self) -> str:
        """Said wherever the project is listed when more than one folder holds it ("" otherwise)."""
        if not self.other_folders:
            return ""
        names = [f.name for f in self.folders]
        read = encode_project_path(self.path)
        where = (f"Linggen reads sessions and runs only from {read}" if read in names
                 else f"Linggen reads neither (it looks in {read})")
        return f"stored in {len(names)} folders: {', '.join(names)}; {where}"

    @property
    def title(self) -> str:
        return self.name or self.path or f"{self.folder.name} (no project.json)"


@dataclass
class Run:
    key: str
    path: Path
    data: dict
    project: Project
    problem: str | None = None

    @property
    def status(self) -> str:
        return text_of(self.data.get("status"))


@dataclass
class Override:
    path: Path
    data: dict
    project: Project
    problem: str | None = None


@dataclass
class FlatThread:
    """Flat-layout sessions grouped by the project their session.yaml names (or none)."""

    project: str
    name: str
    sessions: list[Session] = field(default_factory=list)
    merged: bool = False  # listed with the per-project folder of the same path (see _merge_flat_sessions)

    @property
    def thread_id(self) -> str:
        return f"{FLAT}:{self.project}"

    @property
    def title(self) -> str:
        return self.name or self.project or "Sessions without a project"


@dataclass
class Inventory:
    home: HomePaths
    projects: list[Project] = field(default_factory=list)
    flat_threads: list[FlatThread] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    overrides: list[Override] = field(default_factory=list)
    bad_files: Counter = field(default_factory=Counter)  # "json" / "yaml" → files that did not parse

    def sessions(self):
        for project in self.projects:
            yield from project.sessions
        for thread in self.flat_threads:
            yield from thread.sessions

    def listed_projects(self) -> list[Project]:
        """The project folders as the user knows them, one per project: a folder naming the path of one
        listed before it is part of that one (its sessions are listed there)."""
        return [p for p in self.projects if p.merged_into is None]

    def project_count(self) -> int:
        """Projects as the user knows them, one per project: every project folder (two naming one path
        count once), and each path flat sessions name that has no folder. Sessions without a project are
        not a project."""
        return len(self.listed_projects()) + sum(1 for t in self.flat_threads if t.project and not t.merged)


def scan(home: HomePaths, problems: ProblemLog) -> Inventory:
    inv = Inventory(home)
    for folder in list_dirs(home.projects, problems):
        inv.projects.append(_scan_project(folder, problems, inv))
    _scan_flat_sessions(inv, problems)
    _flag_collisions(inv, problems)
    _merge_same_path_folders(inv)
    _merge_flat_sessions(inv)
    return inv


def _scan_project(folder: Path, problems: ProblemLog, inv: Inventory) -> Project:
    info_path = folder / "project.json"
    read = read_json(info_path, problems, what="Linggen skips this project", bad=inv.bad_files) \
        if info_path.exists() else None
    info = read.value if read is not None else None  # behind a byte-order mark: shown, though Linggen skips it
    path = text_of(info.get("path")) if info else ""
    project = Project(folder, info, path, text_of(info.get("name")) if info else "",
                      seconds_to_ms(info.get("added_at")) if info else None)
    if read is None:
        project.problem = "no project.json: Linggen does not list this folder as a project"
        problems.add(folder, project.problem, severity="warning")
    elif read.unread:
        project.problem = f"project.json {read.unread}: Linggen skips this project"
    elif info is None:
        project.problem = "project.json could not be read: Linggen skips this project"
    elif not path:
        project.problem = "project.json has no path"
        problems.add(info_path, project.problem)
    for sess_dir in list_dirs(folder / "sessions", problems):
        project.sessions.append(_scan_session(sess_dir, project.thread_id, PER_PROJECT, problems, inv))
    for run_path in list_files(folder / "runs", problems, ".json"):
        read = read_json(run_path, problems, what="Linggen skips this run", bad=inv.bad_files)
        data = read.value
        key = f"{folder.name}/{text_of((data or {}).get('run_id')) or run_path.stem}"
        inv.runs.append(Run(key, run_path, data or {}, project,
                            _unread(read, "the run file could not be read", "Linggen skips this run")))
    for path_ in list_files(folder / "agent_overrides", problems, ".json"):
        read = read_json(path_, problems, what="Linggen does not apply this override", bad=inv.bad_files)
        data = read.value
        problem = _unread(read, "the override could not be read", "Linggen does not apply this override")
        if problem is None and text_of(data.get("agent_id")) not in ("", path_.stem):
            problem = f"agent_id {data.get('agent_id')!r} differs from the file name {path_.stem!r}"
            problems.add(path_, problem, severity="warning")
        inv.overrides.append(Override(path_, data or {}, project, problem))
    return project


def _unread(read: JsonRead, broken: str, consequence: str) -> str | None:
    """Why Linggen cannot read a JSON file (None: it can): ``broken`` when nothing parses here either."""
    if read.unread:
        return f"the file {read.unread}: {consequence}"
    return broken if read.value is None else None


def _flag_collisions(inv: Inventory, problems: ProblemLog) -> None:
    """Two project paths share a folder when they differ only where one has ``/`` and the other ``-``
    (``/a-b/c`` and ``/a/b/c``): project.json then names only the last one added. Runs and flat sessions
    record their own path, which shows the other project; a folder whose name is not the encoding of its
    project.json path, and two folders naming the same path, are flagged too."""
    by_path: dict[str, list[Project]] = {}
    for project in inv.projects:
        if not project.path:
            continue
        by_path.setdefault(project.path, []).append(project)
        if encode_project_path(project.path) != project.folder.name:
            msg = (f"folder name is not Linggen's encoding of the path in project.json ({project.path}); "
                   f"Linggen looks for this project in {encode_project_path(project.path)!r}")
            project.flags.append("misplaced")
            problems.add(project.folder, msg, severity="warning")
    for path, group in by_path.items():
        if len(group) > 1:
            names = ", ".join(p.folder.name for p in group)
            for project in group:
                project.flags.append("duplicate")
                problems.add(project.folder, f"{len(group)} project folders name the same path {path} "
                             f"({names}); they are listed as one project", severity="warning")
    for project in inv.projects:
        seen = {text_of(r.data.get("repo_path")) for r in inv.runs if r.project is project}
        seen |= {t.project for t in inv.flat_threads}
        others = sorted(seen - {"", project.path})
        others = [p for p in others if encode_project_path(p) == project.folder.name]
        if others:
            project.flags.append("collision")
            problems.add(project.folder, "path-encoding collision: this folder also holds data of "
                         + ", ".join(others) + f" (project.json names only {project.path or 'nothing'})")


def _scan_session(folder: Path, thread_id: str, layout: str, problems: ProblemLog, inv: Inventory) -> Session:
    yaml_path = folder / "session.yaml"
    meta = load_yaml(yaml_path, problems, bad=inv.bad_files) if yaml_path.exists() else None
    problem = None
    if meta is None:
        if not yaml_path.exists() and folder.name != "default":
            problem = "no session.yaml: Linggen does not list this session"
            problems.add(folder, problem, severity="warning")
        elif yaml_path.exists():
            problem = "session.yaml could not be read: Linggen skips this session"
        meta = {}
    if text_of(meta.get("id")) not in ("", folder.name):
        problems.add(yaml_path, f"id {meta.get('id')!r} differs from the folder name", severity="warning")
    stats = scan_messages(folder / "messages.jsonl", problems)
    title = text_of(meta.get("title")) or folder.name
    return Session(thread_id, folder.name, folder, layout, meta, title, seconds_to_ms(meta.get("created_at")),
                   stats, problem)


def _scan_flat_sessions(inv: Inventory, problems: ProblemLog) -> None:
    threads: dict[str, FlatThread] = {}
    for folder in list_dirs(inv.home.sessions, problems):
        session = _scan_session(folder, "", FLAT, problems, inv)
        project = text_of(session.meta.get("project"))
        thread = threads.get(project)
        if thread is None:
            thread = threads[project] = FlatThread(project, text_of(session.meta.get("project_name")))
        session.thread_id = thread.thread_id
        thread.sessions.append(session)
    inv.flat_threads = sorted(threads.values(), key=lambda t: (t.project == "", t.title.lower()))


def _merge_same_path_folders(inv: Inventory) -> None:
    """A project is one thing to the user, however many folders hold it: two folders naming one path (a
    copied folder, one renamed, an older encoding) are listed as one project with the sessions of both.
    The folder Linggen reads (the encoding of the path) lists them, else the first by name. Runs,
    missions and overrides stay with the folder that holds them (their keys name it)."""
    by_path: dict[str, list[Project]] = {}
    for project in inv.projects:
        if project.path:
            by_path.setdefault(project.path, []).append(project)
    for path, group in by_path.items():
        if len(group) < 2:
            continue
        first = next((p for p in group if p.folder.name == encode_project_path(path)), group[0])
        for other in group:
            if other is first:
                continue
            other.merged_into = first
            first.other_folders.append(other)
            _join(first, other.sessions, other.folder.name)


def _join(project: Project, sessions: list[Session], where: str) -> None:
    """List ``sessions`` in ``project``'s thread. One that has the id of a session already there (a copy)
    is told apart by where it is stored (``<id>@<folder>``), so each stays one ref that opens it."""
    joining = {id(s) for s in sessions}
    taken = {s.ref.session_id for s in project.all_sessions if id(s) not in joining}
    for session in sessions:
        session.thread_id = project.thread_id
        if session.id in taken:
            session.key = f"{session.id}@{where}"
        taken.add(session.key or session.id)


def _merge_flat_sessions(inv: Inventory) -> None:
    """A project is one thing to the user, whichever layout its sessions were written in: flat sessions
    naming a project's path are listed in that project's thread (each session keeps its layout); one whose
    id is already there (a copied folder) is told apart as ``<id>@flat``."""
    by_path = {p.path: p for p in inv.listed_projects() if p.path}
    for thread in inv.flat_threads:
        project = by_path.get(thread.project) if thread.project else None
        if project is None:
            continue
        project.flat_sessions.extend(thread.sessions)
        _join(project, thread.sessions, FLAT)
        thread.merged = True
