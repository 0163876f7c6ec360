"""A realistic demo of today's Daycare, written into a PostgreSQL database or a new PGlite folder.

Deterministic for a given ``now_ms``: the same store every time. The schema is ``schema.sql`` (what
Daycare's 20 migrations produce); the conversations are the small demo's scripted sessions, so a PGlite
store reads like a SQLite one. ``scale="large"`` adds 1,000 agents, 20,000 sessions and 1,000,000 history
records for the benchmark.
"""

from __future__ import annotations

import random
from pathlib import Path

from daycare_gui.stores.daycare.pg.catalog import MIGRATIONS
from daycare_gui.stores.daycare.pg.demo_token_stats import hourly_rows, mark_sources

DAY = 86_400_000
ARRAY_COLUMNS = {"scope_ids"}  # text[]; every other list is jsonb
SCHEMA = Path(__file__).with_name("schema.sql")


def _ins(cur, table: str, rows: list[dict]) -> None:
    if not rows:
        return
    cols = list(dict.fromkeys(c for r in rows for c in r))
    sql = f'INSERT INTO "{table}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) VALUES ({", ".join(["%s"] * len(cols))})'
    from psycopg.types.json import Jsonb


    def value(column, v):
        return Jsonb(v) if isinstance(v, dict) or (isinstance(v, list) and column not in ARRAY_COLUMNS) else v

    _insert_rows(cur, sql.split(" VALUES ")[0], [tuple(value(c, r.get(c)) for c in cols) for r in rows])


def _insert_rows(cur, head: str, rows: list[tuple], budget: int = 4_000, max_params: int = 240) -> None:
    """Multi-row INSERTs of about ``budget`` bytes and at most ``max_params`` parameters each. (Written when
    the sidecar used pglite-socket 0.0.20, which stalled on pipelined ``executemany`` and dropped Binds of 800
    parameters; the sidecar now frames messages itself and takes both, see test_sidecar_wire.py.)"""
    part: list[tuple] = []
    size = 0
    for row in rows:
        row_size = sum(len(str(getattr(v, "obj", v))) for v in row) + 16
        if part and (size + row_size > budget or (len(part) + 1) * len(row) > max_params):
            _flush(cur, head, part)
            part, size = [], 0
        part.append(row)
        size += row_size
    if part:
        _flush(cur, head, part)


def _flush(cur, head: str, part: list[tuple]) -> None:
    one = "(" + ", ".join(["%s"] * len(part[0])) + ")"
    cur.execute(f"{head} VALUES {', '.join([one] * len(part))}", [v for row in part for v in row])


def _versioned(now: int, **row) -> dict:
    return {"version": 1, "valid_from": now, "valid_to": None, **row}


DEMO_PROCESS_ENV = {"API_TOKEN": "sk-live-demo-secret-1234"}


