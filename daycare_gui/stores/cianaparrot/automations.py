"""CianaParrot's scheduled tasks on the automations page: each run told from its ``scheduler_<id>`` thread.

CianaParrot keeps no run log. Its scheduler writes a task's ``last_run`` *before* running it and only logs
an error, so neither says whether a run worked. What remains is the task's LangGraph thread: the scheduler
invokes the agent with ``{"messages": [{"role": "user", "content": prompt}]}`` on ``scheduler_<id>``, and
LangGraph saves an ``input`` checkpoint for each invocation (its ``__start__`` writes carry that message),
then a ``loop`` checkpoint per step. So one run = one top-level ``input`` checkpoint and the checkpoints up
to the next one, and how it ended follows from the last of them (checked with LangGraph 1.x's own saver):

- an ``__error__`` write in the run: a node raised, LangGraph stored the exception's text → failed;
- a last checkpoint with no writes: the graph ran to its end → worked (sending the answer to the chat
  happens after, and a failure there is only logged: said in the evidence);
- a last checkpoint with work still pending and no error: the run is under way if it is the newest and
  the bot runs, else nothing tells how it ended (the bot stopped mid-run, or the error was not stored).

Only the writes' small payloads (messages, errors) are decoded, never a checkpoint's whole state.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from daycare_gui.stores import api
from daycare_gui.stores.cianaparrot.bot_json import task_id
from daycare_gui.stores.cianaparrot.checkpoints import decode_metadata, id_time_ms
from daycare_gui.stores.cianaparrot.decode import decode_typed, masked
from daycare_gui.stores.cianaparrot.messages import as_text, message_fields, parts_text
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import Automation, Run, SessionRef

PREFIX = "scheduler_"
NO_LOG = ("CianaParrot keeps no run log: it sets a task's last_run before running it and only logs errors, "
          "so each run is told from the checkpoints LangGraph saved in the task's thread")
AFTER_GRAPH = "a failure after the agent answered (sending it to the chat) is only logged, so it is not seen here"


@dataclass
class _Segment:
    """One invocation: its top-level checkpoints, oldest first, and what their writes hold."""

    ids: list[str]
    prompt: str = ""
    errors: list[str] = field(default_factory=list)
    pending: bool = False  # the last checkpoint has writes: work was under way after it
    first_message: str = ""  # the id of the first message a node wrote (the conversation opens there)
    tokens: dict[str, int] = field(default_factory=dict)  # message id → total tokens (repeats counted once)


class CianaAutomations(api.Automations):
    def __init__(self, store) -> None:
        self.store = store

    def fingerprint(self):
        """What any commit to checkpoints.db changes (its and its WAL's headers and stat, never opened), with
        whether the bot runs (a run with work pending is "running" only while it does): the window keeps the
        runs told from the checkpoints while it stays the same."""
        from daycare_gui.stores.common.space_cache import file_fingerprint

        db = self.store.layout.db
        return None if db is None else (file_fingerprint(db), self.store.status.running)

    def _task_items(self) -> dict:
        from daycare_gui.stores.cianaparrot.tasks import CianaTasks

        return {t.id: t for t in CianaTasks(self.store).tasks()}

    def automations(self) -> list[Automation]:
        items = self._task_items()
        out, seen = [], set()
        for task in self.store.tasks or ():
            tid = task_id(task)
            if not tid or tid in seen:
                continue
            seen.add(tid)
            item = items.get(tid)
            out.append(Automation(tid, item.title if item else tid, task=item, notes=(NO_LOG,)))
        for thread in sorted(self.store.threads):  # a task removed from the file (a "once" one cancelled)
            tid = thread[len(PREFIX):]
            if thread.startswith(PREFIX) and tid not in seen and self.store.threads[thread].checkpoints:
                out.append(Automation(tid, f"Task {tid} (no longer in scheduled_tasks.json)", deleted=True,
                                      notes=(NO_LOG,)))
        return out

    def runs(self, automation_id: str, *, since: int | None = None, limit: int | None = None) -> list[Run]:
        thread = PREFIX + automation_id
        reader = self.store.reader
        if reader is None or thread not in self.store.threads:
            return []
        try:
            segments = _segments(reader, thread)
        except sqlite3.Error as exc:
            self.store.problems.add(self.store.layout.db, f"cannot read the runs of {thread} ({exc})")
            return []
        running = self.store.status.running
        runs = [_run(automation_id, thread, seg, newest=i == len(segments) - 1, bot_running=running)
                for i, seg in enumerate(segments)]
        if since is not None:
            runs = [r for r in runs if r.started_at is not None and r.started_at >= since]
        runs.reverse()  # newest first (checkpoint ids are time-ordered)
        return runs[:limit] if limit is not None else runs

    def run_sessions(self) -> frozenset[SessionRef]:
        return frozenset(SessionRef(t, t) for t, info in self.store.threads.items()
                         if t.startswith(PREFIX) and info.checkpoints)


def _segments(reader, thread: str) -> list[_Segment]:
    s = reader.s
    ns = f'AND "{s.ns_col}" = \'\'' if s.ns_col else ""
    meta = f'"{s.meta_col}"' if s.meta_col else "NULL"
    segments: list[_Segment] = []
    index: dict[str, _Segment] = {}
    for cid, blob in reader.conn.execute(
            f'SELECT "{s.id_col}", {meta} FROM checkpoints WHERE thread_id = ? {ns} ORDER BY 1', (thread,)):
        data, _problem = decode_metadata(blob)
        source = data.get("source") if isinstance(data, dict) else None
        if source == "input" or not segments:  # (checkpoints before the first input belong to no invocation
            if source != "input":               # the scheduler made: they are not counted as a run)
                continue
            segments.append(_Segment([]))
        segments[-1].ids.append(str(cid))
        index[str(cid)] = segments[-1]
    w = s.writes
    if w is None or not segments:
        return segments
    wns = 'AND "checkpoint_ns" = \'\'' if w.get("checkpoint_ns") else ""
    col = {k: (f'"{w[k]}"' if w.get(k) else "''") for k in ("task_path", "channel", "type")}
    value = '"value"' if w.get("value") else "NULL"  # (columns of older releases are looked up, not assumed)
    sql = (f'SELECT "{w["id"]}", {col["task_path"]}, {col["channel"]}, {col["type"]}, '
           f"CASE WHEN {col['channel']} IN ('messages', '__error__') THEN {value} END "
           f'FROM writes WHERE thread_id = ? {wns} ORDER BY 1')
    for cid, path, channel, tag, value in reader.conn.execute(sql, (thread,)):
        seg = index.get(str(cid))
        if seg is None:
            continue
        if str(cid) == seg.ids[-1]:  # writes after the last checkpoint: a step began and none followed (the
            seg.pending = True       # input checkpoint's own __start__ writes too, when no step came after)
        if channel == "__error__":
            text = as_text(masked(decode_typed(tag, value).value))  # (an error may quote a key: masked)
            seg.errors.append(mask_free_text(text) if text else "an error without text")
        elif channel == "messages":  # (a message written after the last checkpoint never reached the state)
            _messages(seg, str(path or ""), decode_typed(tag, value).value, applied=str(cid) != seg.ids[-1])
    return segments


def _messages(seg: _Segment, task_path: str, value, *, applied: bool) -> None:
    items = value if isinstance(value, list) else [value]
    for item in items:
        found = message_fields(item)
        if found is None and isinstance(item, dict) and "content" in item:
            found = ("dict", item)  # the scheduler's own {"role": "user", "content": prompt}
        if found is None:
            continue
        _cls, fields = found
        if "__start__" in task_path:  # what the invocation was given: the scheduler's prompt
            if not seg.prompt:
                seg.prompt = parts_text(fields.get("content"))
            continue
        mid = as_text(fields.get("id"))
        if mid and applied and not seg.first_message:
            seg.first_message = mid
        usage = fields.get("usage_metadata")
        total = usage.get("total_tokens") if isinstance(usage, dict) else None
        if isinstance(total, int) and not isinstance(total, bool):
            seg.tokens[mid or f"#{len(seg.tokens)}"] = total


def _run(aid: str, thread: str, seg: _Segment, *, newest: bool, bot_running: bool) -> Run:
    first, last = seg.ids[0], seg.ids[-1]
    started, ended = id_time_ms(first), id_time_ms(last)
    said = [f"{len(seg.ids)} checkpoint{'s' if len(seg.ids) != 1 else ''} of thread {thread}, from the 'input' "
            "checkpoint LangGraph saved when the scheduler invoked the agent"]
    error, finished = "", None
    if seg.errors:
        outcome, certainty, error = "failed", "reconstructed", seg.errors[-1]
        said.append("LangGraph stored the error a step raised (the bot only logs it)")
    elif not seg.pending:
        outcome, certainty, finished = "worked", "reconstructed", ended
        said.append(f"the graph ran to its end at its last checkpoint; {AFTER_GRAPH}")
    elif newest and bot_running:
        outcome, certainty = "running", "partial"
        said.append("work is still pending after its last checkpoint and the bot is running")
    else:
        outcome, certainty = "unknown", "partial"
        said.append("work was still pending after its last checkpoint and no error was stored: the bot may "
                    "have stopped mid-run, or the error was only logged")
    meta = [("Thread", thread), ("First checkpoint", first), ("Last checkpoint", last)]
    if seg.prompt:
        meta.append(("Prompt", mask_free_text(seg.prompt)))
    return Run(first, aid, started, finished, outcome, error, "; ".join(said), certainty,
               SessionRef(thread, thread), seg.first_message, sum(seg.tokens.values()) if seg.tokens else None,
               tuple(meta))
