"""Sessions with their tasks, the task tree, consensus checkpoints, review loops, resource metrics,
projects, agent identities, plugins and users (never a password hash) — and the raw table browser."""

import json
import re

from daycare_gui.stores.agentstack import write_demo
from daycare_gui.stores.api import Charts, Collections, Tables
from tests.stores.agentstack.builder import T0, all_rows, plain

HASH = "$2b$10$" + "s3cr3thash" * 5


def test_sessions_and_their_tasks(build, opened):
    b = build()
    live, over, broken = b.session("active", metadata={"cwd": "/x"}), b.session("ended"), b.session("error")
    t1 = b.task("write code", session=live, status="running")
    b.task("stuck one", session=over, status="pending")
    b.memory("n", "x", namespace=f"session:{live}")
    b.close()
    c = opened(b.path).capability(Collections)
    rows = {r.key: r for r in all_rows(c, "sessions")}
    assert rows[live].values[1:2] == ("active",) and rows[live].values[4:] == (1, 1)
    assert rows[broken].flag == "error"
    assert ("tasks", t1) in [link.value for link in rows[live].links]
    assert ("memory", f"ns:session:{live}") in [link.value for link in rows[live].links]
    assert '"cwd": "/x"' in rows[live].markdown
    tasks = {r.values[0]: r for r in all_rows(c, "tasks")}
    assert tasks["stuck one"].flag == "stuck"  # its session ended: nothing will run it


def test_task_tree_pre_order_with_depth_risk_and_loops(build, opened):
    b = build()
    root = b.task("root", status="completed", depth=0)
    child = b.task("child", parent=root, depth=1, risk="high", status="running")
    b.task("grandchild", parent=child, depth=2, output="done")
    b.task("second root", depth=0)
    b.sql("PRAGMA foreign_keys = OFF")  # damage: a parent that does not exist
    b.task("orphan", parent="no-such-task", depth=1)
    b.task("wrong depth", parent=root, depth=5, risk="low")
    loop_a = b.task("loop a")
    loop_b = b.task("loop b", parent=loop_a)
    b.sql("UPDATE tasks SET parent_task_id = ? WHERE id = ?", (loop_b, loop_a))
    b.close()
    c = opened(b.path).capability(Collections)
    assert next(x for x in c.collections() if x.id == "tasks").tree
    rows = all_rows(c, "tasks", 3)
    assert [r.values[0] for r in rows] == ["root", "child", "grandchild", "wrong depth", "second root", "orphan",
                                           "loop a", "loop b"]
    by = {r.values[0]: r for r in rows}
    assert by["child"].parent == root and by["grandchild"].parent == child and by["orphan"].parent is None
    assert by["wrong depth"].parent == root
    assert by["child"].flag == "high risk" and by["child"].values[3] == "high"
    assert "depth says 5 but the parent chain is 1 deep" in by["wrong depth"].problem
    assert "loops" in by["loop a"].problem and by["loop a"].parent is None
    assert "done" in by["grandchild"].markdown
    assert ("tasks", root) in [link.value for link in by["child"].links]
    assert c.size("tasks") == 8


def test_old_tasks_without_tree_columns_are_flat(build, opened):
    b = build(generation="pre-task-tree")
    b.task("one")
    b.task("two", status="failed")
    b.close()
    c = opened(b.path).capability(Collections)
    assert not next(x for x in c.collections() if x.id == "tasks").tree
    rows = all_rows(c, "tasks")
    assert [(r.values[0], r.parent, r.flag) for r in rows] == [("one", None, ""), ("two", None, "failed")]


def test_demo_store_lists(tmp_path, opened):
    write_demo(tmp_path)
    store = opened(tmp_path)
    c = store.capability(Collections)
    consensus = all_rows(c, "consensus")[0]
    assert "`st-1` coder (risk high): Retry payments with backoff" in consensus.markdown
    assert "rejected subtasks: `st-2`" in consensus.markdown
    assert consensus.markdown.index("· created") < consensus.markdown.index("· review_started") < \
        consensus.markdown.index("· approved by")
    loop = all_rows(c, "review-loops")[0]
    assert loop.values[2] == "2/3" and "Double charge" in loop.markdown
    metrics = all_rows(c, "resource-metrics")[0]
    assert metrics.flag == "warning" and "→ **warning**, warned (triggered by maxApiCalls, limit 100)" in metrics.markdown
    event = all_rows(c, "exhaustion-events")[0]
    assert "maxApiCalls: 100 ← triggered" in event.markdown
    projects = all_rows(c, "projects")
    assert [r.key[:2] for r in projects] == ["p:", "t:", "s:"]
    assert (c.items("projects"), c.size("projects")) == (1, 3)  # one project (with its task and spec)
    assert projects[1].parent == projects[0].key and projects[2].parent == projects[1].key
    agents = all_rows(c, "agents")
    assert [r.values[0] for r in agents if r.parent is None] == ["Red team", "Coder", "Ops"]
    audit = [r for r in agents if r.parent == "agent-coder"]
    assert c.items("agents") == 3 and c.size("agents") == len(agents)  # identities, not their audit rows
    assert [r.values[0] for r in audit] == ["created", "activated"]
    plugins = {r.key: r for r in all_rows(c, "plugins")}
    assert plugins["github-sync"].values[2] is True and plugins["slack-notify"].values[2] is False
    assert "ghp_demo" not in repr(plugins["github-sync"])
    assert {d.series for d in store.capability(Charts).activity_per_day()} == {"sessions", "tasks",
                                                                            "memory changes"}
    for cid in (x.id for x in c.collections()):  # every link in every list leads to a row
        for row in all_rows(c, cid):
            for link in row.links:
                assert c.row(*link.value) is not None, (cid, row.key, link)


