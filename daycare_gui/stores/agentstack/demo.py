"""A small, realistic AgentStack project for screenshots, benchmarks and trying the window: a config,
``data/aistack.db`` with every kind of record, written the way AgentStack writes them (deterministic)."""

from __future__ import annotations

import json
import math
import sqlite3
import struct
import time
import uuid
from pathlib import Path

from daycare_gui.stores.agentstack.ddl import create

BASE = 1_769_904_000_000  # 2026-02-01 00:00 UTC, ms
SPAN = 2 * 3_600_000  # how long before "now" the demo starts: its last record is an hour old


def _id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"agentstack-demo:{name}"))


def _vector(seed: int, dims: int = 384) -> bytes:
    values = [math.sin(seed * 7.1 + i * 0.37) for i in range(dims)]
    norm = math.sqrt(sum(x * x for x in values))
    return struct.pack(f"<{dims}f", *(x / norm for x in values))


def write_demo(folder, *, now_ms: int | None = None) -> Path:
    """Write the demo project into ``folder``; ``now_ms`` dates it relative to that moment (its records
    start :data:`SPAN` before it), else it starts at :data:`BASE`, the same bytes every time."""
    folder = Path(folder)
    base = BASE if now_ms is None else now_ms - SPAN
    (folder / "data").mkdir(parents=True, exist_ok=True)
    config = {"version": "1.6.1", "memory": {"path": "./data/aistack.db", "defaultNamespace": "default",
                                             "vectorSearch": {"enabled": True, "provider": "ollama",
                                                              "model": "nomic-embed-text"}},
              "providers": {"default": "anthropic", "anthropic": {"apiKey": "${ANTHROPIC_API_KEY}"}}}
    (folder / "aistack.config.json").write_text(json.dumps(config, indent=2) + "\n")
    db = folder / "data" / "aistack.db"
    create(db)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("BEGIN")
        _fill(conn, base)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return db


def _iso(ms: int, millis: bool = False) -> str:
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000))
    return text + (f".{ms % 1000:03d}Z" if millis else "Z")