def write_pg_demo(conninfo: str, *, now_ms: int, scale: str = "small", progress=None) -> dict:
    """Write the demo into an empty database (``conninfo``: a libpq URL). Returns counts written."""
    import psycopg

    from daycare_gui.stores.daycare.demo.conversations import SCRIPTS
    from daycare_gui.stores.daycare.demo.history import Chat, file_ref

    rng = random.Random(7)
    now = now_ms
    with psycopg.connect(conninfo, autocommit=False) as conn, conn.cursor() as cur:
        cur.execute(SCHEMA.read_text())
        _ins(cur, "_migrations", [{"name": m, "applied_at": now - 30 * DAY + i * 1000} for i, m in enumerate(MIGRATIONS)])
        owner, friend = "u1owner", "u2sam"
        _ins(cur, "users", [
            _versioned(now - 30 * DAY, id=owner, is_workspace=False, created_at=now - 30 * DAY, updated_at=now - DAY,
                       first_name="Alex", last_name="Rivera", timezone="Europe/Lisbon", memory=True, nametag="quiet-maple-551",
                       emoji="🦊", configuration={"homeReady": True, "bootstrapStarted": True}),
            _versioned(now - 20 * DAY, id=friend, is_workspace=False, created_at=now - 20 * DAY, updated_at=now - 2 * DAY,
                       first_name="Sam", timezone="America/New_York", memory=False, nametag="brisk-otter-204",
                       configuration={}),
        ])
        _ins(cur, "user_connector_keys", [{"user_id": owner, "connector_key": "telegram:1001"},
                                          {"user_id": friend, "connector_key": "telegram:2002"}])
        agents, sessions, history = [], [], []
        names = list(SCRIPTS)
        for i, script in enumerate(names):
            agent_id = f"ag{i:02d}{script[:6]}"
            user = owner if i % 3 else friend
            kind = "cron" if script in ("digest", "heartbeat") else ("sub" if script == "expenses" else "agent")
            start = now - (len(names) - i) * DAY // 2
            chat = Chat(rng, start)
            root = "/home/alex/.daycare"
            SCRIPTS[script](chat, {"first": i == 0, "csv_path": "/home/alex/expenses.csv",
                                   "file_photos": file_ref(f"fp{i}", "photo-export-list.txt", "text/plain", 18342, user, root),
                                   "file_csv": file_ref(f"fc{i}", "dkb-2026-02.csv", "text/csv", 24711, user, root)})
            session_id = f"s{i:02d}{script[:6]}"
            agents.append(_versioned(start, id=agent_id, path=f"/{user}/{'cron/' + script if kind == 'cron' else 'telegram'}"
                                     if i < 2 else f"/{user}/{script}", kind=kind, name=script.title(),
                                     foreground=kind == "agent", next_sub_index=0, active_session_id=session_id,
                                     permissions={"workingDir": "/home/alex", "writeDirs": [], "readDirs": []},
                                     lifecycle="active" if i % 4 else "sleeping", created_at=start,
                                     updated_at=chat.t, user_id=user, connector_key="telegram:1001"))
            sessions.append({"id": session_id, "agent_id": agent_id, "created_at": start, "ended_at": None})
            history += [{"session_id": session_id, "type": k, "at": at, "data": data} for k, at, data in chat.records]
        task_agents, task_sessions, task_history = task_runs(now, owner)
        agents += task_agents
        sessions += task_sessions
        history += task_history
        mark_sources(history)
        _ins(cur, "agents", agents)
        _ins(cur, "sessions", sessions)
        _ins(cur, "session_history", history)
        # Daycare's own hourly cost of the same calls (less the estimates and one the process never counted)
        _ins(cur, "token_stats_hourly", hourly_rows(history, sessions, agents, stopped_agent=agents[1]["id"]))
        _tasks(cur, now, owner)
        _documents(cur, now, owner)
        _subsystems(cur, now, owner, agents[0]["id"], sessions)
        counts = {"agents": len(agents), "sessions": len(sessions), "session_history": len(history)}
        if scale == "large":
            counts.update(_large(cur, now, owner, rng, progress))
        conn.commit()
    return counts


MINUTE = 60_000
RUN_ERROR = "NameError: name 'gmail_unread' is not defined"


def _run(at: int, call_id: str, code: str, *, output: str = "", error: str | None = None, follow_up: str | None = None,
         reply: str | None = None, complete: bool = True) -> list[tuple[str, int, dict]]:
    """One task run's records as Daycare writes them: the code phase (``rlm_start`` … ``rlm_complete``), then
    unless skipped the follow-up system message and the agent's reply."""
    out = [("rlm_start", at, {"toolCallId": call_id, "code": code, "preamble": ""})]
    if not complete:
        return out
    done = {"toolCallId": call_id, "output": output, "printOutput": [], "toolCallCount": 0, "isError": error is not None}
    if error is not None:
        done["error"] = error
    out.append(("rlm_complete", at + 2_000, done))
    if follow_up is not None:
        out.append(("user_message", at + 2_500, {"text": follow_up, "files": []}))
    if reply is not None:
        out.append(("assistant_message", at + 9_000, {
            "text": reply, "files": [], "toolCalls": [],
            "tokens": {"provider": "anthropic", "model": "claude-sonnet-4-5",
                       "size": {"input": 1800, "output": 140, "cacheRead": 0, "cacheWrite": 0, "total": 1940}}}))
    return out


