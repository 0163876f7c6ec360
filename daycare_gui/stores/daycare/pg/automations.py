"""Runs of today's Daycare cron and webhook triggers (PGlite/PostgreSQL), reconstructed from the task's agent.

Daycare keeps no run log (its success/failure counters live in memory). A run of task T for user U is written
into T's agent (``tasks_cron.agent_id``, else the agent at path ``/<U>/task/<T>``): the code phase ``rlm_start`` …
``rlm_complete(isError, error)`` under a fresh ``toolCallId``, then, unless the code skipped (output
``Turn skipped``), a follow-up ``user_message`` ``<system_message origin="cron">[cron]\\ntriggerId: …\\ntaskId: …``
and the agent's reply. Only that follow-up names the trigger (cron, webhook or manual). A code phase with no
``rlm_complete`` is still running when it is the agent's last record, else it died (Daycare reports "Python
execution failed before completion."). (Facts: runs-costs-storage.md §1b, Daycare @7c3c466c.)

Queries are keyed: the agent's sessions, and of their records only those that mark runs (``rlm_start`` and
``rlm_complete``, system messages, the first line of the replies' tokens) — never whole histories. A ``run_python``
call during the reply also writes ``rlm_start``; its ``toolCallId`` is one the reply's tool calls name, so it is
not taken for a run.
"""

from __future__ import annotations

import re

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.history_keys import history_keys
from daycare_gui.stores.records import Automation, Run, SessionRef, TaskItem

_SYSTEM = re.compile(r'^<system_message origin="([^"]*)">\[(\w+)\]')
_EXEC_ERROR = re.compile(r"<exec_error>(.*?)</exec_error>", re.S)
DIED = "Python execution failed before completion."  # Daycare's words for a code phase that never completed
SKIPPED = "Turn skipped"
_NOTE = ("Daycare keeps no run log: runs are told from the task agent's records (its code phase and the follow-up "
         "message naming the trigger).")


