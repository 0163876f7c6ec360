"""CianaParrot's own lists: the checkpoint timeline, session counters, Claude Code states, session logs.

The timeline is one tree: each LangGraph thread, then its checkpoints oldest first with the step and
source from their metadata and what the step's tasks wrote (the ``writes`` rows stored under it). Rows are
found by offset through per-thread counts, so a page never reads more than it shows.
"""

from __future__ import annotations

import bisect
import datetime as dt
import json
import sqlite3

from daycare_gui.stores.api import Collections
from daycare_gui.stores.cianaparrot.bot_json import LAST_WINS, object_repeat_problem
from daycare_gui.stores.cianaparrot.checkpoints import SPECIAL_CHANNELS, CheckpointRow, WriteRow
from daycare_gui.stores.cianaparrot.decode import masked
from daycare_gui.stores.cianaparrot.messages import summarize_value
from daycare_gui.stores.records import Collection, Link, Row, SessionRef

TIMELINE = Collection("checkpoints", "Checkpoint timeline",
                      ("checkpoint", "step", "source", "wrote", "at", "size"), tree=True, group="LangGraph")
COUNTERS = Collection("counters", "Session counters", ("chat", "counter", "highest thread", "state"),
                      group="CianaParrot")
CC_STATES = Collection("claude_code", "Claude Code states",
                       ("user", "mode", "project", "project path", "session", "model", "effort"), group="CianaParrot")
LOGS = Collection("session_logs", "Session logs", ("thread", "origin", "file", "size"), group="CianaParrot")


def _iso(ms: int | None) -> str:
    if ms is None:
        return ""
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _wrote(writes: list[WriteRow]) -> str:
    parts = []
    for w in writes:
        if w.channel.startswith("branch:to:"):
            parts.append("→ " + w.channel.removeprefix("branch:to:"))
        elif w.channel in SPECIAL_CHANNELS.values():
            parts.append(f"{w.channel}: {summarize_value(w.decoded.value, 40)}")
        else:
            parts.append(f"{w.channel}: {summarize_value(w.decoded.value, 60)}")
    return "; ".join(parts)


def _markdown(row: CheckpointRow, writes: list[WriteRow]) -> str:
    lines = [f"**Checkpoint** `{row.id}`", "", f"- thread: `{row.thread_id}`"]
    if row.ns:
        lines.append(f"- namespace: `{row.ns}`")
    lines += [f"- parent: `{row.parent or '—'}`", f"- step {row.step}, source {row.source or '—'}",
              f"- payload: {row.type or 'no type recorded'}, {row.size} bytes"]
    if row.meta_problem:
        lines.append(f"- metadata: {row.meta_problem}")
    lines += ["", "**Metadata**", "", "```json", json.dumps(masked(row.metadata), indent=2, ensure_ascii=False)[:4000],
              "```", "", f"**Writes made from this checkpoint** ({len(writes)})", ""]
    for w in writes:
        where = f"task `{w.task_id[:8]}`" + (f" ({w.task_path})" if w.task_path else "")
        lines.append(f"- {where} #{w.idx} **{w.channel}** [{w.decoded.tag}, {w.size} bytes]: "
                     f"{summarize_value(w.decoded.value, 200)}" + (f" — {w.decoded.problem}" if w.decoded.problem else ""))
    return "\n".join(lines)