def _cron_text(trigger: str, task: str, title: str, tz: str, output: str) -> str:
    return (f'<system_message origin="cron">[cron]\ntriggerId: {trigger}\ntaskId: {task}\ntaskName: {title}\n'
            f"timezone: {tz}\n\n{output}</system_message>")


def task_runs(now: int, owner: str) -> tuple[list[dict], list[dict], list[dict]]:
    """The task agents (``/<user>/task/<task>``) and the runs they hold, newest last. Morning digest: worked,
    failed (its code's error), skipped (``Turn skipped``), and one still running (no ``rlm_complete`` yet);
    Nightly backup check: a webhook run and a cron run that worked. ``DEMO_RUNS`` lists them for tests."""
    day = DAY
    digest = "Summarise overnight email and news."
    records = {
        "digest": _run(now - 3 * day, "rc1digest", digest, output="3 unread, nothing urgent.",
                       follow_up=_cron_text("cron-digest", "digest", "Morning digest", "Europe/Lisbon",
                                            "3 unread, nothing urgent."),
                       reply="Morning! Three unread mails, nothing urgent.")
        + _run(now - 2 * day, "rc2digest", digest, error=RUN_ERROR,
               follow_up=_cron_text("cron-digest", "digest", "Morning digest", "Europe/Lisbon",
                                    f"<exec_error>{RUN_ERROR}</exec_error>"),
               reply="The digest code failed: gmail_unread is not defined.")
        + _run(now - day + 200, "rc3digest", digest, output="Turn skipped")
        + _run(now - 10 * MINUTE, "rc4digest", digest, complete=False),
        "backup": _run(now - 3 * day, "rw1backup", "Check last night's backup log.", output="backup ok",
                       follow_up='<system_message origin="webhook">[webhook]\ntriggerId: hook-deploy\ntaskId: backup\n'
                                 'taskTitle: Nightly backup check\npayload: {"ref": "main"}\n\nbackup ok</system_message>',
                       reply="Backup log checked: last night's backup finished.")
        + _run(now - day + 300, "rc1backup", "Check last night's backup log.", output="backup ok",
               follow_up=_cron_text("cron-backup", "backup", "Nightly backup check", "UTC", "backup ok"),
               reply="All good: 41 GB backed up."),
    }
    agents, sessions, history = [], [], []
    for task, title in (("digest", "Morning digest"), ("backup", "Nightly backup check")):
        agent_id, session_id = f"agtask{task}", f"stask{task}"
        first, last = records[task][0][1], records[task][-1][1]
        agents.append(_versioned(first, id=agent_id, path=f"/{owner}/task/{task}", kind="task", name=title,
                                 foreground=False, next_sub_index=0, active_session_id=session_id,
                                 permissions={"workingDir": "/home/alex", "writeDirs": [], "readDirs": []},
                                 lifecycle="sleeping", created_at=first, updated_at=last, user_id=owner))
        sessions.append({"id": session_id, "agent_id": agent_id, "created_at": first, "ended_at": None})
        history += [{"session_id": session_id, "type": k, "at": at, "data": data} for k, at, data in records[task]]
    return agents, sessions, history


# (trigger, start offset from now in ms, outcome, error): the runs ``task_runs`` writes
DEMO_RUNS = (
    ("cron-digest", -3 * DAY, "worked", ""), ("cron-digest", -2 * DAY, "failed", RUN_ERROR),
    ("cron-digest", -DAY + 200, "skipped", ""), ("cron-digest", -10 * MINUTE, "running", ""),
    ("hook-deploy", -3 * DAY, "worked", ""), ("cron-backup", -DAY + 300, "worked", ""),
)


