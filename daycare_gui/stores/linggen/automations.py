"""Linggen's missions on the automations page: each flat mission's runs, one per ``runs.jsonl`` line.

Linggen is the one system here that logs its runs, so every run is "logged": nothing is reconstructed
except what a format leaves out. The two formats disagree on what ``triggered_at`` means:

- Linggen 1.7 appends the row as ``running`` when the run starts (``triggered_at`` is the start) and
  rewrites the same line when it ends; no end time or exit code is kept. A row still ``running`` while no
  Linggen runs belongs to a dead process: Linggen's next start turns it into ``interrupted``.
- Before 1.7 the row was appended when the run ended, so ``triggered_at`` is the *end*; the start is when
  the run's session was made (``session.yaml`` ``created_at``) or, where the home still has the agent run
  files of the time (``projects/<enc>/runs/<run_id>.json``), that run's ``started_at``. A run that reached
  the entry script carries its exit code.

An error's text is not in the log: on a failure Linggen appends ``Error: <message>`` to the run's session,
which is where it is taken from. Per-project missions steer idle agents but no run names the mission that
caused it, so they are listed with their runs untold.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores import api
from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.common.secrets import mask_free_text, mask_secrets
from daycare_gui.stores.linggen.inventory import FLAT, Inventory, Session
from daycare_gui.stores.linggen.mission_runs import BEFORE_17, STALE, run_format
from daycare_gui.stores.linggen.missions import Mission, run_line_unread
from daycare_gui.stores.linggen.readers import plain, seconds_to_ms, text_of
from daycare_gui.stores.linggen.tasks import LinggenTasks
from daycare_gui.stores.records import Automation, Run, SessionRef

_OUTCOMES = {"completed": "worked", "failed": "failed", "skipped": "skipped", "cancelled": "interrupted",
             "interrupted": "interrupted", "running": "running"}
NOT_RUNNING = "running, but Linggen is not running"
_PER_PROJECT_WHY = ("a per-project mission re-prompts idle agents, but Linggen's run files name no mission "
                    "or idle prompt, so this mission's runs cannot be told apart from other agent runs")
_ERROR_PREFIX = "Error: "
_ERROR_SCAN_LIMIT = 50_000  # lines of a session read for a failed run's error text (it is near the run)


@dataclass(frozen=True)
class _Context:
    sessions: dict[str, Session]
    agent_runs: dict[str, dict]  # session id → its main agent run (per-project runs/<run_id>.json)
    linggen_running: bool


class LinggenAutomations(api.Automations):
    def __init__(self, missions: list[Mission], inv: Inventory, linggen_running: bool) -> None:
        self.missions = missions
        self.inv = inv
        self.linggen_running = linggen_running
        self._tasks = {t.id: t for t in LinggenTasks(missions).tasks()}
        self._context: _Context | None = None

    def automations(self) -> list[Automation]:
        out = []
        for m in self.missions:
            if m.layout == FLAT:
                aid = f"mission:{m.path.parent.name}"
                out.append(Automation(aid, m.title, task=self._tasks.get(aid)))
            elif m.state == "active" and _idle_agents(m):
                out.append(Automation(f"project-mission:{m.key}", m.title, runs_told=False, why=_PER_PROJECT_WHY,
                                      notes=(f"the mission of project {m.project}",)))
        return out

    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        mission = next((m for m in self.missions if m.layout == FLAT
                        and f"mission:{m.path.parent.name}" == automation_id), None)
        if mission is None:
            return []
        runs = self._mission_runs(automation_id, mission.path.parent / "runs.jsonl")
        if since is not None:
            runs = [r for r in runs if r.started_at is not None and r.started_at >= since]
        runs.sort(key=lambda r: (r.started_at is None, -(r.started_at or 0)))  # newest first, undated last
        return runs[:limit] if limit is not None else runs

    def run_sessions(self) -> frozenset[SessionRef]:
        return frozenset(s.ref for s in self.inv.sessions() if text_of(s.meta.get("mission_id")))

    # -- one mission's runs.jsonl ---------------------------------------------------------------------------

    def _context_now(self) -> _Context:
        if self._context is None:
            sessions: dict[str, Session] = {}
            for s in self.inv.sessions():  # a copied session's id is in two folders: the first listed wins
                sessions.setdefault(s.id, s)
            agent_runs: dict[str, dict] = {}
            for r in self.inv.runs:
                sid = text_of(r.data.get("session_id"))
                if sid and r.problem is None and r.data.get("parent_run_id") is None:
                    agent_runs.setdefault(sid, r.data)
            self._context = _Context(sessions, agent_runs, self.linggen_running)
        return self._context

    def _mission_runs(self, automation_id: str, path: Path) -> list[Run]:
        ctx = self._context_now()
        unread = run_line_unread(path)
        seen: set[str] = set()
        out = []
        for n, row in iter_jsonl(path, None):
            row = plain(row)
            run_id = text_of(row.get("run_id"))
            rid = run_id if run_id and run_id not in seen else f"line {n}"
            seen.add(rid)
            out.append(_run(automation_id, rid, n, row, ctx, unread if n == 1 else None))
        return out


def _idle_agents(m: Mission) -> list:
    agents = m.data.get("agents")
    return [a for a in agents if isinstance(a, dict) and a.get("idle_prompt")] if isinstance(agents, list) else []


def _run(automation_id: str, rid: str, line_no: int, row: dict, ctx: _Context, unread: str | None) -> Run:
    status = text_of(row.get("status"))
    skipped = row.get("skipped") is True or status == "skipped"
    outcome = "skipped" if skipped else _OUTCOMES.get(status, "unknown")
    at = seconds_to_ms(row.get("triggered_at"))
    sid = text_of(row.get("session_id"))
    session = ctx.sessions.get(sid) if sid else None
    meta: list[tuple[str, str]] = [("Line", str(line_no)), ("Status", status or "(none)")]
    evidence = [f"line {line_no} of runs.jsonl, status {status or '(none)'}"]
    error = ""
    if skipped:  # nothing ran, in either format: the moment Linggen skipped it is both start and end
        started, finished = at, at
        evidence.append("skipped: another run of this mission was still under way")
    elif run_format(row) == BEFORE_17 or (status not in ("running", "interrupted") and _ended_row(row, session)):
        started, finished, said = _older_start(row, at, session, ctx)
        evidence.append(said)
        code = row.get("entry_exit_code")
        if isinstance(code, int) and not isinstance(code, bool):
            meta.append(("Exit code", str(code)))
            if code != 0:
                error = f"the entry script exited with code {code}"
                if outcome == "worked":  # Linggen counts the run done; its entry script said otherwise
                    outcome = "failed"
        if text_of(row.get("output_dir")):
            meta.append(("Output folder", text_of(row.get("output_dir"))))
    else:
        started, finished = at, None
        evidence.append("written as Linggen 1.7 writes it: the time is when the run started; no end is kept")
    if status == "running" and not ctx.linggen_running:
        evidence.insert(0, f"{NOT_RUNNING}: Linggen marks it interrupted when it next starts")
        meta.append(("Flag", STALE))
    if status and status not in _OUTCOMES:
        evidence.append(f"Linggen writes no status {status!r}; it may be from a newer version")
    if outcome == "failed" and session is not None:
        error = _error_text(session, started, finished) or error
    if unread:
        meta.append(("Problem", f"line 1 {unread}: Linggen's own history lacks this run"))
    return Run(rid, automation_id, started, finished, outcome, error, "; ".join(evidence), "logged",
               session.ref if session is not None else None, tokens=None, meta=tuple(meta), raw=mask_secrets(row))


def _ended_row(row: dict, session: Session | None) -> bool:
    """A row without an exit code written before 1.7: its time is after its session's start by more than
    Linggen 1.7 takes to append a row (it makes the session and the row in the same second)."""
    at = seconds_to_ms(row.get("triggered_at"))
    return session is not None and session.created_ms is not None and at is not None \
        and at - session.created_ms > 60_000


def _older_start(row: dict, at: int | None, session: Session | None,
                 ctx: _Context) -> tuple[int | None, int | None, str]:
    agent = ctx.agent_runs.get(text_of(row.get("session_id")))
    if agent is not None and seconds_to_ms(agent.get("started_at")) is not None:
        end = seconds_to_ms(agent.get("ended_at")) or at
        return (seconds_to_ms(agent.get("started_at")), end,
                "written before Linggen 1.7: started as its agent run file says, ended when the row was written")
    if session is not None and session.created_ms is not None:
        return (session.created_ms, at,
                "written before Linggen 1.7: started when its session was made, ended when the row was written")
    return (None, at, "written before Linggen 1.7: the time is when the run ended; its start is not kept "
                      "(no session to tell it)")


def _error_text(session: Session, started: int | None, finished: int | None) -> str:
    """The last ``Error: …`` line Linggen appended to the run's session within the run's time."""
    found = ""
    for n, obj in iter_jsonl(session.messages_path, None):
        if n > _ERROR_SCAN_LIMIT:
            break
        content = obj.get("content")
        if not (isinstance(content, str) and content.startswith(_ERROR_PREFIX) and obj.get("to_id") == "user"):
            continue
        ts = seconds_to_ms(obj.get("timestamp"))
        if ts is not None and ((started is not None and ts < started) or (finished is not None and ts > finished)):
            continue
        found = content[len(_ERROR_PREFIX):].strip()
    return mask_free_text(found)  # an engine's error may quote a key it was given
