"""The writes the crash tests kill, as functions: a child process runs ``loop`` (``python -c`` with
:data:`CHILD`), the parent runs one round in-process as the rerun (no second interpreter to start)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

CHILD = """
import sys
from tests.crash import writers
writers.loop(sys.argv[1], sys.argv[2], int(sys.argv[3]))
"""


def loop(name: str, root: str, rounds: int) -> None:
    write = ROUNDS[name]
    print("go", flush=True)
    for i in range(rounds):
        write(Path(root), i)


def _linggen(root: Path, i: int) -> None:
    from daycare_gui.stores.api import Collections, Documents
    from daycare_gui.stores.linggen import KIND

    store = KIND.open(root)
    docs, cols = store.capability(Documents), store.capability(Collections)
    ref = next(d for d in docs.documents() if d.id == "agent:ling")
    old = docs.read(ref)
    body = b"---\nname: ling\ndescription: An agent\n---\n\n" + bytes([65 + i % 2]) * 1_500_000
    docs.save(ref, body, hashlib.sha256(old).hexdigest())
    row = cols.rows("permissions", 0, 10)[0]
    cols.update("permissions", row, {"tool_allows": (["Read"], ["Read", "Write", "Edit"])[i % 2]})


def _ciana(root: Path, i: int) -> None:
    from daycare_gui.stores.api import Actions, Documents, Tasks
    from daycare_gui.stores.cianaparrot import KIND
    from daycare_gui.stores.common.edit.atomic import save_atomic, sha256_of

    counters = root / "data" / "session_counters.json"
    # the bot's part: a counter left low (written atomically, as a finished state)
    save_atomic(counters, json.dumps({"telegram_123456": 1}, indent=2).encode(),
                expected_sha256=sha256_of(counters.read_bytes()))
    with KIND.open(root) as store:
        store.capability(Actions).run("counters-repair")
        tasks = store.capability(Tasks)
        task = next(t for t in tasks.tasks() if t.id == "a1b2c3d4")
        tasks.update(task, {"value": "0 8 * * *" if i % 2 else "30 7 * * 1-5", "active": i % 2 == 1})
        docs = store.capability(Documents)
        ref = next(d for d in docs.documents() if d.group == "Skills")
        old = docs.read(ref)
        new = old.split(b"\n\n#", 1)[0] + f"\n\n# round {i % 2}\n".encode() + b"x" * 500_000
        docs.save(ref, new, sha256_of(old))


def _pglite(root: Path, i: int) -> None:
    from daycare_gui.stores import api, registry

    with registry.open_store(root) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        tasks.update(task, {"enabled": i % 2 == 0})


ROUNDS = {"linggen": _linggen, "ciana": _ciana, "pglite": _pglite}

if __name__ == "__main__":
    loop(sys.argv[1], sys.argv[2], int(sys.argv[3]))