def _tasks(cur, now: int, owner: str) -> None:
    specs = [("digest", "Morning digest", "0 7 * * *", "Europe/Lisbon", True, "Summarise overnight email and news."),
             ("backup", "Nightly backup check", "30 2 * * *", "UTC", True, "Check last night's backup log."),
             ("plants", "Water the plants", "0 18 * * 1,4", "America/New_York", False, "Remind me to water the plants.")]
    _ins(cur, "tasks", [_versioned(now - 10 * DAY, id=t, user_id=owner, title=title, description=None, code=code,
                                   parameters={}, created_at=now - 10 * DAY, updated_at=now - 10 * DAY)
                        for t, title, _s, _tz, _e, code in specs])
    _ins(cur, "tasks_cron", [_versioned(now - 10 * DAY, id=f"cron-{t}", task_id=t, user_id=owner, schedule=s, timezone=tz,
                                        agent_id=None, enabled=e, delete_after_run=False, parameters={},
                                        last_run_at=now - DAY if e else None, created_at=now - 10 * DAY,
                                        updated_at=now - 10 * DAY) for t, _title, s, tz, e, _c in specs])
    _ins(cur, "tasks_webhook", [_versioned(now - 5 * DAY, id="hook-deploy", task_id="backup", user_id=owner, agent_id=None,
                                           last_run_at=now - 3 * DAY, created_at=now - 5 * DAY, updated_at=now - 5 * DAY)])


def _documents(cur, now: int, owner: str) -> None:
    rows = [
        _versioned(now - 9 * DAY, id="doc-prefs", user_id=owner, slug="memory/preferences", title="Preferences",
                   description="What Alex likes", body="# Preferences\n\n- Window seat\n- Vegetarian\n",
                   created_at=now - 9 * DAY, updated_at=now - 9 * DAY),
        _versioned(now - 8 * DAY, id="doc-trip", user_id=owner, slug="vault/lisbon", title="Lisbon trip",
                   description="", body="# Lisbon\n\nHotel: Baixa, 3 nights.\n", created_at=now - 8 * DAY,
                   updated_at=now - 8 * DAY),
    ]
    rows[0]["valid_to"] = now - 4 * DAY  # an earlier version, then the current one
    rows.insert(1, {**rows[0], "version": 2, "valid_from": now - 4 * DAY, "valid_to": None,
                    "body": "# Preferences\n\n- Window seat\n- Vegetarian\n- Early flights\n", "updated_at": now - 4 * DAY})
    _ins(cur, "documents", rows)


def _subsystems(cur, now: int, owner: str, agent_id: str, sessions: list[dict]) -> None:
    _ins(cur, "inbox", [{"id": "in1", "agent_id": agent_id, "posted_at": now - 3600_000, "type": "message",
                         "data": {"text": "Are we still on for Friday?"}}])
    _ins(cur, "processes", [_versioned(now - DAY, id="proc-blog", user_id=owner, name="blog preview", command="npm run dev",
                                       cwd="/home/alex/blog", home="/home/alex", env=DEMO_PROCESS_ENV,
                                       package_managers=["npm"], allowed_domains=["registry.npmjs.org"],
                                       allow_local_binding=True, permissions={}, owner=None, keep_alive=True,
                                       desired_state="running", status="running", pid=4242, boot_time_ms=now - DAY,
                                       restart_count=0, restart_failure_count=0,
                                       settings_path="/home/alex/.daycare/processes/proc-blog/sandbox.json",
                                       log_path="/home/alex/.daycare/processes/proc-blog/process.log", created_at=now - DAY, updated_at=now - DAY)])
    _ins(cur, "system_prompts", [_versioned(now - 6 * DAY, id="sp1", scope="global", user_id=owner, kind="system",
                                            condition=None, prompt="Answer briefly; use metric units.", enabled=True,
                                            created_at=now - 6 * DAY, updated_at=now - 6 * DAY)])
    _ins(cur, "key_values", [_versioned(now - 2 * DAY, user_id=owner, key="home.city", value={"city": "Lisbon"},
                                        created_at=now - 2 * DAY, updated_at=now - 2 * DAY)])
    _ins(cur, "observation_log", [{"id": "ob1", "user_id": owner, "type": "engine", "source": "scheduler",
                                   "message": "cron-digest ran", "details": None, "data": {},
                                   "scope_ids": [owner], "created_at": now - DAY}])
    # the row of the mini app whose code folder the data directory holds (users/<owner>/apps/app-groceries/2)
    _ins(cur, "mini_apps", [_versioned(now - 3 * DAY, user_id=owner, id="app-groceries", code_version=2,
                                       title="Groceries", icon="🛒", created_at=now - 4 * DAY, updated_at=now - 3 * DAY)])


