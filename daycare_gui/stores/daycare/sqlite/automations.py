"""Daycare's cron and heartbeat runs (SQLite generation), reconstructed from the records they leave.

Daycare keeps no run log here: one ``last_run_at`` per task (written whether the run worked or not) and never an
error. A run that wrote anything starts with a ``user_message`` whose text is
``<system_message origin="cron">[cron]\\ntaskId: <id>…</system_message>`` (or ``origin="heartbeat"``) in the task's
agent (``tasks_cron.agent_id``) or the user's shared system agent (descriptor ``{"type": "system", "tag": "cron"}``);
its records run to the next user message. Its code's error is the ``<exec_error>`` inside that text. A run whose
code called ``skip()`` writes nothing: only a ``last_run_at`` newer than every record tells it. A run queued or in
flight is an ``inbox`` row (deleted once handled). All of a user's heartbeats run as one batch, so the batch is one
automation. (Facts: runs-costs-storage.md §1a, Daycare @808af509.)

Every query is keyed by the agent's sessions and reads only the records that mark runs (``limit`` of them, newest
first), then each listed run's span: a task with 10,000 runs never loads whole histories.
"""

from __future__ import annotations

import json
import os
import re

from daycare_gui.stores import api
from daycare_gui.stores.records import Automation, Run, SessionRef, TaskItem

_PREFIX = '<system_message origin="{origin}">'
_EXEC_ERROR = re.compile(r"<exec_error>(.*?)</exec_error>", re.S)
HEARTBEAT_EVERY_S = 1800  # Daycare runs heartbeats every 30 minutes, not configurable (engine.ts:331)
_TEXT = "CASE WHEN json_valid(h.data) THEN json_extract(h.data, '$.text') END"

# The sessions of the agents that only run scheduled work. The agents are picked first (a thousand rows) and
# their sessions found through the sessions' agent index: joined the other way, SQLite read every session and
# looked its agent up, 8-10 ms on the 1M-record demo's 20,000 sessions against ~2 ms, paid by the Agents page's
# first list on the worker while the window is still drawing itself (#35).
RUN_SESSIONS_SQL = (
    "SELECT s.agent_id, s.id FROM sessions s WHERE s.agent_id IN (SELECT a.id FROM agents a WHERE a.type = 'cron' "
    "OR (a.type = 'system' AND CASE WHEN json_valid(a.descriptor) THEN json_extract(a.descriptor, '$.tag') END "
    "IN ('cron', 'heartbeat')))")

HEARTBEAT_NOTES = (
    "All of a user's heartbeat tasks run together as one batch (one system message), so their runs are the batch's.",
    "Daycare stamps every heartbeat row's last_run_at on each batch (for every user, even tasks that did not run): "
    "a heartbeat's own last_run_at does not say it ran.",
)
CRON_NOTE = ("Daycare keeps no run log: runs are told from the system message each run posts; a run whose code "
             "called skip() writes nothing, and only the task's last run time shows it.")