def _fill(c: sqlite3.Connection, t: int) -> None:
    sessions = [("s-active", "active", None), ("s-ended", "ended", t + 3_600_000), ("s-error", "error", t + 90_000)]
    for i, (name, status, ended) in enumerate(sessions):
        c.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?)",
                  (_id(name), status, t + i * 1000, ended, json.dumps({"cwd": "/home/demo/shop", "user": "demo"})))

    memory = [
        ("architecture", "default", "The shop is a **FastAPI** service with a Postgres database and a React front end.",
         {"source": "readme"}, None),
        ("coding-style", "default", "Prefer small modules, type hints everywhere, and tests beside the code.",
         {"source": "user"}, "agent-coder"),
        ("deploy", "ops", "Deploys run from GitHub Actions; staging first, production after a manual approval.",
         {"owner": "ops"}, "agent-devops"),
        ("db-migrations", "ops", "Migrations use Alembic. Never edit an applied migration; add a new one.",
         None, "agent-devops"),
        ("todo", "session:" + _id("s-active"), "Fix the flaky checkout test, then review the payment retry logic.",
         {"priority": "high"}, "agent-coder"),
        ("scratch", "session:" + _id("s-ended"), "Left over from an ended session: the cart total rounding bug.",
         None, None),
    ]
    for i, (key, ns, content, meta, agent) in enumerate(memory):
        c.execute("INSERT INTO memory (id, key, namespace, content, embedding, metadata, agent_id, created_at, "
                  "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (_id("m-" + key), key, ns, content, _vector(i) if i < 4 else None,
                   json.dumps(meta) if meta else None, agent, t + i * 60_000, t + i * 60_000))
    # Two updates of "architecture", as AgentStack's store() does them: save the old state, then update.
    for n, new in enumerate(["The shop is a FastAPI service with a Postgres database, a Redis cache and a React "
                             "front end.",
                             "The shop is a **FastAPI** service with a Postgres database, a Redis cache and a "
                             "React front end.\nBackground jobs run on Celery."], 1):
        old = c.execute("SELECT key, namespace, content, metadata, updated_at FROM memory WHERE id = ?",
                        (_id("m-architecture"),)).fetchone()
        c.execute("INSERT INTO memory_versions (id, memory_id, version, key, namespace, content, metadata, "
                  "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (_id(f"v{n}"), _id("m-architecture"), n, *old))
        c.execute("UPDATE memory SET content = ?, updated_at = ? WHERE id = ?",
                  (new, t + 600_000 * n, _id("m-architecture")))
    for name in ("backend", "ops", "conventions"):
        c.execute("INSERT INTO tags VALUES (?, ?, ?)", (_id("t-" + name), name, t))
    for key, tag in (("architecture", "backend"), ("coding-style", "conventions"), ("deploy", "ops"),
                     ("db-migrations", "ops"), ("db-migrations", "backend")):
        c.execute("INSERT INTO memory_tags VALUES (?, ?, ?)", (_id("m-" + key), _id("t-" + tag), t))
    for a, b, kind in (("deploy", "db-migrations", "depends_on"), ("architecture", "db-migrations", "related_to")):
        c.execute("INSERT INTO memory_relationships VALUES (?, ?, ?, ?, ?, ?)",
                  (_id(f"r-{a}-{b}"), _id("m-" + a), _id("m-" + b), kind, None, t))

    tasks = [("root", None, "coordinator", "completed", "Ship the checkout fixes", "Done: 2 subtasks", None, 0),
             ("fix", "root", "coder", "completed", "Fix the flaky checkout test", "Made the clock injectable", "low", 1),
             ("review", "root", "reviewer", "running", "Review the payment retry logic", None, "high", 1),
             ("lost", None, "researcher", "pending", "Compare payment providers", None, "medium", 0),
             # a coder task that failed (AgentStack sets completed_at for failed ones too)
             ("retry", "root", "coder", "failed", "Retry payments with backoff",
              "Error: the payment sandbox refused the connection", "medium", 1)]
    for i, (name, parent, agent, status, inp, out, risk, depth) in enumerate(tasks):
        session = _id("s-error") if name == "lost" else _id("s-active")
        c.execute("INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (_id("k-" + name), session, agent, status, inp, out, t + i * 5000,
                   t + i * 5000 + 60_000 if status in ("completed", "failed") else None, risk,
                   _id("k-" + parent) if parent else None, depth, None))
    cp = _id("cp-1")
    subtasks = [{"id": "st-1", "agentType": "coder", "input": "Retry payments with backoff",
                 "estimatedRiskLevel": "high", "parentTaskId": _id("k-review")},
                {"id": "st-2", "agentType": "tester", "input": "Add retry tests", "estimatedRiskLevel": "low",
                 "parentTaskId": _id("k-review")}]
    c.execute("INSERT INTO consensus_checkpoints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (cp, _id("k-review"), _id("k-root"), json.dumps(subtasks), "high", "approved", "adversarial",
               "agent-adversarial", "agent", json.dumps({"approved": True, "rejectedSubtaskIds": ["st-2"],
                                                         "feedback": "Tests belong in the same change.",
                                                         "reviewedBy": "agent-adversarial",
                                                         "reviewerType": "agent"}),
               t + 10_000, t + 3_610_000, t + 70_000))
    c.execute("UPDATE tasks SET consensus_checkpoint_id = ? WHERE id = ?", (cp, _id("k-review")))
    for i, (kind, actor) in enumerate((("created", "system"), ("review_started", "agent"), ("approved", "agent"))):
        c.execute("INSERT INTO consensus_checkpoint_events VALUES (?, ?, ?, ?, ?, ?, ?)",
                  (_id(f"ce-{i}"), cp, kind, "agent-adversarial" if actor == "agent" else None, actor, None,
                   t + 10_000 + i * 30_000))
    reviews = [{"reviewId": "r1", "verdict": "REJECT", "summary": "Retries are not idempotent.",
                "issues": [{"id": "i1", "severity": "high", "title": "Double charge", "requiredFix": "Use an "
                            "idempotency key"}], "timestamp": _iso(t + 300_000)},
               {"reviewId": "r2", "verdict": "APPROVE", "summary": "Idempotency key added.", "issues": [],
                "timestamp": _iso(t + 540_000)}]
    c.execute("INSERT INTO review_loops VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("loop"), "agent-coder", "agent-adversarial", _id("s-active"), "approved", 2, 3,
               "def retry(pay):\n    return pay()", "def retry(pay, key):\n    return pay(idempotency_key=key)",
               json.dumps(reviews), "APPROVE", t + 20_000, t + 560_000, t + 560_000))
    for agent, kind, name in (("agent-coder", "coder", "Coder"), ("agent-devops", "devops", "Ops"),
                              ("agent-adversarial", "adversarial", "Red team")):
        c.execute("INSERT INTO agent_identities VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (agent, kind, "active", json.dumps(["read", "write"] if kind != "adversarial" else ["review"]),
                   1, name, f"The {kind} agent", None, t, t + 500_000, None, None, "demo", t + 500_000))
        for i, (action, prev, new) in enumerate((("created", None, "created"), ("activated", "created", "active"))):
            c.execute("INSERT INTO agent_identity_audit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (_id(f"au-{agent}-{i}"), agent, action, prev, new, None, "demo", None, t + i * 1000))
    c.execute("INSERT INTO active_agents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("aa-coder"), "coder", "coder-1", "running", _id("s-active"), "session:" + _id("s-active"),
               "agent-coder", t, t + 500_000, None))
    c.execute("INSERT INTO agent_resource_metrics VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              ("agent-coder", 42, 7, 5, 96, 3, 310_000, t, t + 100_000, t + 900_000, "warning", None, None,
               t + 900_000))
    thresholds = {"maxFilesAccessed": 50, "maxApiCalls": 100, "maxSubtasksSpawned": 20,
                  "maxTimeWithoutDeliverableMs": 1_800_000, "maxTokensConsumed": 500_000}
    c.execute("INSERT INTO resource_exhaustion_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("ex-1"), "agent-coder", "coder", "warning", "warned",
               json.dumps({"agentId": "agent-coder", "filesRead": 42, "apiCallsCount": 96}), json.dumps(thresholds),
               "maxApiCalls", t + 800_000))
    c.execute("INSERT INTO agent_deliverable_checkpoints VALUES (?, ?, ?, ?, ?, ?)",
              (_id("dl-1"), "agent-coder", "tests_passed", "Checkout tests green", json.dumps(["tests/test_cart.py"]),
               t + 100_000))
    c.execute("INSERT INTO projects VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("p-shop"), "Shop", "The web shop", "/home/demo/shop", "active", t, t + 700_000, None))
    c.execute("INSERT INTO project_tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("pt-retry"), _id("p-shop"), _id("s-active"), "Payment retries", "Retry failed payments safely",
               "specification", 3, json.dumps(["agent-coder"]), t, t + 700_000, None))
    c.execute("INSERT INTO specifications VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("sp-retry"), _id("pt-retry"), "technical-design", "Idempotent retries",
               "## Design\n\nEvery payment carries an idempotency key.", 2, "approved", "agent-coder",
               "agent-adversarial", t, t + 700_000, t + 700_000, json.dumps([{"author": "agent-adversarial",
                                                                              "content": "Looks right."}])))
    c.execute("INSERT INTO plugins VALUES (?, ?, ?, ?, ?)",
              ("github-sync", "0.3.1", 1, json.dumps({"repo": "demo/shop", "token": "ghp_demo000000000000"}), t))
    c.execute("INSERT INTO plugins VALUES (?, ?, ?, ?, ?)", ("slack-notify", "1.0.0", 0, None, t))
    c.execute("INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              (_id("u-admin"), "admin@aistack.local", "admin", "$2b$10$" + "x" * 53, "admin",
               _iso(t, millis=True), _iso(t, millis=True), None))
