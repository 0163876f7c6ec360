"""AgentStack's task queue on the automations page: the tasks each kind of agent was given, as its runs.

AgentStack has no scheduler (no schedule or cron table in any of its generations): its automated work is
the ``tasks`` queue, one row per piece of work handed to an agent type (``coordinator``, ``coder``…). So
each agent type is listed as one automation whose runs are its task rows. The row is AgentStack's own
record, but it keeps only the *latest* status (pending → running → completed/failed, no history of the
changes) and two times: ``created_at``, when the task was queued (taken as its start: no separate start is
kept), and ``completed_at``, set when it became completed or failed. A failed task has no error column;
its ``output`` is shown as the error text where it has one (whether AgentStack puts the failure there is not
known). A task still pending or running whose session has ended will not be run by anything: said so.
"""

from __future__ import annotations

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.database import DatabaseError
from daycare_gui.stores.api import Automations
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import Automation, Run

_OUTCOMES = {"completed": "worked", "failed": "failed", "running": "running"}
_NO_SCHEDULER = ("AgentStack has no scheduler: these are the tasks handed to this agent type, one run per task "
                 "row; only each task's latest status is kept, not its changes")
_STARTED = "started when it was queued (created_at): AgentStack keeps no separate start"
PREFIX = "agent:"


class AgentStackAutomations(Automations):
    def __init__(self, store) -> None:
        self.store = store
        self.db = store.db

    def automations(self) -> list[Automation]:
        try:
            types = [r[0] for r in self.db.rows("SELECT agent_type FROM tasks GROUP BY agent_type ORDER BY 1")]
        except DatabaseError as exc:
            self.store.problems.add(self.store.path, f"cannot list the tasks' agent types ({exc})")
            return []
        return [Automation(f"{PREFIX}{t}", f"{t} tasks", notes=(_NO_SCHEDULER,)) for t in types if t is not None]

    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        if not automation_id.startswith(PREFIX):
            return []
        s = self.store
        cols = ", ".join(s.col("tasks", c, prefix="t.") for c in ("id", "session_id", "status", "input", "output",
                                                                   "created_at", "completed_at", "parent_task_id"))
        session = "(SELECT status FROM sessions WHERE id = t.session_id)" if s.has("sessions", "status") else "NULL"
        where, args = ["t.agent_type = ?"], [automation_id[len(PREFIX):]]
        if since is not None:
            where.append("t.created_at >= ?")
            args.append(int(since))
        sql = (f"SELECT {cols}, {session} AS session_status FROM tasks t WHERE {' AND '.join(where)} "
               "ORDER BY t.created_at DESC, t.id")
        if limit is not None:
            sql += f" LIMIT {max(0, int(limit))}"
        try:
            recs = self.db.dicts(sql, tuple(args))
        except DatabaseError as exc:
            s.problems.add(s.path, f"cannot read the tasks of {automation_id[len(PREFIX):]} ({exc})")
            return []
        return [_run(automation_id, r) for r in recs]


def _ms(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _run(aid: str, rec: dict) -> Run:
    status = str(rec["status"]) if rec["status"] is not None else ""
    outcome = _OUTCOMES.get(status, "unknown")
    said = [f"the task row, status {status or '(none)'}", _STARTED]
    certainty = "logged"
    error = ""
    if status == "failed":
        error = mask_free_text(v.short(rec["output"], 2000)) if rec["output"] else ""
        said.append("its output is shown as the error (AgentStack has no error column)" if error else
                    "AgentStack keeps no error text for it")
    elif status == "pending":
        said.append("pending: queued, not started yet")
    elif status not in _OUTCOMES:
        said.append(f"AgentStack writes no status {status!r}")
        certainty = "partial"
    if status in ("pending", "running") and rec["session_status"] in ("ended", "error"):
        said.insert(0, f"{status}, but its session has {'ended' if rec['session_status'] == 'ended' else 'failed'}: "
                       "nothing will run it")
    if status == "completed" and _ms(rec["completed_at"]) is None:
        said.append("completed_at is not set")
    meta = [("Task", str(rec["id"])), ("Status", status)]
    if rec["session_id"] is not None:
        meta.append(("Session", str(rec["session_id"])))
    if rec["parent_task_id"] is not None:
        meta.append(("Parent task", str(rec["parent_task_id"])))
    if rec["input"]:
        meta.append(("Input", mask_free_text(v.short(rec["input"], 200))))
    return Run(str(rec["id"]), aid, _ms(rec["created_at"]), _ms(rec["completed_at"]), outcome, error,
               "; ".join(said), certainty, meta=tuple(meta),
               raw={k: rec[k] for k in ("id", "session_id", "status", "created_at", "completed_at")})