class PgAutomations(api.Automations):
    runs_fill_their_threads = True  # run_sessions: every session of the task agents

    def __init__(self, store, tasks: api.Tasks) -> None:
        self.store = store
        self.tasks = tasks
        self._gone: dict[str, tuple[Automation, tuple]] = {}  # deleted triggers (automations() reads them)
        self._read: dict[tuple, tuple] = {}  # (agent, since) → (fingerprint, (its runs told, active session))
        self._listed: tuple | None = None  # (fingerprint, the automations, the deleted triggers) last listed

    @property
    def db(self):
        return self.store.db

    def fingerprint(self):
        """The database's transaction snapshot (``xmin:xmax:in-progress``): every transaction that writes takes
        a new transaction id, which moves ``xmax``, and its commit leaves the in-progress list; reads take
        none. So a run written, a ``last_run_at`` stamped or a task edited changes it, and an unchanged store
        (a PGlite copy, a quiet server) keeps its runs instead of reading every task agent's history again.
        A write elsewhere in the server's cluster changes it too: that only costs a read. With the
        connection's address: a store opened again (a new copy) is read again."""
        try:
            return (self.db.url, self.db.scalar("SELECT txid_current_snapshot()::text"))
        except Exception:  # (a server that refuses it: the runs are read each time, as before)
            return None

    def automations(self) -> list[Automation]:
        return list(self._automations(self.fingerprint()))

    def _automations(self, fingerprint) -> list[Automation]:
        """The automations at ``fingerprint``, listed once while it stays the same: every ``runs`` call needs
        the list (which automation an id is, whether its task shares the agent), and ``inspect``'s summary
        asks each automation's runs in turn, so it was listed again for each (five statements each time, 30
        of the small demo's 45)."""
        listed = self._listed
        if fingerprint is not None and listed is not None and listed[0] == fingerprint:
            self._gone = listed[2]
            return listed[1]
        out = self._list()
        self._listed = (fingerprint, out, self._gone) if fingerprint is not None else None
        return out

    def _list(self) -> list[Automation]:
        items = [t for t in self.tasks.tasks() if t.schedule_kind in ("cron", "webhook")]
        triggers_of: dict[tuple[str, str], list[TaskItem]] = {}
        for t in items:
            triggers_of.setdefault((_user(t), _task_id(t)), []).append(t)
        titles = {}
        if self.store.has("tasks"):  # a webhook row names only its task: say the task's title
            current = " WHERE valid_to IS NULL" if "valid_to" in self.db.columns("tasks") else ""
            titles = {(r[0], r[1]): r[2] for r in self.db.rows(f"SELECT user_id, id, title FROM tasks{current}")}
        out = []
        for t in items:
            notes = [_NOTE]
            if len(triggers_of[(_user(t), _task_id(t))]) > 1:
                notes.append("Its task has other triggers; a run that left no follow-up message (skipped, failed "
                             "or still running) cannot be told to be this trigger's and is listed under the task.")
            if t.schedule_kind == "webhook":
                notes.append("A webhook runs when called: it has no schedule to miss.")
            title = t.title if t.schedule_kind == "cron" else \
                f"{titles.get((_user(t), _task_id(t))) or t.title} (webhook {t.id})"
            out.append(Automation(f"{t.schedule_kind}:{t.id}", title, t, notes=tuple(notes)))
        for (user, task_id), triggers in sorted(triggers_of.items()):
            if len(triggers) > 1:
                title = next((t.title for t in triggers if t.schedule_kind == "cron"), task_id)
                out.append(Automation(f"task:{user}/{task_id}", f"{title}: runs naming no trigger", None,
                                      notes=("Runs of this task that named no trigger (every trigger shares the "
                                             "task's agent).",)))
        self._gone = self._deleted_triggers(titles)
        out += [automation for automation, _where in self._gone.values()]
        return out

    def _deleted_triggers(self, titles: dict) -> dict[str, tuple[Automation, tuple]]:
        """Triggers deleted since they ran: Daycare closes a trigger's row (``valid_to``) when it is deleted,
        and a delete-after-run one after its run; its runs stay in the task's agent, each naming it. By id:
        the automation and where its runs are (user, task, trigger, agent)."""
        out: dict[str, tuple[Automation, tuple]] = {}
        for kind, table in (("cron", "tasks_cron"), ("webhook", "tasks_webhook")):
            if not self.store.has(table) or "valid_to" not in self.db.columns(table):
                continue
            for trigger, user, task_id, agent in self.db.rows(
                    f"SELECT DISTINCT ON (id) id, user_id, task_id, agent_id FROM {table} t WHERE valid_to IS NOT "
                    f"NULL AND NOT EXISTS (SELECT 1 FROM {table} c WHERE c.id = t.id AND c.valid_to IS NULL) "
                    "ORDER BY id, valid_to DESC"):
                title = titles.get((user, task_id)) or task_id or trigger
                automation = Automation(
                    f"{kind}:{trigger}", title if kind == "cron" else f"{title} (webhook {trigger})", None,
                    deleted=True, notes=(_NOTE, f"Its {kind} trigger was deleted (Daycare keeps the closed row, and "
                                                "closes a delete-after-run trigger after its run); the runs that "
                                                "name it remain in the task's agent."))
                out[automation.id] = (automation, (str(user or ""), str(task_id or ""), trigger, agent))
        return out

    # -- runs ----------------------------------------------------------------------------------------------
    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        fingerprint = self.fingerprint()
        autos = self._automations(fingerprint)
        automation = next((a for a in autos if a.id == automation_id), None)
        if automation is None:
            return []
        if automation.task is not None:
            task, trigger = automation.task, automation.task.id
            user, task_id = _user(task), _task_id(task)
            shared = any(a.id.startswith("task:") and a.id == f"task:{user}/{task_id}" for a in autos)
            agent = (task.raw or {}).get("agent_id") or self._task_agent(user, task_id)
        elif automation.deleted:  # only the runs that name it: those naming none stay with the live triggers
            user, task_id, trigger, agent = self._gone[automation_id][1]
            shared, agent = True, agent or self._task_agent(user, task_id)
        else:
            user, _, task_id = automation_id[len("task:"):].partition("/")
            trigger, shared, agent = None, True, self._task_agent(user, task_id)
        if not agent:
            return []
        runs = self._agent_runs(automation_id, agent, since, fingerprint)
        if trigger is not None:  # its own runs, and (when it is the task's only trigger) those naming none
            runs = [r for r in runs if dict(r.meta).get("Trigger") == trigger
                    or ("Trigger" not in dict(r.meta) and not shared)]
        else:
            runs = [r for r in runs if "Trigger" not in dict(r.meta)]
        runs.sort(key=lambda r: (r.started_at or 0, r.id), reverse=True)
        return runs[:limit] if limit is not None else runs

    def _task_agent(self, user: str, task_id: str) -> str | None:
        if not (user and task_id and self.store.has("agents")):
            return None
        current = " AND valid_to IS NULL" if "valid_to" in self.db.columns("agents") else ""
        return self.db.scalar(f"SELECT id FROM agents WHERE path = :p{current} ORDER BY id LIMIT 1",
                              {"p": f"/{user}/task/{task_id}"})

    def _agent_runs(self, automation_id: str, agent: str, since: int | None, fingerprint) -> list[Run]:
        """The agent's runs, told for ``automation_id``. Several automations share a task's agent (its cron
        and webhook triggers, the runs naming none) and the page asks for the latest runs and then for all:
        the agent's records are read once while the fingerprint stays the same."""
        hit = self._read.get((agent, since))
        if fingerprint is None or hit is None or hit[0] != fingerprint:
            if len(self._read) >= 16:  # (a few agents' runs kept, not every agent's ever asked for)
                self._read.clear()
            hit = self._read[(agent, since)] = (fingerprint, self._read_agent(agent, since))
        told, active = hit[1]
        return [_finish(automation_id, agent, run, active) for run in told]

    def _read_agent(self, agent: str, since: int | None) -> tuple[list[dict], object]:
        # On a PGlite copy the agent's records are found by their ids (pg/history_keys, read once) through
        # the primary key: a filter on session_id read the whole history once per automation (8 times,
        # 69 s, for `inspect` of the 1M demo).
        keys = history_keys(self.store)
        if keys is not None:
            sessions = [r[0] for r in self.db.rows("SELECT id FROM sessions WHERE agent_id = :a", {"a": agent})]
            where = "h.id = ANY(CAST(:ids AS bigint[]))"
            ids = [i for sid in sessions for i in keys.ids(sid)]
        else:
            where, ids = "h.session_id IN (SELECT id FROM sessions WHERE agent_id = :a)", None
        rows = self.db.rows(
            "SELECT h.id, h.session_id, h.type, h.at, h.data->>'toolCallId', "
            "CASE WHEN h.type = 'rlm_complete' THEN h.data->>'isError' END, "
            "CASE WHEN h.type = 'rlm_complete' THEN left(coalesce(h.data->>'error', ''), 2000) END, "
            "CASE WHEN h.type = 'rlm_complete' THEN left(coalesce(h.data->>'output', ''), 40) END, "
            "CASE WHEN h.type = 'user_message' THEN left(coalesce(h.data->>'text', ''), 4000) END, "
            "CASE WHEN h.type = 'assistant_message' THEN h.data->'tokens'->'size'->>'total' END, "
            "CASE WHEN h.type = 'assistant_message' THEN (SELECT string_agg(c->>'id', ' ') FROM "
            "jsonb_array_elements(CASE WHEN jsonb_typeof(h.data->'toolCalls') = 'array' THEN h.data->'toolCalls' "
            "ELSE '[]'::jsonb END) c) END "
            f"FROM session_history h WHERE {where} "
            "AND h.type IN ('rlm_start', 'rlm_complete', 'user_message', 'assistant_message')"
            + (" AND h.at >= :since" if since is not None else "") + " ORDER BY h.session_id, h.id",
            {"a": agent, "since": since, "ids": ids})
        current = " AND valid_to IS NULL" if "valid_to" in self.db.columns("agents") else ""
        active = self.db.scalar(f"SELECT active_session_id FROM agents WHERE id = :a{current}", {"a": agent})
        runs: list[dict] = []
        run: dict | None = None
        called: set[str] = set()  # toolCallIds a reply named (run_python inside a reply, not a run)
        session = None

        def close(followed: bool = False):
            # followed: a later record (another code phase, a message) ends it; Daycare runs one at a time
            if run is not None:
                runs.append(dict(run, followed=followed))

        for hid, sid, kind, at, call_id, is_error, error, output, text, tokens, calls in rows:
            if sid != session:
                close()
                run, session, called = None, sid, set()
            if kind == "assistant_message":
                called.update((calls or "").split())
                if run is not None:
                    run["end"] = at
                    if tokens is not None and str(tokens).isdigit():
                        run["tokens"] = (run.get("tokens") or 0) + int(tokens)
                    run["replies"] += 1
            elif kind == "rlm_start" and call_id not in called:
                close(followed=True)
                run = {"id": hid, "session": sid, "start": at, "end": at, "call": call_id, "replies": 0}
            elif kind == "rlm_complete" and run is not None and call_id == run.get("call"):
                run.update(end=at, completed=True, is_error=is_error == "true", error=error or "",
                           output=output or "")
            elif kind == "user_message":
                match = _SYSTEM.match(text or "")
                if match and run is not None and "follow_up" not in run:
                    run.update(follow_up=text, end=at, origin=match.group(2))
                elif match:  # a run with no code phase (a prompt-only task): starts at its message
                    close(followed=True)
                    run = {"id": hid, "session": sid, "start": at, "end": at, "replies": 0, "follow_up": text,
                           "origin": match.group(2), "message_only": True}
                else:  # someone wrote to the task's agent: the run (if any) ended before
                    close(followed=True)
                    run = None
            if run is not None:
                run["last"] = hid
        close()
        return runs, active

    def run_sessions(self) -> frozenset[SessionRef]:
        """Sessions of task agents (path ``/<user>/task/<task>``): they hold only runs."""
        if not (self.store.has("agents") and self.store.has("sessions")):
            return frozenset()
        rows = self.db.rows("SELECT s.agent_id, s.id FROM sessions s WHERE s.agent_id IN "
                            "(SELECT id FROM agents WHERE path LIKE '/%/task/%')")
        return frozenset(SessionRef(r[0], r[1]) for r in rows)