class DaycareAutomations(api.Automations):
    """Over a :class:`daycare_gui.stores.daycare.sqlite.store.Store` with a database (``core.db``)."""

    runs_fill_their_threads = True  # run_sessions: every session of the cron and heartbeat agents

    def __init__(self, core, tasks: api.Tasks) -> None:
        self.core = core
        self.tasks = tasks

    @property
    def db(self):
        return self.core.db

    def fingerprint(self):
        """The database's (any commit changes it) and the task folders' files (a task's copy on disk)."""
        from daycare_gui.stores.common.space_cache import file_fingerprint

        paths = self.core.paths
        files = []
        for folder in ("cron", "heartbeat"):
            try:
                for entry in sorted(os.scandir(paths.data_dir / folder), key=lambda e: e.name):
                    st = entry.stat(follow_symlinks=False)
                    files.append((folder, entry.name, st.st_mtime_ns, st.st_size))
            except OSError:
                continue
        return (file_fingerprint(paths.db_path), tuple(files))

    # -- which automations -----------------------------------------------------------------------------
    def automations(self) -> list[Automation]:
        out = []
        tasks = self.tasks.tasks()
        known = set()
        for t in tasks:
            if t.schedule_kind != "cron":
                continue
            known.add(t.id)
            notes = (CRON_NOTE,) + (("Daycare does not read this copy of the task, so it never runs.",)
                                    if t.ignored else ())
            out.append(Automation(f"cron:{t.id}", t.title, t, notes=notes))
        for user_id, beats in self._heartbeat_users(tasks).items():
            out.append(self._batch(user_id, beats))
        for task_id, title in self._deleted(known):
            out.append(Automation(f"cron:{task_id}", title or task_id, None, deleted=True,
                                  notes=(CRON_NOTE, "Its row is gone (a delete-after-run task, or deleted); "
                                                    "its runs remain in the cron agent's records.")))
        return out

    def _heartbeat_users(self, tasks: list[TaskItem]) -> dict[str, list[TaskItem]]:
        by_user: dict[str, list[TaskItem]] = {}
        for t in tasks:
            if t.schedule_kind == "heartbeat" and not t.ignored:
                by_user.setdefault(t.user_id, []).append(t)
        return by_user

    def _batch(self, user_id: str, beats: list[TaskItem]) -> Automation:
        owner = beats[0].user or user_id or "the owner"
        names = ", ".join(sorted(b.title for b in beats))
        last = max((b.last_run_at for b in beats if b.last_run_at is not None), default=None)
        # The batch as a task: every 30 minutes, whatever the tasks say (shared health counts its due times)
        task = TaskItem(f"heartbeat:{user_id}", f"Heartbeats of {owner}", "interval", str(HEARTBEAT_EVERY_S),
                        last_run_at=last, user_id=user_id, user=beats[0].user,
                        meta=(("Tasks in the batch", names),))
        return Automation(f"heartbeat:{user_id}", f"Heartbeat batch of {owner} ({len(beats)}: {names})", task,
                          notes=HEARTBEAT_NOTES)

    def _system_agents(self, tag: str, user_id: str | None = None) -> list[str]:
        if not self.core.has_table("agents"):
            return []
        where = " AND user_id = :u" if user_id is not None and "user_id" in self.core.cols.of("agents") else ""
        return [r[0] for r in self.db.rows(
            "SELECT id FROM agents WHERE type = 'system' AND CASE WHEN json_valid(descriptor) THEN "
            f"json_extract(descriptor, '$.tag') END = :tag{where} ORDER BY id", {"tag": tag, "u": user_id})]

    def _cron_agents(self, task: TaskItem | None) -> list[str]:
        """Where a cron task's runs are: its own agent when the row names one, else the user's shared cron
        agent, and an agent of the older per-task kind (descriptor ``{"type": "cron", "id": <task id or uid>}``)."""
        if task is None:
            return []
        if task.agent_id:
            return [task.agent_id]
        out = self._system_agents("cron", task.user_id or None)
        uid = dict(task.meta).get("Task uid") or ""
        if self.core.has_table("agents"):
            out += [r[0] for r in self.db.rows(
                "SELECT id FROM agents WHERE type = 'cron' AND CASE WHEN json_valid(descriptor) THEN "
                "json_extract(descriptor, '$.id') END IN (:i, :u) ORDER BY id", {"i": task.id, "u": uid})]
        return list(dict.fromkeys(out))

    def _deleted(self, known: set[str]) -> list[tuple[str, str]]:
        """Tasks whose runs are in the shared cron agents but whose row is gone: (task id, its name)."""
        agents = self._system_agents("cron")
        if not agents or not self.core.has_table("session_history"):
            return []
        found: dict[str, str] = {}
        for agent in agents:
            for (text,) in self.db.rows(
                    f"SELECT substr(t, 1, 400) FROM (SELECT {_TEXT} AS t FROM session_history h WHERE h.session_id "
                    "IN (SELECT id FROM sessions WHERE agent_id = :a) AND h.type = 'user_message') "
                    "WHERE substr(t, 1, :n) = :p GROUP BY substr(t, instr(t, 'taskId: '), 60)",
                    {"a": agent, "p": _PREFIX.format(origin="cron"), "n": len(_PREFIX.format(origin="cron"))}):
                fields = _fields(text or "")
                task_id = fields.get("taskId", "")
                if task_id and task_id not in known:
                    found.setdefault(task_id, fields.get("taskName", ""))
        return sorted(found.items())

    # -- runs ----------------------------------------------------------------------------------------------
    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        automation = next((a for a in self.automations() if a.id == automation_id), None)
        if automation is None or not automation.runs_told:
            return []
        kind, _, key = automation_id.partition(":")
        task = automation.task
        beats: dict[str, str] = {}
        if kind == "heartbeat":
            agents, origin, needle = self._system_agents("heartbeat", key), "heartbeat", None
            beats = {b.id: b.title for b in self._heartbeat_users(self.tasks.tasks()).get(key, [])}
        else:
            agents = self._cron_agents(task) if not automation.deleted else self._system_agents("cron")
            origin, needle = "cron", f"taskId: {key}\n"
        out: list[Run] = []
        for agent in agents:
            out += self._marked(automation_id, agent, origin, needle, since, limit, beats)
            out += self._queued(automation_id, agent, origin, key if kind == "cron" else None,
                                own_agent=kind == "cron" and task is not None and agent == task.agent_id)
        if kind == "cron" and task is not None and task.last_run_at is not None:
            skipped = self._skipped(automation_id, task, out, agents)
            if skipped is not None:
                out.append(skipped)
        if kind == "heartbeat" and task is not None and task.last_run_at is not None:
            stamped = self._stamped(automation_id, task.last_run_at, out)
            if stamped is not None:
                out.append(stamped)
        out = [r for r in out if since is None or (r.started_at or 0) >= since]
        out.sort(key=lambda r: (r.started_at or 0, r.id), reverse=True)
        return out[:limit] if limit is not None else out

    def _marked(self, automation_id, agent, origin, needle, since, limit, beats) -> list[Run]:
        """Runs that wrote records: their system message, then the span up to the session's next user message.
        One statement: the agent's user messages (with the id of the next one), the ``limit`` newest that mark
        this task's runs, and each one's span read by id range (the primary key), not by session."""
        prefix = _PREFIX.format(origin=origin)
        rows = self.db.rows(
            f"WITH u AS (SELECT h.id, h.session_id, h.at, {_TEXT} AS t, LEAD(h.id) OVER (PARTITION BY h.session_id "
            "ORDER BY h.id) AS stop FROM session_history h WHERE h.session_id IN (SELECT id FROM sessions WHERE "
            "agent_id = :a) AND h.type = 'user_message'), "
            "m AS (SELECT * FROM u WHERE substr(t, 1, :n) = :p" + (" AND instr(t, :needle) > 0" if needle else "")
            + (" AND at >= :since" if since is not None else "") + " ORDER BY at DESC, id DESC"
            + (" LIMIT :limit" if limit is not None else "") + ") "
            "SELECT m.id, m.session_id, m.at, m.t, m.stop, count(h.id), max(h.at), "
            "sum(h.type = 'assistant_message'), sum(CASE WHEN h.type = 'assistant_message' AND json_valid(h.data) "
            "THEN json_extract(h.data, '$.tokens.size.total') END) FROM m LEFT JOIN session_history h "
            # (+: the span by id range, not by walking the session's index once per run)
            "ON h.id > m.id AND h.id < coalesce(m.stop, 9223372036854775807) AND +h.session_id = m.session_id "
            "GROUP BY m.id ORDER BY m.at DESC, m.id DESC",
            {"a": agent, "p": prefix, "n": len(prefix), "needle": needle, "since": since, "limit": limit})
        active = self.db.scalar("SELECT active_session_id FROM agents WHERE id = :a", {"a": agent}) \
            if "active_session_id" in self.core.cols.of("agents") else None
        return [self._run(automation_id, agent, r, active, beats) for r in rows]

    def _run(self, automation_id, agent, row, active, beats: dict[str, str]) -> Run:
        hid, session_id, at, text, stop, after, last_at, replies, tokens = row
        text, replies = text or "", replies or 0
        errors = _EXEC_ERROR.findall(text)
        origin = "heartbeat batch" if automation_id.startswith("heartbeat:") else "cron"
        if errors:
            outcome, error = "failed", errors[-1].strip()
            evidence = f"its {origin} system message carries the code's <exec_error>"
        elif replies:
            outcome, error = "worked", ""
            evidence = f"its {origin} system message and {replies} assistant repl{'ies' if replies != 1 else 'y'}"
        elif stop is None and session_id == active:
            outcome, error = "running", ""
            evidence = f"its {origin} system message is the agent's last record: no reply yet"
        else:
            outcome, error = "unknown", ""
            evidence = f"its {origin} system message, with no reply before the next message"
        fields = _fields(text)
        meta = tuple((k, fields[k]) for k in ("taskId", "taskUid", "taskName") if k in fields)
        if automation_id.startswith("heartbeat:"):
            said, batch = _batch_said(text, beats)
            evidence += f"; {said}"
            meta += batch
        return Run(id=f"h{hid}", automation_id=automation_id, started_at=at,
                   finished_at=last_at if after and outcome != "running" else None, outcome=outcome, error=error,
                   evidence=evidence, certainty="reconstructed", session=SessionRef(agent, session_id),
                   message_id=str(hid), tokens=int(tokens) if tokens is not None else None,
                   meta=(("Records", str(after + 1)),) + meta)


    def _queued(self, automation_id, agent, origin, task_id, *, own_agent: bool) -> list[Run]:
        """A run posted and not handled yet: its inbox row (Daycare deletes it once handled)."""
        if not self.core.has_table("inbox"):
            return []
        out = []
        for item_id, posted, data in self.db.rows(
                "SELECT id, posted_at, data FROM inbox WHERE agent_id = :a AND type = 'system_message' "
                "ORDER BY posted_at DESC LIMIT 100", {"a": agent}):
            try:
                item = json.loads(data) if data else {}
            except ValueError:
                continue
            if not isinstance(item, dict) or item.get("origin") != origin:
                continue
            named = _fields(str(item.get("text") or "")).get("taskId")
            if task_id is not None and named != task_id and not (named is None and own_agent):
                continue
            out.append(Run(id=f"inbox:{item_id}", automation_id=automation_id, started_at=posted, outcome="running",
                           evidence=f"an inbox row posted {origin} work to the agent and it is not handled yet "
                                    "(Daycare deletes the row once it has run)", certainty="partial",
                           session=None, meta=(("Inbox row", str(item_id)),)))
        return out

    def _skipped(self, automation_id: str, task: TaskItem, seen: list[Run], agents: list[str]) -> Run | None:
        """The task's last run time with no record at or after it: that run wrote nothing, which Daycare does
        when the code calls skip(). Daycare overwrites ``last_run_at``, so only the latest such run can be told;
        with no agent to hold its records at all, how it ended is unknown."""
        last = task.last_run_at
        # (a queued run's inbox row does not count: Daycare writes last_run_at once the run is over)
        if any((r.started_at or 0) >= last - 1000 for r in seen if r.certainty == "reconstructed"):
            return None
        if agents:
            return Run(id=f"last_run_at:{last}", automation_id=automation_id, started_at=last, outcome="skipped",
                       evidence="the task's last_run_at, with no records at or after it in its agent: Daycare "
                                "writes none when the code calls skip()", certainty="partial")
        return Run(id=f"last_run_at:{last}", automation_id=automation_id, started_at=last, outcome="unknown",
                   evidence="the task's last_run_at; no agent in this store holds its records", certainty="partial")

    def _stamped(self, automation_id: str, last: int, seen: list[Run]) -> Run | None:
        """The heartbeats' last_run_at with no batch message at or after it: a batch ran then (Daycare wrote the
        stamp after it), but this one wrote nothing (its code called skip()) or the stamp was another user's
        batch's (it stamps every user's heartbeats): how this user's batch ended, if it ran, is not known.
        Without it, a user whose batches skip would read as stopped firing days ago."""
        if any((r.started_at or 0) >= last - 1000 for r in seen if r.certainty == "reconstructed"):
            return None
        return Run(id=f"last_run_at:{last}", automation_id=automation_id, started_at=last, outcome="unknown",
                   evidence="the heartbeats' last_run_at, with no batch message at or after it: a batch ran then "
                            "and wrote nothing (its code called skip()), or the time was stamped by another user's "
                            "batch (Daycare stamps every user's heartbeats)", certainty="partial")

    def run_sessions(self) -> frozenset[SessionRef]:
        """Sessions of the agents that only run scheduled work: cron task agents and the cron/heartbeat system
        agents."""
        if not (self.core.has_table("agents") and self.core.has_table("sessions")):
            return frozenset()
        return frozenset(SessionRef(r[0], r[1]) for r in self.db.rows(RUN_SESSIONS_SQL))

    def count(self) -> int | None:
        return len(self.automations())


