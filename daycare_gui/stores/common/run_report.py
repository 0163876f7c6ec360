"""Automations and their runs as plain data: what ``daycare-gui automations --json`` prints and the summary
``inspect --json`` carries. Kind-neutral: it reads an ``Automations`` capability and the shared health."""

from __future__ import annotations

import datetime as _dt
import time

from daycare_gui.stores.common.run_health import run_health
from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.masking import mask_text
from daycare_gui.stores.records import Automation, Run

HEALTH_RUNS = 200  # the latest runs health is read from (bounded: a task may have 10,000)


def iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def run_dict(r: Run) -> dict:
    return {
        "id": r.id, "started": iso(r.started_at), "started_ms": r.started_at, "finished": iso(r.finished_at),
        "finished_ms": r.finished_at, "outcome": r.outcome, "error": mask_text(r.error) if r.error else "",
        "certainty": r.certainty, "evidence": r.evidence,
        "session": {"thread": r.session.thread_id, "session": r.session.session_id} if r.session else None,
        "message_id": r.message_id or None, "tokens": r.tokens, "meta": {k: mask_text(v) for k, v in r.meta},
    }


def automation_dict(a: Automation, runs: list[Run], health_runs: list[Run], now_ms: int, costs=None) -> dict:
    """``costs``: what each of ``runs`` cost (``run_costs.run_costs``), None where the store keeps no usage."""
    h = run_health(a, health_runs, now_ms=now_ms)
    task = a.task
    times = task_times(task) if task is not None else None
    return {
        "id": a.id, "title": a.title, "deleted": a.deleted, "runs_told": a.runs_told, "why": a.why,
        "notes": list(a.notes),
        "schedule": None if task is None else {
            "kind": task.schedule_kind, "expression": task.schedule, "timezone": task.timezone or None,
            "words": (times.words if times is not None and not times.error else None), "enabled": task.enabled,
            "error": times.error if times is not None else None,
            "next_runs": [t.isoformat(timespec="minutes") for t in (times.next_runs if times else ())],
            "last_run_at": iso(task.last_run_at)},
        "health": {
            "runs_seen": h.runs_seen, "window": h.window, "worked": h.worked, "failed": h.failed,
            "success_rate": None if h.success_rate is None else round(h.success_rate, 3),
            "last_failure": None if h.last_failure is None else {
                "started": iso(h.last_failure.started_at), "error": mask_text(h.last_failure.error)},
            "expected_since_first_run": h.expected, "stopped_firing": h.stopped_firing,
            "missed_since_last_run": h.missed_since_last, "last_due": iso(h.last_due),
            "stuck": [r.id for r in h.stuck], "problems": [mask_text(p) for p in h.problems()]},
        "runs": [dict(run_dict(r), cost=None if costs is None else costs[i].as_dict()) for i, r in enumerate(runs)],
    }


def automations_report(cap, *, task: str | None = None, since: int | None = None, limit: int | None = None,
                       now_ms: int | None = None, usage=None) -> list[dict]:
    """Every automation (or the one whose id or title is ``task``) with its runs since ``since``; with
    ``usage`` (the store's ``api.Usage``), what each run cost."""
    from daycare_gui.stores.common.run_costs import run_costs

    now = now_ms if now_ms is not None else int(time.time() * 1000)
    read = []
    for a in cap.automations():
        if task is not None and task not in (a.id, a.title, a.id.partition(":")[2]):
            continue
        latest = cap.runs(a.id, limit=HEALTH_RUNS) if a.runs_told else []
        if not a.runs_told or limit == 0:
            runs = []
        elif since is None and limit is not None and limit <= HEALTH_RUNS:
            runs = latest[:limit]  # (the latest runs were just read: a slow kind reconstructs them once)
        else:
            runs = cap.runs(a.id, since=since, limit=limit)
        read.append((a, latest, runs))
    # every run priced in one read of the usage (and a record of a session two tasks share counted once)
    every = [r for _a, _latest, runs in read for r in runs]
    costs = run_costs(usage, every) if usage is not None else None
    out, at = [], 0
    for a, latest, runs in read:
        out.append(automation_dict(a, runs, latest, now, None if costs is None else costs[at:at + len(runs)]))
        at += len(runs)
    return out


def automations_summary(cap, now_ms: int | None = None) -> dict:
    """For ``inspect --json``: how many automations, runs, failures, and which stopped firing."""
    report = automations_report(cap, limit=0, now_ms=now_ms)
    return {
        "count": len(report),
        "runs": sum(a["health"]["runs_seen"] for a in report),
        "failures": sum(a["health"]["failed"] for a in report),
        "stopped_firing": [a["title"] for a in report if a["health"]["stopped_firing"]],
        "stuck": sum(len(a["health"]["stuck"]) for a in report),
    }