def _finish(automation_id: str, agent: str, run: dict, active_session) -> Run:
    follow = run.get("follow_up") or ""
    fields = dict(re.findall(r"^(triggerId|taskId|taskName|taskTitle|timezone): (.+)$", follow, re.M))
    exec_error = _EXEC_ERROR.findall(follow)
    source = run.get("origin") or ""
    if run.get("message_only"):
        outcome, error = ("worked" if run["replies"] else "unknown"), ""
        evidence = f"its [{source}] system message (no code phase)"
    elif not run.get("completed"):
        # (its tool calls may follow it: nothing else may, a message or another code phase)
        if not run.get("followed") and run.get("last") == run["id"] and run["session"] == active_session:
            outcome, error, evidence = "running", "", "rlm_start with no rlm_complete yet, and nothing after it"
        else:
            outcome, error = "interrupted", DIED
            evidence = "rlm_start with no rlm_complete, and later records: Daycare never finished its code"
    elif run.get("is_error") or exec_error:
        outcome = "failed"
        error = run.get("error") or (exec_error[-1].strip() if exec_error else "")
        evidence = "rlm_complete with isError" if run.get("is_error") else "the follow-up message's <exec_error>"
    elif run.get("output") == SKIPPED:
        outcome, error, evidence = "skipped", "", "rlm_complete with output \"Turn skipped\" (the code called skip())"
    else:
        outcome, error = "worked", ""
        evidence = "rlm_start … rlm_complete" + (" and the follow-up message" if follow else "")
    meta = [("Source", source)] if source else []
    if "triggerId" in fields:
        meta.append(("Trigger", fields["triggerId"].strip()))
    if "taskId" in fields:
        meta.append(("Task", fields["taskId"].strip()))
    return Run(id=f"h{run['id']}", automation_id=automation_id, started_at=run["start"],
               finished_at=None if outcome == "running" else run["end"], outcome=outcome, error=error,
               evidence=evidence, certainty="reconstructed" if outcome != "unknown" else "partial",
               session=SessionRef(agent, run["session"]), message_id=str(run["id"]), tokens=run.get("tokens"),
               meta=tuple(meta))


def _user(task: TaskItem) -> str:
    return str((task.raw or {}).get("user_id") or "") if isinstance(task.raw, dict) else ""


def _task_id(task: TaskItem) -> str:
    return str((task.raw or {}).get("task_id") or "") if isinstance(task.raw, dict) else ""
