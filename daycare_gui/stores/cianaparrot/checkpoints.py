"""Reading LangGraph's SQLite checkpointer tables, whatever release made them.

Columns are introspected, never assumed: ``writes.task_path`` is missing in databases of older releases,
and the oldest releases keyed checkpoints by ``thread_ts``/``parent_ts`` (no namespace, no ``type``).
Queries are keyed and paged; only one checkpoint's payload is decoded at a time.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the decoder (and msgpack) loads with the store; the probe needs only schema_of
    from daycare_gui.stores.cianaparrot.decode import Decoded

_UUID_EPOCH = 0x01B21DD213814000  # 1582-10-15 → 1970-01-01 in 100 ns steps
SPECIAL_CHANNELS = {-1: "__error__", -2: "__scheduled__", -3: "__interrupt__", -4: "__resume__"}


def id_time_ms(checkpoint_id: str | None) -> int | None:
    """Milliseconds encoded in a time-ordered (UUID v6 style) checkpoint id, or in an old ISO ``thread_ts``."""
    if not checkpoint_id:
        return None
    hexes = checkpoint_id.replace("-", "")
    if len(hexes) == 32 and hexes[12] in "16":
        try:
            if hexes[12] == "6":
                ticks = int(hexes[:12] + hexes[13:16], 16)
            else:  # v1: time_low-time_mid-time_hi
                ticks = int(hexes[13:16] + hexes[8:12] + hexes[:8], 16)
            return (ticks - _UUID_EPOCH) // 10_000
        except ValueError:
            return None
    try:
        when = dt.datetime.fromisoformat(checkpoint_id.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return int(when.timestamp() * 1000)


@dataclass(frozen=True)
class Schema:
    id_col: str  # checkpoint_id, or thread_ts in the oldest layout
    parent_col: str | None
    ns_col: str | None
    type_col: str | None
    meta_col: str | None
    writes: dict[str, str | None] | None  # logical name → column (None when absent); None: no writes table

    @property
    def generation(self) -> str:
        if self.id_col == "thread_ts":
            return "langgraph-sqlite-thread-ts"
        if self.writes is not None and self.writes.get("task_path") is None:
            return "langgraph-sqlite-no-task-path"
        return "langgraph-sqlite"


def schema_of(tables: dict[str, list[str]]) -> Schema | None:
    cols = tables.get("checkpoints")
    if not cols or "thread_id" not in cols or "checkpoint" not in cols:
        return None
    id_col = "checkpoint_id" if "checkpoint_id" in cols else "thread_ts" if "thread_ts" in cols else None
    if id_col is None:
        return None
    parent = "parent_checkpoint_id" if "parent_checkpoint_id" in cols else "parent_ts" if "parent_ts" in cols else None
    writes = None
    wcols = tables.get("writes")
    if wcols and "thread_id" in wcols:
        wid = "checkpoint_id" if "checkpoint_id" in wcols else "thread_ts" if "thread_ts" in wcols else None
        if wid is not None:
            writes = {"id": wid, **{k: (k if k in wcols else None) for k in
                                     ("checkpoint_ns", "task_id", "task_path", "idx", "channel", "type", "value")}}
    return Schema(id_col, parent, "checkpoint_ns" if "checkpoint_ns" in cols else None,
                  "type" if "type" in cols else None, "metadata" if "metadata" in cols else None, writes)


@dataclass(frozen=True)
class CheckpointRow:
    thread_id: str
    ns: str
    id: str
    parent: str | None
    type: str | None
    size: int
    metadata: Any  # decoded dict, or None
    meta_problem: str | None = None

    @property
    def at(self) -> int | None:
        return id_time_ms(self.id)

    @property
    def step(self) -> Any:
        return self.metadata.get("step") if isinstance(self.metadata, dict) else None

    @property
    def source(self) -> str:
        return str(self.metadata.get("source", "")) if isinstance(self.metadata, dict) else ""


@dataclass(frozen=True)
class WriteRow:
    task_id: str
    task_path: str
    idx: int
    channel: str
    decoded: Decoded
    size: int


def decode_metadata(blob: Any) -> tuple[Any, str | None]:
    """Metadata is UTF-8 JSON (as bytes or text); some older rows hold MessagePack."""
    if blob is None:
        return None, None
    data = blob.encode("utf-8", "surrogateescape") if isinstance(blob, str) else bytes(blob)
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        pass
    else:  # LangGraph writes an object (step, source, writes, parents); null is no metadata, as NULL is
        if value is None or isinstance(value, dict):
            return value, None
        return value, f"metadata is a JSON {_json_kind(value)}, not an object"  # damage, kept to show
    from daycare_gui.stores.cianaparrot.decode import decode_msgpack, opaque

    d = decode_msgpack(data)
    if d.problem is None and isinstance(d.value, dict):
        return d.value, None
    return opaque("metadata", data, "metadata neither JSON nor MessagePack"), "metadata could not be read"


def _json_kind(value: Any) -> str:
    return ("list" if isinstance(value, list) else "string" if isinstance(value, str) else
            "true/false" if isinstance(value, bool) else "number")


class CheckpointReader:
    """Queries over one opened checkpoints database (``conn`` is read-only, autocommit)."""

    def __init__(self, conn: sqlite3.Connection, schema: Schema) -> None:
        self.conn, self.s = conn, schema
        s = schema
        self._ns = f'"{s.ns_col}"' if s.ns_col else "''"
        self._type = f'"{s.type_col}"' if s.type_col else "NULL"
        self._parent = f'"{s.parent_col}"' if s.parent_col else "NULL"
        self._meta = f'"{s.meta_col}"' if s.meta_col else "NULL"

    def _rows(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self.conn.execute(sql, args).fetchall()

    # -- counting (may scan) -------------------------------------------------------------------------
    def thread_stats(self) -> dict[str, tuple[int, str | None, int]]:
        """thread id → (checkpoints, latest top-level checkpoint id, checkpoints in subgraph namespaces)."""
        sql = (f'SELECT thread_id, count(*), max(CASE WHEN {self._ns} = \'\' THEN "{self.s.id_col}" END), '
               f"sum({self._ns} != '') FROM checkpoints GROUP BY thread_id")
        return {str(t): (n, latest, int(sub or 0)) for t, n, latest, sub in self._rows(sql)}

    def writes_per_thread(self) -> dict[str, int]:
        if self.s.writes is None:
            return {}
        return {str(t): n for t, n in self._rows("SELECT thread_id, count(*) FROM writes GROUP BY thread_id")}

    def type_counts(self) -> dict[str, dict[str, int]]:
        out = {"checkpoints": {}, "writes": {}}
        out["checkpoints"] = {str(t): n for t, n in self._rows(
            f"SELECT coalesce({self._type}, '(none)'), count(*) FROM checkpoints GROUP BY 1")}
        w = self.s.writes
        if w is not None:
            col = f'"{w["type"]}"' if w["type"] else "NULL"
            out["writes"] = {str(t): n for t, n in self._rows(
                f"SELECT coalesce({col}, '(none)'), count(*) FROM writes GROUP BY 1")}
        return out

    def totals(self) -> tuple[int, int]:
        cps = self._rows("SELECT count(*) FROM checkpoints")[0][0]
        writes = self._rows("SELECT count(*) FROM writes")[0][0] if self.s.writes is not None else 0
        return cps, writes

    # -- one thread ------------------------------------------------------------------------------------
    def _select(self) -> str:
        return (f'SELECT thread_id, {self._ns}, "{self.s.id_col}", {self._parent}, {self._type}, '
                f"length(checkpoint), {self._meta} FROM checkpoints")

    def _row(self, r: tuple) -> CheckpointRow:
        meta, problem = decode_metadata(r[6])
        return CheckpointRow(str(r[0]), str(r[1] or ""), str(r[2]), r[3], r[4], int(r[5] or 0), meta, problem)

    def history(self, thread_id: str, offset: int, limit: int) -> list[CheckpointRow]:
        """Checkpoints of a thread, oldest first (ids are time-ordered; namespaces interleave in time)."""
        sql = f'{self._select()} WHERE thread_id = ? ORDER BY "{self.s.id_col}", {self._ns} LIMIT ? OFFSET ?'
        return [self._row(r) for r in self._rows(sql, (thread_id, int(limit), int(offset)))]

    def count(self, thread_id: str) -> int:
        return self._rows("SELECT count(*) FROM checkpoints WHERE thread_id = ?", (thread_id,))[0][0]

    def latest(self, thread_id: str) -> tuple[CheckpointRow, Decoded] | None:
        sql = (f'{self._select().replace("FROM", ", checkpoint FROM", 1)} WHERE thread_id = ? AND {self._ns} = \'\' '
               f'ORDER BY "{self.s.id_col}" DESC LIMIT 1')
        rows = self._rows(sql, (thread_id,))
        if not rows:
            return None
        from daycare_gui.stores.cianaparrot.decode import decode_typed

        r = rows[0]
        return self._row(r[:7]), decode_typed(r[4], r[7])

    def top_level_ids(self, thread_id: str) -> list[str]:
        sql = f'SELECT "{self.s.id_col}" FROM checkpoints WHERE thread_id = ? AND {self._ns} = \'\' ORDER BY 1'
        return [r[0] for r in self._rows(sql, (thread_id,))]

    def writes_of(self, thread_id: str, ns: str, checkpoint_id: str, channel: str | None = None) -> list[WriteRow]:
        w = self.s.writes
        if w is None:
            return []

        def col(name: str, default: str = "NULL") -> str:
            return f'"{w[name]}"' if w.get(name) else default

        where = ['thread_id = ?', f'"{w["id"]}" = ?']
        args: list[Any] = [thread_id, checkpoint_id]
        if w["checkpoint_ns"]:
            where.append('"checkpoint_ns" = ?')
            args.append(ns)
        if channel is not None and w["channel"]:
            where.append('"channel" = ?')
            args.append(channel)
        sql = (f"SELECT {col('task_id', chr(39) * 2)}, {col('task_path', chr(39) * 2)}, {col('idx', '0')}, "
               f"{col('channel', chr(39) * 2)}, {col('type')}, {col('value')} FROM writes "
               f"WHERE {' AND '.join(where)} ORDER BY 1, 3")
        from daycare_gui.stores.cianaparrot.decode import decode_typed

        out = []
        for task, path, idx, chan, tag, value in self._rows(sql, tuple(args)):
            size = len(value) if isinstance(value, (bytes, str)) else 0
            out.append(WriteRow(str(task or ""), str(path or ""), int(idx or 0), str(chan or ""),
                                decode_typed(tag, value), size))
        return out

    def thread_ids(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT thread_id FROM checkpoints ORDER BY 1")]