def test_users_never_show_the_password_hash_and_the_default_admin_is_flagged(build, opened, capsys):
    b = build()
    admin = b.user("admin", "admin@aistack.local", password_hash=HASH, role="admin")
    b.user("ann", "ann@example.org", password_hash=HASH)
    b.sql("INSERT INTO refresh_tokens VALUES ('r1', ?, 'tokenhashvalue123', '2099-01-01', '2026-01-01', 0)", (admin,))
    b.close()
    store = opened(b.path)
    c = store.capability(Collections)
    rows = {r.values[0]: r for r in all_rows(c, "users")}
    assert rows["admin"].flag == "security" and rows["ann"].flag == ""
    assert "default admin account" in rows["admin"].markdown and rows["admin"].values[5] == 1
    tables = store.capability(Tables)
    assert "password_hash" not in tables.columns("users")
    assert tables.rows("refresh_tokens", 0, 5)[0][2] == "••••••••"
    assert any("default admin account" in p.message and p.severity == "warning" for p in store.problems)
    from daycare_gui.cli import main

    main(["inspect", str(b.path), "--json"])
    report = capsys.readouterr().out
    assert json.loads(report)["security"] == {"users": 2, "default_admin": True}
    everything = report + repr(all_rows(c, "users")) + repr([tables.rows(t.name, 0, 100) for t in tables.tables()])
    assert "s3cr3thash" not in everything and "tokenhashvalue" not in everything


def test_tables_list_every_table_and_hide_the_fts_shadows(build, opened):
    b = build()
    b.memory("k", "x", embedding=b"\x00\x00\x80\x3f")
    b.close()
    store = opened(b.path)
    tables = store.capability(Tables)
    refs = tables.tables()
    assert len([t for t in refs if not t.hidden]) == 26 == tables.count()
    assert {t.name for t in refs if t.hidden} == {"memory_fts_data", "memory_fts_idx", "memory_fts_docsize",
                                                  "memory_fts_config"}
    row = tables.rows("memory", 0, 1)[0]
    assert "<embedding: 1 d, norm 1.000>" in row
    conn = plain(b.path)
    assert tables.rows("memory_fts_docsize", 0, 10) == [tuple(
        f"<{len(v)} bytes: {v[:16].hex()}…>" if isinstance(v, bytes) else v for v in r)
        for r in conn.execute("SELECT * FROM memory_fts_docsize")]
    conn.close()
    assert tables.rows("no_such_table", 0, 5) == [] and tables.rows('memory"; DROP', 0, 5) == []
    assert T0  # times are ms since the epoch in every table but users/refresh_tokens


def test_links_never_lead_nowhere_even_when_rows_they_name_are_gone(tmp_path, opened):
    db = write_demo(tmp_path)
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("PRAGMA foreign_keys = OFF")  # damage AgentStack's cascades would have prevented
    for table in ("sessions", "agent_identities", "agent_resource_metrics", "consensus_checkpoints", "projects"):
        conn.execute(f"DELETE FROM {table}")
    conn.execute("DELETE FROM tasks WHERE parent_task_id IS NULL")
    conn.execute("DELETE FROM memory WHERE key = 'db-migrations'")
    conn.commit()
    conn.close()
    store = opened(tmp_path)
    c = store.capability(Collections)
    for cid in (x.id for x in c.collections()):
        rows = all_rows(c, cid)
        keys = {r.key for r in rows}
        for row in rows:
            assert row.parent is None or row.parent in keys, (cid, row.key)
            for link in row.links:
                assert c.row(*link.value) is not None, (cid, row.key, link)
    problems = " ".join(p.message for p in store.problems)
    assert "does not exist" in problems and "no longer exists" not in problems


def test_a_task_embedding_of_the_wrong_size_is_described_in_words_that_agree(build, opened):
    b = build()
    tid = b.task("embed me")
    b.sql("INSERT INTO task_embeddings (task_id, embedding, model, dimensions, created_at) VALUES (?, ?, ?, ?, ?)",
          (tid, b"\x00" * 5, "test-model", 1, T0))
    b.close()
    row = opened(b.path).capability(Collections).row("tasks", tid)
    assert re.search(r"task embedding has 5 bytes for 1 dimension\b", row.problem)
