"""The three changes the window may make: a memory entry's content and metadata, a task's status, a
plugin's enabled flag.

Each one: refused while another process has the database open (unless forced); one ``BEGIN IMMEDIATE``
transaction with a short busy timeout; the row re-read inside it and compared with what the user saw
(else WriteConflict, nothing written); and the same side effects AgentStack's own code has (a memory
update first saves the previous state as a version; a task's ``completed_at`` follows its status).
The FTS index follows memory through the store's own triggers, which we check exist and work first and
whose result we verify before committing.
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from typing import Any

from daycare_gui.stores.agentstack import values as v
from daycare_gui.stores.agentstack.database import BadText, DatabaseError
from daycare_gui.stores.agentstack.memory_entry import memory_select, memory_state
from daycare_gui.stores.agentstack.schema import TASK_STATUSES
from daycare_gui.stores.agentstack.search import plain_query
from daycare_gui.stores.api import WriteConflict, WriteRefused
from daycare_gui.stores.common.secrets import MASK
from daycare_gui.stores.records import Row

VERIFY_WORDS = 8


def _guard(store, force: bool) -> None:
    reason = store.writes_blocked()
    if reason and not force:
        raise WriteRefused(reason)


def _unknown(changes: dict, allowed: tuple[str, ...]) -> None:
    extra = sorted(set(changes) - set(allowed))
    if extra:
        raise WriteRefused(f"cannot change {', '.join(extra)} here (only {', '.join(allowed)})")


def _write(store, work) -> None:
    try:
        store.db.write(work)
    except DatabaseError as exc:
        raise WriteRefused(f"nothing was written: {exc}") from exc
    finally:
        store.changed()


def _dict(conn: sqlite3.Connection, sql: str, params: tuple) -> dict | None:
    cur = conn.execute(sql, params)
    found = cur.fetchone()
    return None if found is None else dict(zip([d[0] for d in cur.description], found))


def _now_after(previous: Any) -> int:
    now = int(time.time() * 1000)
    return max(now, previous + 1) if isinstance(previous, int) else now


# -- memory ----------------------------------------------------------------------------------------------


def update_memory(spec, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
    store = spec.store
    raw = row.raw if isinstance(row.raw, dict) else {}
    if "rowid" not in raw:
        raise WriteRefused("only memory entries can be edited, not their groups")
    _unknown(changes, ("content", "metadata"))
    content = changes.get("content", raw.get("content"))
    if not isinstance(content, str):
        raise WriteRefused("content must be text")
    if isinstance(raw.get("content"), BadText) or isinstance(raw.get("metadata"), BadText):
        raise WriteRefused("this entry holds text that is not valid UTF-8; saving would lose those bytes")
    # Metadata counts as edited only when its text differs from what was shown (masked): left alone, the
    # stored text is written back exactly as it is, secrets and spacing included
    metadata_text = changes.get("metadata", raw.get("metadata"))
    meta_edited = (metadata_text or None) != (raw.get("metadata") or None)
    new_meta = _metadata_value(metadata_text) if meta_edited else None
    if content == raw.get("content") and not meta_edited:
        return row  # nothing changed: nothing is written
    _guard(store, force)

    def work(conn: sqlite3.Connection) -> None:
        _check_fts(store, conn)
        current = _dict(conn, f"SELECT {memory_select(store)} FROM memory WHERE id = ?", (raw["id"],))
        if current is None:
            raise WriteConflict(f"memory entry {raw.get('key')!r} was deleted since it was read")
        if memory_state(current) != {k: raw.get(k) for k in memory_state(current)}:
            raise WriteConflict(f"memory entry {raw.get('key')!r} changed since it was read")
        meta_out = current["metadata"]
        if meta_edited:
            meta_out = None  # (emptied)
            if new_meta is not None:
                restored = _restore_masked(new_meta, current["metadata"])
                meta_out = metadata_text if restored is _SAME else restored
        if store.has("memory_versions"):  # what AgentStack's store() does before an update
            version = conn.execute("SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE memory_id = ?",
                                   (current["id"],)).fetchone()[0]
            conn.execute("INSERT INTO memory_versions (id, memory_id, version, key, namespace, content, metadata, "
                         "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (str(uuid.uuid4()), current["id"], version, current["key"],
                          current["namespace"] if current["namespace"] is not None else "default",
                          current["content"], current["metadata"], current["updated_at"]))
        conn.execute("UPDATE memory SET content = ?, metadata = ?, updated_at = ? WHERE id = ?",
                     (content, meta_out, _now_after(current["updated_at"]), current["id"]))
        if "memory_fts" in store.virtual and not index_finds(conn, current["rowid"], content):
            raise WriteRefused("the search index did not follow the change (its triggers did not run as "
                               "expected); nothing was written. Run the index check.")

    _write(store, work)
    return spec.row(row.key) or row


_SAME = object()


def _metadata_value(text: Any) -> dict | None:
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if not isinstance(text, str):
        raise WriteRefused("metadata must be JSON text")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise WriteRefused(f"metadata is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise WriteRefused("metadata must be a JSON object ({...}), as AgentStack stores it")
    return value


def _restore_masked(new: dict, stored_text: Any):
    """Values the user left as they were shown, masked, get their stored value back: a secret under a
    secret-looking key, a password inside a URL. Returns the JSON text to store, or _SAME when no masked
    value was left in (the user's text is stored exactly as typed)."""
    try:
        stored = json.loads(stored_text) if isinstance(stored_text, str) else None
    except ValueError:
        stored = None
    restored, touched = _restore(new, stored, v.shown_value(stored), "metadata")
    if not touched:
        return _SAME
    return json.dumps(restored, ensure_ascii=False, separators=(",", ":"))  # JSON.stringify's form


def _restore(new: Any, old: Any, shown: Any, where: str) -> tuple[Any, bool]:
    """``new`` with each masked string that reads as ``shown`` (the stored ``old`` as it was shown, at the
    same place) replaced by ``old``; a masked string anywhere else is refused: its secret is not known."""
    if isinstance(new, dict):
        out, touched = {}, False
        for key, value in new.items():
            prior = old.get(key) if isinstance(old, dict) else None
            seen = shown.get(key) if isinstance(shown, dict) else None
            out[key], t = _restore(value, prior, seen, f"{where} {key!r}")
            touched = touched or t
        return out, touched
    if isinstance(new, list):
        items = [_restore(x, old[i] if isinstance(old, list) and i < len(old) else None,
                          shown[i] if isinstance(shown, list) and i < len(shown) else None, f"{where} item {i + 1}")
                 for i, x in enumerate(new)]
        return [x for x, _ in items], any(t for _, t in items)
    if isinstance(new, str) and MASK in new:
        if new == shown and old is not None:
            return old, old != new
        raise WriteRefused(f"{where} holds a masked value (••••) that is not the stored one left as shown: "
                           "type the secret in full, or remove it")
    return new, False


def _check_fts(store, conn: sqlite3.Connection) -> None:
    """The store's triggers write memory_fts on every memory change: that needs FTS5 and the triggers."""
    if "memory_fts" not in store.virtual:
        return
    try:
        conn.execute("SELECT 1 FROM memory_fts LIMIT 0").fetchall()
    except sqlite3.Error as exc:
        raise WriteRefused(f"this SQLite cannot maintain AgentStack's search index ({exc}); a change to memory "
                           "would fail or leave the index stale, so nothing was written") from exc
    triggers = [sql or "" for (sql,) in conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'memory'")]
    if not any("UPDATE" in t.upper() and "MEMORY_FTS" in t.upper() for t in triggers):
        raise WriteRefused("memory has no update trigger feeding memory_fts (the store's own sync is missing); "
                           "a change would leave the search index stale, so nothing was written")


def index_finds(conn: sqlite3.Connection, rowid: int, text: str) -> bool:
    """Does memory_fts find row ``rowid`` by the words of ``text``? (True when the text has no words.)"""
    query = plain_query(" ".join(v.short(text, 2000).split()[:VERIFY_WORDS]))
    if not query:
        return True
    return conn.execute("SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? AND rowid = ?",
                        (query, rowid)).fetchone() is not None


# -- tasks and plugins -----------------------------------------------------------------------------------


def set_task_status(spec, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
    store = spec.store
    raw = row.raw if isinstance(row.raw, dict) else {}
    _unknown(changes, ("status",))
    status = changes.get("status", raw.get("status"))
    if status not in TASK_STATUSES:
        raise WriteRefused(f"status must be one of {', '.join(TASK_STATUSES)}")
    if status == raw.get("status"):
        return row
    _guard(store, force)

    def work(conn: sqlite3.Connection) -> None:
        current = _dict(conn, "SELECT status, output, completed_at FROM tasks WHERE id = ?", (raw.get("id"),))
        if current is None:
            raise WriteConflict("the task was deleted since it was read")
        if any(current[k] != raw.get(k) for k in current):
            raise WriteConflict("the task changed since it was read")
        # As AgentStack's updateTaskStatus: finished tasks get completed_at now, others none. (Unlike it, the
        # output is kept.)
        done = int(time.time() * 1000) if status in ("completed", "failed") else None
        conn.execute("UPDATE tasks SET status = ?, completed_at = ? WHERE id = ?", (status, done, raw["id"]))

    _write(store, work)
    return spec.row(row.key) or row


def set_plugin_enabled(spec, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
    store = spec.store
    raw = row.raw if isinstance(row.raw, dict) else {}
    _unknown(changes, ("enabled",))
    enabled = changes.get("enabled")
    if not isinstance(enabled, bool):
        raise WriteRefused("enabled must be true or false")
    if raw.get("enabled") is not None and bool(raw.get("enabled")) == enabled:
        return row
    _guard(store, force)

    def work(conn: sqlite3.Connection) -> None:
        current = _dict(conn, "SELECT version, enabled, config FROM plugins WHERE name = ?", (raw.get("name"),))
        if current is None:
            raise WriteConflict("the plugin was removed since it was read")
        seen = {"version": raw.get("version"), "enabled": raw.get("enabled"), "config": raw.get("config")}
        if {**current, "config": v.shown_json(current["config"])} != seen:
            raise WriteConflict("the plugin changed since it was read")
        conn.execute("UPDATE plugins SET enabled = ? WHERE name = ?", (int(enabled), raw["name"]))

    _write(store, work)
    return spec.row(row.key) or row
