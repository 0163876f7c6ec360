"""Builds AgentStack databases in tmp_path the way AgentStack writes them (its schema, its triggers keep
memory_fts in step), including old generations and the damage the as-built notes list."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import struct
import uuid
from pathlib import Path

from daycare_gui.stores.agentstack.ddl import create

T0 = 1_769_904_000_000


def vector(values) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


class Builder:
    """``Builder(path, generation)`` creates the file; helpers add rows; ``close()`` checkpoints the WAL."""

    def __init__(self, path: Path, generation: str = "current", *, omit: tuple[str, ...] = (), wal: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        create(self.path, generation, omit=omit, wal=wal)
        self.conn = sqlite3.connect(self.path, isolation_level=None)
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA synchronous = OFF")  # test speed only; the file format is unchanged
        self.tick = 0

    def _t(self) -> int:
        self.tick += 1000
        return T0 + self.tick

    def has(self, table: str, column: str) -> bool:
        return column in [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]

    def memory(self, key: str, content: str, namespace: str | None = "default", *, metadata=None,
               agent_id: str | None = None, embedding: bytes | None = None, id: str | None = None) -> str:
        mid = id or str(uuid.uuid4())
        t = self._t()
        cols = ["id", "key", "namespace", "content", "embedding", "metadata", "created_at", "updated_at"]
        vals = [mid, key, namespace, content, embedding,
                metadata if isinstance(metadata, (str, type(None))) else json.dumps(metadata), t, t]
        if self.has("memory", "agent_id"):
            cols.append("agent_id")
            vals.append(agent_id)
        self.conn.execute(f"INSERT INTO memory ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", vals)
        return mid

    def update_memory(self, mid: str, content: str) -> None:
        """As AgentStack's store() on an existing key: save the old state as a version, then update."""
        old = self.conn.execute("SELECT key, namespace, content, metadata, updated_at FROM memory WHERE id = ?",
                                (mid,)).fetchone()
        version = self.conn.execute("SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE memory_id = ?",
                                    (mid,)).fetchone()[0]
        self.conn.execute("INSERT INTO memory_versions (id, memory_id, version, key, namespace, content, metadata, "
                          "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (str(uuid.uuid4()), mid, version, *old))
        self.conn.execute("UPDATE memory SET content = ?, updated_at = ? WHERE id = ?", (content, self._t(), mid))

    def tag(self, mid: str, name: str) -> None:
        found = self.conn.execute("SELECT id FROM tags WHERE name = ?", (name,)).fetchone()
        tid = found[0] if found else str(uuid.uuid4())
        if not found:
            self.conn.execute("INSERT INTO tags VALUES (?, ?, ?)", (tid, name, self._t()))
        self.conn.execute("INSERT INTO memory_tags VALUES (?, ?, ?)", (mid, tid, self._t()))

    def relate(self, a: str, b: str, kind: str = "related_to") -> str:
        rid = str(uuid.uuid4())
        self.conn.execute("INSERT INTO memory_relationships VALUES (?, ?, ?, ?, ?, ?)",
                          (rid, a, b, kind, None, self._t()))
        return rid

    def session(self, status: str = "active", *, metadata=None) -> str:
        sid = str(uuid.uuid4())
        t = self._t()
        self.conn.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)",
                          (sid, status, t, None if status == "active" else t + 500,
                           json.dumps(metadata) if metadata is not None else None))
        return sid

    def task(self, input: str, *, session: str | None = None, status: str = "pending", agent_type: str = "coder",
             parent: str | None = None, depth: int | None = None, risk: str | None = None, output=None) -> str:
        tid = str(uuid.uuid4())
        cols = ["id", "session_id", "agent_type", "status", "input", "output", "created_at"]
        vals = [tid, session, agent_type, status, input, output, self._t()]
        if self.has("tasks", "parent_task_id"):
            cols += ["parent_task_id", "depth", "risk_level"]
            vals += [parent, depth, risk]
        self.conn.execute(f"INSERT INTO tasks ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", vals)
        return tid

    def plugin(self, name: str, *, enabled: int = 1, config=None, version: str = "1.0.0") -> None:
        self.conn.execute("INSERT INTO plugins VALUES (?, ?, ?, ?, ?)",
                          (name, version, enabled, json.dumps(config) if config is not None else None, self._t()))

    def user(self, username: str, email: str, *, password_hash: str = "$2b$10$" + "s3cr3thash" * 5,
             role: str = "developer") -> str:
        uid = str(uuid.uuid4())
        self.conn.execute("INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          (uid, email, username, password_hash, role, "2026-02-01T00:00:00.000Z",
                           "2026-02-01T00:00:00.000Z", None))
        return uid

    def sql(self, statement: str, params=()) -> None:
        self.conn.execute(statement, params)

    def close(self) -> Path:
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()
        return self.path


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` → sha256 (compare before/after to prove nothing was written)."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def plain(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection that never writes (what tests compare against)."""
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)


def all_rows(collections, cid: str, page: int = 7) -> list:
    out, offset = [], 0
    while True:
        got = collections.rows(cid, offset, page)
        out += got
        if len(got) < page:
            return out
        offset += page
