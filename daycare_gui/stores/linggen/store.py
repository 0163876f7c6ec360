"""An opened Linggen home: everything is read at open (small files parsed, message files streamed)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from daycare_gui.stores.api import (
    Automations,
    Charts,
    Collections,
    Conversations,
    Documents,
    Files,
    OpenedStore,
    SearchSource,
    Tasks,
)
from daycare_gui.stores.common.folder_files import FolderFiles, FolderRoot
from daycare_gui.stores.common.leftovers import report_and_clean
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.linggen import layout
from daycare_gui.stores.linggen.automations import LinggenAutomations
from daycare_gui.stores.linggen.collections import LinggenCollections, plan_files
from daycare_gui.stores.linggen.conversations import LinggenCharts, LinggenConversations, LinggenSearch
from daycare_gui.stores.linggen.data_files import find_data_files, not_user_data
from daycare_gui.stores.linggen.documents import (
    AGENTS,
    SKILLS,
    LinggenDocuments,
    check_frontmatter,
    find_documents,
)
from daycare_gui.stores.linggen.inventory import FLAT, RUN_STATUSES, scan
from daycare_gui.stores.linggen.mission_runs import STATUS_MEANINGS
from daycare_gui.stores.linggen.missions import scan_missions
from daycare_gui.stores.linggen.permissions import PermissionFiles, permissions_path, workspace_exists
from daycare_gui.stores.linggen.readers import load_json, pid_status
from daycare_gui.stores.linggen.tasks import LinggenTasks
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import FileRoot, SessionRef, StoreSummary


class LinggenStore(OpenedStore):
    """An opened Linggen home. Everything is read at open (small files parsed, message files streamed)."""

    kind = "linggen"

    def __init__(self, root: Path) -> None:
        super().__init__(mask_url(str(root)), ProblemLog())
        self.home = layout.HomePaths(root)
        p = self.problems
        self.inventory = inv = scan(self.home, p)
        self.missions = scan_missions(inv, p)
        self.plans = plan_files(self.home.plans, p)
        self.docs = find_documents(self.home, p)
        self.data_files = find_data_files(root, p)
        inv.bad_files["yaml"] += check_frontmatter(self.docs, p)
        self._credentials_check()
        self.pid, self.running, self.engine_detail = pid_status(self.home.pid)
        has_flat = bool(inv.flat_threads) or any(m.layout == FLAT for m in self.missions)
        has_per_project = any(pr.sessions for pr in inv.projects) or bool(inv.runs) or any(
            m.layout != FLAT for m in self.missions)
        self.generation = ("per-project+flat" if has_flat and has_per_project else
                           "flat" if has_flat else "per-project" if has_per_project else "empty")
        self.permission_files = PermissionFiles(self._workspaces(has_flat), self.writes_blocked)
        self.permission_files.collect_problems(p, inv.bad_files)
        # Temporary files of saves killed midway, beside every file we write (documents, permission files).
        report_and_clean(p, [d.path.parent for d in self.docs if d.path is not None]
                         + [permissions_path(w).parent for w, _ in self.permission_files.workspaces])
        self.conversations = LinggenConversations(inv, self.generation == "per-project+flat")
        refs: dict[str, SessionRef] = {}
        for session in inv.sessions():  # a copied session's id is in two folders: the one listed first wins
            refs.setdefault(session.id, session.ref)
        self.offer(Conversations, self.conversations)
        if self.permission_files.workspaces:  # the projects' folders, browsed as Files
            self.offer(Files, workspace_files(self.permission_files.workspaces))
        self.offer(SearchSource, LinggenSearch(self.home.root, self.conversations))
        self.offer(Charts, LinggenCharts(inv))
        from daycare_gui.stores.api import Storage
        from daycare_gui.stores.linggen.space import LinggenStorage

        self.offer(Storage, LinggenStorage(self.home))  # space only: no migrations
        self.offer(Documents, LinggenDocuments(self.docs, self.writes_blocked, self.home.root))
        if any(m.layout == FLAT for m in self.missions):  # scheduled missions: the shared tasks page
            self.offer(Tasks, LinggenTasks(self.missions))
        automations = LinggenAutomations(self.missions, inv, self.running)
        if automations.automations():  # flat missions (their runs.jsonl) or per-project ones steering agents
            self.offer(Automations, automations)
        self.offer(Collections, LinggenCollections(inv, self.missions, self.plans, p, self.permission_files,
                                                   self.running, refs, self.data_files))

    def _credentials_check(self) -> None:
        if self.home.credentials.exists():
            load_json(self.home.credentials, self.problems, bad=self.inventory.bad_files,
                      what="Linggen treats it as empty and overwrites it on its next save")

    def _workspaces(self, has_flat: bool) -> list[tuple[str, str]]:
        seen: dict[str, str] = {}
        for project in self.inventory.projects:
            if project.path and workspace_exists(project.path):
                seen.setdefault(project.path, "ignored by flat-layout Linggen" if has_flat else "")
        for thread in self.inventory.flat_threads:
            if thread.project and workspace_exists(thread.project):
                seen.setdefault(thread.project, "ignored by flat-layout Linggen")
        return sorted(seen.items())

    # -- the contract -----------------------------------------------------------------------------------

    def summary(self) -> StoreSummary:
        notes = []
        if self.generation == "per-project+flat":
            notes.append("both layouts side by side: since the flat layout, Linggen no longer reads the "
                         "per-project sessions (projects/<folder>/sessions/); they are listed here, marked "
                         "with their layout")
        if any("collision" in pr.flags for pr in self.inventory.projects):
            notes.append("some project folders hold more than one project (the folder name encoding is lossy)")
        if any(pr.other_folders for pr in self.inventory.projects):
            notes.append("some projects are stored in more than one folder (each is listed once, with the "
                         "sessions of every folder; Linggen reads only the folder its path encodes to)")
        if any("same second" in f for m in self.missions for f in m.flags):  # said only where it happened
            notes.append("mission files are named by the second they were set: two set within one second keep "
                         "only the last, without a trace")
        c = self.counts()
        stale = c["mission_runs_running"] if not self.running else 0
        if stale:
            notes.append(f"{count(stale, 'mission run')} still marked running though Linggen is not running: "
                         f"Linggen will mark {'it' if stale == 1 else 'them'} interrupted when it next starts")
        facts = (("Projects", str(c["projects"])), ("Sessions", str(c["sessions"])),
                 ("Messages", str(c["messages"])), ("Runs", str(c["runs"])), ("Missions", str(c["missions"])))
        return StoreSummary(self.kind, self.generation, self.title, self.running, self.engine_detail,
                            "files, read-only", tuple(notes), facts)

    def counts(self) -> dict[str, int]:
        inv = self.inventory
        sessions = list(inv.sessions())
        runs = Counter(r.status for r in inv.runs if r.problem is None)
        mission_runs = Counter()
        for m in self.missions:
            mission_runs.update(m.runs)
        out = {
            "projects": inv.project_count(),  # the number the navigation shows beside "Projects"
            "sessions": len(sessions),
            "sessions_per_project_layout": sum(1 for s in sessions if s.layout != FLAT),
            "sessions_flat_layout": sum(1 for s in sessions if s.layout == FLAT),
            "messages": sum(s.stats.messages for s in sessions),
            "observations": sum(s.stats.observations for s in sessions),
            "plan_messages": sum(s.stats.plans for s in sessions),
            "runs": len(inv.runs),
        }
        for status in RUN_STATUSES:
            out[f"runs_{status}"] = runs.get(status, 0)
        other = sum(n for s, n in runs.items() if s not in RUN_STATUSES)
        if other:
            out["runs_other"] = other
        out.update({
            "missions": len(self.missions),
            "missions_active": sum(1 for m in self.missions if m.state in ("active", "enabled")),
            "mission_runs": sum(mission_runs.values()),
            **{f"mission_runs_{status}": mission_runs.get(status, 0) for status in STATUS_MEANINGS},
            "plans": len(self.plans),
            "agents": sum(1 for d in self.docs if d.group == AGENTS),
            "skills": sum(1 for d in self.docs if d.group == SKILLS),
            "agent_overrides": len(inv.overrides),
            "activity_log_days": sum(1 for f in self.data_files if f.path.suffix == ".jsonl"),
            "memory_backups": sum(1 for f in self.data_files if f.path.suffix == ".ndjson"),
            "bad_json_files": inv.bad_files["json"],
            "bad_yaml_files": inv.bad_files["yaml"],
            "bad_jsonl_lines": sum(s.stats.bad_lines for s in sessions),
        })
        other_mission_runs = sum(n for status, n in mission_runs.items() if status not in STATUS_MEANINGS)
        if other_mission_runs:  # a status Linggen does not write (a newer version's, or a hand edit)
            out["mission_runs_other"] = other_mission_runs
        return out

    def report(self, **_options) -> dict:
        inv = self.inventory
        return {
            "path": self.title,
            "kind": self.kind,
            "generation": self.generation,
            "engine": {"running": self.running, "pid": self.pid, "detail": self.engine_detail},
            "counts": self.counts(),
            "projects": [  # as listed: one per project, with every folder that holds it
                {"folder": pr.folder.name, "path": pr.path or None, "name": pr.name or None,
                 "sessions": len(pr.per_project_sessions), "flags": pr.flags, "problem": pr.problem,
                 **({"folders": [f.name for f in pr.folders], "stored_in": pr.stored_in}
                    if pr.other_folders else {})}
                for pr in inv.listed_projects()
            ],
            "flat_projects": [{"path": t.project or None, "sessions": len(t.sessions)}
                              for t in inv.flat_threads],
            # as counted in missions_active: the active per-project mission and every enabled flat one
            "active_missions": [m.key for m in self.missions if m.state in ("active", "enabled")],
            "flagged_missions": {m.key: m.flags for m in self.missions if m.flags},
            "not_user_data": not_user_data(self.home.root),  # Linggen's own files: named, not read
        }

    def writes_blocked(self) -> str | None:
        _pid, running, detail = pid_status(self.home.pid)  # asked afresh: the daemon may have started since
        if running:
            return (f"Linggen is running ({detail}); it has no file locking and may overwrite this change. "
                    "Stop it first, or save anyway")
        return None

    def watch_paths(self) -> tuple[Path, ...]:
        # Linggen appends to each session's messages.jsonl and adds session folders: the folders that list
        # sessions (flat and per project), every session's folder and its messages file. What was read when
        # the store opened; a new folder makes the watcher ask again.
        h = self.home
        lists = [folder / "sessions" for project in self.inventory.projects for folder in project.folders]
        sessions = [path for s in self.inventory.sessions() for path in (s.folder, s.messages_path)]
        return (h.root, h.projects, h.sessions, h.missions, h.agents, h.skills, h.plans, h.pid, *lists, *sessions)


# Names in a project folder that may hold credentials: never listed, never read.
WORKSPACE_HIDDEN = frozenset({".env", ".env.local", "credentials.json", ".netrc"})


def workspace_files(workspaces: list[tuple[str, str]]) -> FolderFiles:
    """Each project folder Linggen works in (where it exists on this machine) as a Files root."""
    def roots() -> list[FolderRoot]:
        out = []
        for i, (path, _note) in enumerate(workspaces):
            folder = Path(path)
            out.append(FolderRoot(FileRoot(f"workspace:{i}", folder.name or path, "", folder,
                                           "A project folder Linggen works in."), folder, WORKSPACE_HIDDEN))
        return out
    return FolderFiles(roots)