class CianaCollections(Collections):
    def __init__(self, store) -> None:
        self.store = store

    def collections(self) -> list[Collection]:
        out = []
        if self.store.reader is not None:
            out.append(TIMELINE)
        if self.store.layout.counters_file is not None:
            out.append(COUNTERS)
        if self.store.layout.cc_states_file is not None:
            out.append(CC_STATES)
        if self.store.layout.root is not None or self.store.logs:
            out.append(LOGS)
        return out

    def count(self) -> int | None:
        return len(self.collections())

    # -- timeline ---------------------------------------------------------------------------------------
    def _thread_order(self):
        infos = [i for i in self.store.threads.values() if i.checkpoints]
        infos.sort(key=lambda i: (i.chat.startswith("scheduler_"), i.chat, i.n, i.id))
        starts, total = [], 0
        for info in infos:
            starts.append(total)
            total += 1 + info.checkpoints
        return infos, starts, total

    def _timeline(self, offset: int, limit: int) -> list[Row]:
        infos, starts, total = self._thread_order()
        out: list[Row] = []
        pos = offset
        while len(out) < limit and pos < total:
            k = bisect.bisect_right(starts, pos) - 1
            info, within = infos[k], pos - starts[k]
            tkey = f"t:{info.id}"
            if within == 0:
                out.append(Row(tkey, (info.id, "", "", f"{info.checkpoints} checkpoints, {info.writes} writes",
                                      _iso(info.updated_at), ""),
                               links=(Link("session", SessionRef(info.chat, info.id), "conversation"),),
                               raw={"thread_id": info.id, "checkpoints": info.checkpoints, "writes": info.writes}))
                pos += 1
                continue
            want = min(limit - len(out), info.checkpoints - (within - 1))
            try:
                rows = self.store.reader.history(info.id, within - 1, want)
            except sqlite3.Error as exc:
                self.store.problems.add(self.store.layout.db, f"cannot read checkpoints of {info.id} ({exc})")
                rows = []
            for r in rows:
                out.append(self._checkpoint_row(r, tkey))
            pos += len(rows) if rows else info.checkpoints - (within - 1)
        return out

    def _checkpoint_row(self, r: CheckpointRow, parent: str) -> Row:
        try:
            writes = self.store.reader.writes_of(r.thread_id, r.ns, r.id)
        except sqlite3.Error:
            writes = []
        problems = [w.decoded.problem for w in writes if w.decoded.problem] + ([r.meta_problem] if r.meta_problem else [])
        flag = "error" if any(w.channel == "__error__" for w in writes) else (
            "interrupt" if any(w.channel == "__interrupt__" for w in writes) else "")
        return Row(f"c:{r.thread_id}:{r.ns}:{r.id}", (r.id, r.step, r.source, _wrote(writes), _iso(r.at), r.size),
                   parent=parent, markdown=_markdown(r, writes),
                   raw={"metadata": masked(r.metadata), "parent": r.parent, "type": r.type,
                        "writes": [{"task_id": w.task_id, "task_path": w.task_path, "idx": w.idx, "channel": w.channel,
                                    "type": w.decoded.tag, "value": masked(w.decoded.value)} for w in writes]},
                   flag=flag, problem="; ".join(problems) or None)

    # -- small lists ------------------------------------------------------------------------------------
    def _counter_rows(self) -> list[Row]:
        counters = self.store.counters or {}
        highest: dict[str, int] = {}
        for info in self.store.threads.values():
            if info.checkpoints and not info.id.startswith("scheduler_"):
                highest[info.chat] = max(highest.get(info.chat, 0), info.n)
        low = {c for c, _, _ in self.store.counter_findings()}
        rows = []
        for chat in sorted(set(counters) | set(highest)):
            value, top = counters.get(chat), highest.get(chat)
            state = "lower than a thread: /new would reuse it" if chat in low else "ok"
            if chat not in counters:
                state = state if chat in low else "no counter (first session)"
            rows.append(Row(chat, (chat, value, f"{chat}_s{top}" if top else (chat if top == 0 else "—"), state),
                            raw={"chat": chat, "counter": value, "highest": top}, flag="lower" if chat in low else ""))
        return rows

    def _cc_rows(self) -> list[Row]:
        rows = []
        repeats = self.store.cc_repeats
        for user, state in sorted((self.store.cc_states or {}).items()):
            s = state if isinstance(state, dict) else {}
            problems = [] if isinstance(state, dict) else ["not an object"]
            if user in repeats.get((), ()):  # the row shows the last one, as the bot reads it
                problems.append(f"this user is written more than once in the file: {LAST_WINS}")
            if keys := repeats.get((user,)):
                problems.append(object_repeat_problem(keys, "this state"))
            rows.append(Row(user, (user, s.get("mode"), s.get("active_project"), s.get("active_project_path"),
                                   s.get("active_session_id"), s.get("active_model"), s.get("active_effort")),
                            raw=masked(state), problem="; ".join(problems) or None))
        return rows

    def _log_rows(self) -> list[Row]:
        rows = []
        for tid, logs in sorted(self.store.logs.items()):
            for log in logs:
                try:
                    size = log.path.stat().st_size
                except OSError:
                    size = None
                info = self.store.threads.get(tid)
                links = (Link("session", SessionRef(info.chat, "log:" + tid), "log"),) if info else ()
                rows.append(Row(f"{log.origin}/{tid}", (tid, log.origin, str(log.path), size), links=links,
                                raw={"thread_id": tid, "origin": log.origin, "path": str(log.path)},
                                flag="older folder" if log.origin == "data/sessions" else ""))
        return rows

    def size(self, collection_id: str) -> int:
        if collection_id == TIMELINE.id:
            return self._thread_order()[2] if self.store.reader is not None else 0
        return len(self._small(collection_id))

    def _small(self, collection_id: str) -> list[Row]:
        if collection_id == COUNTERS.id:
            return self._counter_rows()
        if collection_id == CC_STATES.id:
            return self._cc_rows()
        if collection_id == LOGS.id:
            return self._log_rows()
        return []

    def rows(self, collection_id: str, offset: int, limit: int) -> list[Row]:
        offset, limit = max(0, int(offset)), max(0, int(limit))
        if collection_id == TIMELINE.id:
            return self._timeline(offset, limit) if self.store.reader is not None else []
        return self._small(collection_id)[offset: offset + limit]
