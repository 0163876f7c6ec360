"""Checks and the one repair the bot itself would make: raising session counters.

At start-up CianaParrot raises each chat's counter in ``session_counters.json`` to the highest ``_s<N>``
thread in its checkpoints (never lowering one). A counter left lower makes ``/new`` pick a thread that
already holds an old conversation. The repair does the same raise, faithfully (only the changed numbers'
text, missing chats appended), backed up and atomic, refused while the bot runs unless forced, and refused
on a counters file it cannot read (writing would lose the entries the bot may still recover by hand).
"""

from __future__ import annotations

import json
import sqlite3

from daycare_gui.stores.api import Actions, StoreAction, WriteConflict, WriteRefused
from daycare_gui.stores.cianaparrot import json_splice
from daycare_gui.stores.cianaparrot.bot_json import BOM, bom_refusal, repeat_refusal, same_values
from daycare_gui.stores.cianaparrot.safe_write import current_bytes, replace_file
from daycare_gui.stores.cianaparrot.sqlite_ro import emptiness
from daycare_gui.stores.common.edit.atomic import sha256_of

CHECK = StoreAction("counters-check", "Check session counters",
                    "Compares session_counters.json with the highest _s<N> thread of each chat (read-only).")
REPAIR = StoreAction("counters-repair", "Raise session counters",
                     "Raises every counter lower than its chat's highest _s<N> thread, as the bot does at start-up. "
                     "Writes session_counters.json (backed up first).", writes=True)
DB_CHECK = StoreAction("db-check", "Check the checkpoints database",
                       "Runs SQLite's quick_check on checkpoints.db (read-only).")


class CianaActions(Actions):
    def __init__(self, store) -> None:
        self.store = store

    def actions(self) -> list[StoreAction]:
        out = []
        if self.store.layout.counters_file is not None:
            out += [CHECK, REPAIR]
        if self.store.db is not None:
            out.append(DB_CHECK)
        return out

    def count(self) -> int | None:
        return len(self.store.counter_findings())

    def run(self, action_id: str, *, force: bool = False) -> str:
        if action_id == CHECK.id:
            found = self.store.counter_findings()
            if not found:
                return "Every session counter is at or above its chat's highest thread."
            return "Lower than a thread: " + "; ".join(f"{c} is {v}, thread {c}_s{t} exists" for c, v, t in found)
        if action_id == REPAIR.id:
            return self._repair(force)
        if action_id == DB_CHECK.id:
            return self._db_check()
        raise WriteRefused(f"unknown action {action_id!r}")

    def _db_check(self) -> str:
        conn = self.store.db.conn
        try:
            rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
            empty = emptiness(conn, self.store.layout.db)
        except sqlite3.Error as exc:
            return f"The check could not run: {exc}"
        if rows != ["ok"]:  # damage is reported even in a file without tables (a broken freelist, say)
            return "checkpoints.db has damage: " + "; ".join(map(str, rows[:10]))
        if empty:  # "passed" would suggest checkpoints were checked; there are none
            return f"checkpoints.db is empty ({empty}): there is nothing in it to check."
        return "checkpoints.db passed SQLite's quick check."

    def _repair(self, force: bool) -> str:
        found = self.store.counter_findings()
        if not found:
            return "Nothing to repair: no counter is lower than its chat's highest thread."
        path = self.store.layout.counters_file
        blocked = self.store.writes_blocked()
        if blocked and not force:
            raise WriteRefused(f"{blocked}; it rewrites session_counters.json on /new. Stop the bot first, "
                               "or insist to write anyway")
        data = current_bytes(path)  # (a folder in its place is refused)
        if data is not None:
            if data.startswith(BOM):  # the bot starts with no counters at all: raising some would not help
                raise WriteRefused(bom_refusal("session_counters.json"))
            try:
                text = data.decode("utf-8")
                root = json_splice.parse(text)
                current = json.loads(text)
            except (UnicodeDecodeError, ValueError) as exc:
                raise WriteRefused(f"session_counters.json cannot be read ({exc}); repair it by hand first") from exc
            if root.kind != "object":
                raise WriteRefused("session_counters.json is not an object; repair it by hand first")
            if not same_values(current, self.store.counters or {}):  # (NaN is unequal to itself)
                raise WriteConflict("session_counters.json changed since it was read; nothing was written")
            try:
                for chat, _value, top in found:
                    text = json_splice.set_member(text, root, chat, top)
                    root = json_splice.parse(text)
            except json_splice.RepeatedKey as exc:
                raise WriteRefused(repeat_refusal("session_counters.json", exc)) from exc
            expected = sha256_of(data)
        elif self.store.counters:
            raise WriteConflict("session_counters.json was deleted since it was read; nothing was written")
        else:
            text = json.dumps({c: t for c, _, t in found}, indent=2)
            expected = None
        backup = replace_file(path, text.encode("utf-8"), expected, blocked=blocked, force=True,
                              data_dir=self.store.layout.data_dir, root=self.store.layout.root,
                              within=(self.store.layout.workspace,))
        self.store.counters = json.loads(text)
        done = ", ".join(f"{c} {v}→{t}" for c, v, t in found)
        return f"Raised {len(found)} counter(s): {done}." + (f" Backup: {backup}" if backup else "")