_BATCH_LINE = re.compile(r"^(?:Heartbeat: |\d+\. )(.+?) \(id: ([^)\n]+)\)\s*$")


def _batch_said(text: str, beats: dict[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """Which heartbeats a batch's system message says it ran (``Heartbeat: <title> (id: <id>)`` for one,
    ``1. <title> (id: <id>)`` lines for several: the first such lines, not the code's outputs after them),
    and which of the user's heartbeats it left out, whose ``last_run_at`` Daycare stamped all the same."""
    ran: list[tuple[str, str]] = []
    for line in text.removeprefix(_PREFIX.format(origin="heartbeat")).splitlines():
        m = _BATCH_LINE.match(line.strip().removesuffix("</system_message>"))
        if m:
            ran.append((m.group(2).strip(), m.group(1).strip()))
        elif ran:
            break
    if not ran:
        return "its message names no heartbeat, so which of them ran is not known", ()
    ids = {i for i, _ in ran}
    left = sorted(title for i, title in beats.items() if i not in ids)
    names = ", ".join(title for _, title in ran)
    meta = (("Heartbeats run", names),)
    said = f"it ran {len(ran)} heartbeat{'s' if len(ran) != 1 else ''} ({names})"
    if left:
        meta += (("Not run", ", ".join(left) + " (Daycare stamped their last_run_at all the same)"),)
        said += f", not {', '.join(left)}, whose last_run_at Daycare stamped all the same"
    return said, meta


_FIELD_LINES = {key: re.compile(rf"^{key}: (.+?)(?:</system_message>)?$", re.M)
                for key in ("taskId", "taskUid", "taskName")}  # (compiled once: read for each of 10,000 runs)


def _fields(text: str) -> dict[str, str]:
    """``taskId: …`` lines of a cron system message."""
    out = {}
    for key, line in _FIELD_LINES.items():
        m = line.search(text)
        if m:
            out[key] = m.group(1).strip()
    return out