def _large(cur, now: int, owner: str, rng: random.Random, progress=None) -> dict:
    """1,000 agents, 20,000 sessions, 1,000,000 records (text-heavy, realistic sizes)."""
    words = ("deploy check backup calendar flight hotel invoice photo recipe meeting garden budget lisbon "
             "report summary python error retry disk memory search weather train").split()
    agents = [_versioned(now - 90 * DAY, id=f"big{a:04d}", path=f"/{owner}/big/{a}", kind="agent", name=f"Agent {a}",
                         foreground=False, next_sub_index=0, active_session_id=f"bs{a:04d}-19", permissions={},
                         lifecycle="active", created_at=now - 90 * DAY, updated_at=now - a * 60_000, user_id=owner)
              for a in range(1000)]
    _ins(cur, "agents", agents)
    sessions = [{"id": f"bs{a:04d}-{s:02d}", "agent_id": f"big{a:04d}", "created_at": now - 90 * DAY + s * DAY}
                for a in range(1000) for s in range(20)]
    _ins(cur, "sessions", sessions)
    from psycopg.types.json import Jsonb

    total, batch = 1_000_000, []
    largest = 120_000  # one session holds 120,000 records, like the SQLite benchmark store
    for i in range(total):
        sid = "bs0000-19" if i < largest else sessions[rng.randrange(len(sessions))]["id"]
        kind = "user_message" if i % 2 == 0 else "assistant_message"
        text = " ".join(rng.choice(words) for _ in range(rng.randint(6, 30)))
        batch.append((sid, kind, now - 60 * DAY + i * 5000, Jsonb({"text": text, "files": []})))
        if len(batch) == 20_000:
            _insert_rows(cur, "INSERT INTO session_history (session_id, type, at, data)", batch)
            batch.clear()
            if progress:
                progress(i + 1, total, f"{i + 1:,} of {total:,} history records")
    if batch:
        _insert_rows(cur, "INSERT INTO session_history (session_id, type, at, data)", batch)
    return {"agents": 1000 + 15, "sessions": 20_000 + 15, "session_history": total}


def write_pglite_demo(folder: Path, *, now_ms: int, scale: str = "small", progress=None) -> dict:
    """A new PGlite folder written by PGlite itself (through the sidecar), then closed cleanly."""
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder} is not empty")
    folder.parent.mkdir(parents=True, exist_ok=True)
    server = PgliteServer(folder, ensure_runtime(), copy=False)
    try:
        counts = write_pg_demo(server.url.replace("postgresql+psycopg://", "postgresql://"), now_ms=now_ms,
                               scale=scale, progress=progress)
    finally:
        server.close()
    from daycare_gui.stores.daycare.datadir.demo import write_data_dir_demo

    # The files Daycare keeps beside its database (skills, settings, prompt files, ...), as the SQLite demo has.
    counts["data directory files"] = write_data_dir_demo(
        folder.parent, owner="u1owner", agent_id="ag00trip", process_id="proc-blog", process_env=DEMO_PROCESS_ENV)
    return counts
