"""The structural migrations of Daycare 808af509 (tables, columns, indexes, triggers).

The CREATE statements are Daycare's own text: SQLite stores it verbatim in ``sqlite_master`` (minus
``IF NOT EXISTS``), and ``ALTER TABLE ... ADD/RENAME COLUMN`` rewrites it in place, so emitting the same
statements in the same order gives the same schema text as a database Daycare upgraded. Every step checks
``PRAGMA table_info`` or uses IF NOT EXISTS, as Daycare's do, so re-running one is harmless.
"""

from __future__ import annotations

from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.sqlite.migrations.base import MigrationContext, MigrationError

# --- 20260219_initial -------------------------------------------------------------------------------------

MIGRATIONS_TABLE = """CREATE TABLE IF NOT EXISTS _migrations (
      name TEXT PRIMARY KEY,
      applied_at INTEGER NOT NULL
    )"""

_INITIAL = [
    """CREATE TABLE IF NOT EXISTS agents (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        descriptor TEXT NOT NULL,
        active_session_id TEXT,
        permissions TEXT NOT NULL,
        tokens TEXT,
        stats TEXT NOT NULL DEFAULT '{}',
        lifecycle TEXT NOT NULL DEFAULT 'active',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    """CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        inference_session_id TEXT,
        created_at INTEGER NOT NULL,
        reset_message TEXT,
        FOREIGN KEY (agent_id) REFERENCES agents(id) ON DELETE CASCADE
      )""",
    "CREATE INDEX IF NOT EXISTS idx_sessions_agent_id ON sessions(agent_id)",
    """CREATE TABLE IF NOT EXISTS session_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id TEXT NOT NULL,
        type TEXT NOT NULL,
        at INTEGER NOT NULL,
        data TEXT NOT NULL,
        FOREIGN KEY (session_id) REFERENCES sessions(id) ON DELETE CASCADE
      )""",
    "CREATE INDEX IF NOT EXISTS idx_session_history_session ON session_history(session_id)",
]

# --- 20260220_add_users -----------------------------------------------------------------------------------

_ADD_USERS = [
    """CREATE TABLE IF NOT EXISTS users (
        id TEXT PRIMARY KEY,
        is_owner INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    """CREATE TABLE IF NOT EXISTS user_connector_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        connector_key TEXT NOT NULL UNIQUE
      )""",
    """CREATE INDEX IF NOT EXISTS idx_user_connector_keys_user_id
        ON user_connector_keys(user_id)""",
    """CREATE UNIQUE INDEX IF NOT EXISTS idx_users_single_owner
        ON users(is_owner)
        WHERE is_owner = 1""",
]

# --- 20260220_add_tasks (the code column is still called prompt; #26 renames it) ---------------------------

_ADD_TASKS = [
    """CREATE TABLE IF NOT EXISTS tasks_cron (
        id TEXT PRIMARY KEY,
        task_uid TEXT NOT NULL UNIQUE,
        user_id TEXT,
        name TEXT NOT NULL,
        description TEXT,
        schedule TEXT NOT NULL,
        prompt TEXT NOT NULL,
        agent_id TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        delete_after_run INTEGER NOT NULL DEFAULT 0,
        last_run_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    "CREATE INDEX IF NOT EXISTS idx_tasks_cron_enabled ON tasks_cron(enabled)",
    "CREATE INDEX IF NOT EXISTS idx_tasks_cron_updated_at ON tasks_cron(updated_at)",
    """CREATE TABLE IF NOT EXISTS tasks_heartbeat (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        prompt TEXT NOT NULL,
        last_run_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    "CREATE INDEX IF NOT EXISTS idx_tasks_heartbeat_updated_at ON tasks_heartbeat(updated_at)",
]

# --- 20260221_add_inbox -----------------------------------------------------------------------------------

_ADD_INBOX = [
    """CREATE TABLE IF NOT EXISTS inbox (
        id TEXT PRIMARY KEY,
        agent_id TEXT NOT NULL,
        posted_at INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_inbox_agent_order
        ON inbox(agent_id, posted_at)""",
]

# --- 20260222_add_signals ---------------------------------------------------------------------------------

_ADD_SIGNALS = [
    """CREATE TABLE IF NOT EXISTS signals_events (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        type TEXT NOT NULL,
        source TEXT NOT NULL,
        data TEXT,
        created_at INTEGER NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_signals_events_user
        ON signals_events(user_id)""",
    """CREATE INDEX IF NOT EXISTS idx_signals_events_type
        ON signals_events(type)""",
    """CREATE INDEX IF NOT EXISTS idx_signals_events_created
        ON signals_events(created_at)""",
    """CREATE TABLE IF NOT EXISTS signals_subscriptions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        pattern TEXT NOT NULL,
        silent INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE(user_id, agent_id, pattern)
      )""",
    """CREATE INDEX IF NOT EXISTS idx_signals_subscriptions_user_agent
        ON signals_subscriptions(user_id, agent_id)""",
    """CREATE TABLE IF NOT EXISTS signals_delayed (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        type TEXT NOT NULL,
        deliver_at INTEGER NOT NULL,
        source TEXT NOT NULL,
        data TEXT,
        repeat_key TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_signals_delayed_deliver
        ON signals_delayed(deliver_at)""",
]

# --- 20260222_add_channels --------------------------------------------------------------------------------
# Daycare also runs `PRAGMA foreign_keys=ON` here; inside a transaction SQLite ignores it, so we leave it out.

_ADD_CHANNELS = [
    """CREATE TABLE IF NOT EXISTS channels (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL UNIQUE,
        leader TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_channels_user
        ON channels(user_id)""",
    """CREATE INDEX IF NOT EXISTS idx_channels_name
        ON channels(name)""",
    """CREATE TABLE IF NOT EXISTS channel_members (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        username TEXT NOT NULL,
        joined_at INTEGER NOT NULL,
        UNIQUE(channel_id, agent_id)
      )""",
    """CREATE INDEX IF NOT EXISTS idx_channel_members_channel
        ON channel_members(channel_id)""",
    """CREATE TABLE IF NOT EXISTS channel_messages (
        id TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        sender_username TEXT NOT NULL,
        text TEXT NOT NULL,
        mentions TEXT NOT NULL,
        created_at INTEGER NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_channel_messages_channel_created
        ON channel_messages(channel_id, created_at)""",
]

# --- 20260222_add_expose ----------------------------------------------------------------------------------

_ADD_EXPOSE = [
    """CREATE TABLE IF NOT EXISTS expose_endpoints (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        target TEXT NOT NULL,
        provider TEXT NOT NULL,
        domain TEXT NOT NULL,
        mode TEXT NOT NULL,
        auth TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )""",
    """CREATE INDEX IF NOT EXISTS idx_expose_endpoints_user
        ON expose_endpoints(user_id)""",
    """CREATE INDEX IF NOT EXISTS idx_expose_endpoints_domain
        ON expose_endpoints(domain)""",
]

# --- 20260222_add_processes -------------------------------------------------------------------------------

_ADD_PROCESSES = [
    """CREATE TABLE IF NOT EXISTS processes (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        command TEXT NOT NULL,
        cwd TEXT NOT NULL,
        home TEXT,
        env TEXT NOT NULL,
        package_managers TEXT NOT NULL,
        allowed_domains TEXT NOT NULL,
        allow_local_binding INTEGER NOT NULL DEFAULT 0,
        permissions TEXT NOT NULL,
        owner TEXT,
        keep_alive INTEGER NOT NULL DEFAULT 0,
        desired_state TEXT NOT NULL DEFAULT 'running',
        status TEXT NOT NULL DEFAULT 'running',
        pid INTEGER,
        boot_time_ms INTEGER,
        restart_count INTEGER NOT NULL DEFAULT 0,
        restart_failure_count INTEGER NOT NULL DEFAULT 0,
        next_restart_at INTEGER,
        settings_path TEXT NOT NULL,
        log_path TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_started_at INTEGER,
        last_exited_at INTEGER
      )""",
    """CREATE INDEX IF NOT EXISTS idx_processes_user
        ON processes(user_id)""",
    """CREATE INDEX IF NOT EXISTS idx_processes_owner
        ON processes(owner)""",
]

# --- 20260222_add_usertag_connections ---------------------------------------------------------------------

_CONNECTIONS = """CREATE TABLE IF NOT EXISTS connections (
                user_a_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                user_b_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                requested_a INTEGER NOT NULL DEFAULT 0,
                requested_b INTEGER NOT NULL DEFAULT 0,
                requested_a_at INTEGER,
                requested_b_at INTEGER,
                PRIMARY KEY (user_a_id, user_b_id),
                CHECK (user_a_id < user_b_id)
            )"""

# --- 20260225_require_usertag / 20260226_rename_usertag_to_nametag ----------------------------------------


def _tag_required_trigger(column: str, timing: str) -> str:
    suffix = "insert" if timing == "INSERT" else "update"
    event = "INSERT" if timing == "INSERT" else f"UPDATE OF {column}"
    return f"""CREATE TRIGGER IF NOT EXISTS trg_users_{column}_required_{suffix}
            BEFORE {event} ON users
            FOR EACH ROW
            WHEN NEW.{column} IS NULL OR trim(NEW.{column}) = ''
            BEGIN
                SELECT RAISE(ABORT, 'users.{column} is required');
            END"""


# --- 20260224_add_system_prompts --------------------------------------------------------------------------

_SYSTEM_PROMPTS = [
    """CREATE TABLE IF NOT EXISTS system_prompts (
                id TEXT PRIMARY KEY,
                scope TEXT NOT NULL,
                user_id TEXT,
                kind TEXT NOT NULL,
                condition TEXT,
                prompt TEXT NOT NULL,
                enabled INTEGER NOT NULL DEFAULT 1,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            )""",
    "CREATE INDEX IF NOT EXISTS idx_system_prompts_scope ON system_prompts(scope)",
    "CREATE INDEX IF NOT EXISTS idx_system_prompts_user_id ON system_prompts(user_id)",
]


def _run_all(ctx: MigrationContext, statements: list[str]) -> None:
    for sql in statements:
        ctx.conn.execute(sql)


def _add_column(ctx: MigrationContext, table: str, column: str, definition: str) -> None:
    if not ctx.has_column(table, column):
        ctx.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


def initial(ctx: MigrationContext) -> None:
    _run_all(ctx, _INITIAL)


def add_users(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_USERS)


def add_tasks(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_TASKS)


def drop_gate_columns(ctx: MigrationContext) -> None:
    # Databases made on 2026-02-20/21 had a `gate` column on both task tables.
    for table in ("tasks_cron", "tasks_heartbeat"):
        if ctx.has_column(table, "gate"):
            ctx.conn.execute(f"ALTER TABLE {table} DROP COLUMN gate")


def backfill_cron_users(ctx: MigrationContext) -> None:
    owner = ctx.owner_id()
    if owner is None or not ctx.columns("tasks_cron"):
        return
    ctx.conn.execute("UPDATE tasks_cron SET user_id = ? WHERE user_id IS NULL OR trim(user_id) = ''", (owner,))


def add_inbox(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_INBOX)


def add_signals(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_SIGNALS)


def add_channels(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_CHANNELS)


def add_expose(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_EXPOSE)


def add_processes(ctx: MigrationContext) -> None:
    _run_all(ctx, _ADD_PROCESSES)


def add_heartbeat_users(ctx: MigrationContext) -> None:
    _add_column(ctx, "tasks_heartbeat", "user_id", "TEXT NOT NULL DEFAULT ''")
    blank = ctx.conn.execute(
        "SELECT COUNT(*) FROM tasks_heartbeat WHERE user_id IS NULL OR trim(user_id) = ''"
    ).fetchone()[0]
    if blank:
        owner = ctx.owner_id()
        if owner is None:
            raise MigrationError(
                f"Cannot backfill tasks_heartbeat.user_id: {count(blank, 'heartbeat task')} need an owner user and none exists."
            )
        ctx.conn.execute(
            "UPDATE tasks_heartbeat SET user_id = ? WHERE user_id IS NULL OR trim(user_id) = ''", (owner,)
        )
    ctx.conn.execute("CREATE INDEX IF NOT EXISTS idx_tasks_heartbeat_user_id ON tasks_heartbeat(user_id)")


def add_memory_columns(ctx: MigrationContext) -> None:
    _add_column(ctx, "sessions", "invalidated_at", "INTEGER")
    _add_column(ctx, "sessions", "processed_until", "INTEGER")
    ctx.conn.execute("CREATE INDEX IF NOT EXISTS idx_sessions_invalidated_at ON sessions(invalidated_at)")


def session_ended_at(ctx: MigrationContext) -> None:
    _add_column(ctx, "sessions", "ended_at", "INTEGER")


def add_user_parent(ctx: MigrationContext) -> None:
    if not ctx.columns("users"):
        return
    _add_column(ctx, "users", "parent_user_id", "TEXT REFERENCES users(id)")
    _add_column(ctx, "users", "name", "TEXT")
    ctx.conn.execute(
        "CREATE INDEX IF NOT EXISTS idx_users_parent ON users(parent_user_id) WHERE parent_user_id IS NOT NULL"
    )


def add_usertag_connections(ctx: MigrationContext) -> None:
    if not ctx.columns("users"):
        return
    _add_column(ctx, "users", "usertag", "TEXT")
    ctx.conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_users_usertag ON users(usertag) WHERE usertag IS NOT NULL")
    ctx.conn.execute(_CONNECTIONS)
    ctx.conn.execute("CREATE INDEX IF NOT EXISTS idx_connections_user_b ON connections(user_b_id)")


def require_usertag(ctx: MigrationContext) -> None:
    if not ctx.has_column("users", "usertag"):
        return
    taken = {
        row[0]
        for row in ctx.conn.execute("SELECT usertag FROM users WHERE usertag IS NOT NULL AND trim(usertag) <> ''")
    }
    missing = ctx.conn.execute(
        "SELECT id FROM users WHERE usertag IS NULL OR trim(usertag) = '' ORDER BY created_at ASC, id ASC"
    ).fetchall()
    for (user_id,) in missing:
        tag = ctx.ids.unique_nametag(taken)
        ctx.conn.execute("UPDATE users SET usertag = ? WHERE id = ?", (tag, user_id))
        taken.add(tag)
    ctx.conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_users_usertag_required ON users(usertag)")
    ctx.conn.execute(_tag_required_trigger("usertag", "INSERT"))
    ctx.conn.execute(_tag_required_trigger("usertag", "UPDATE"))


def rename_usertag_to_nametag(ctx: MigrationContext) -> None:
    columns = ctx.columns("users")
    if not columns:
        return
    if "usertag" in columns and "nametag" not in columns:
        ctx.conn.execute("ALTER TABLE users RENAME COLUMN usertag TO nametag")
    ctx.conn.execute("DROP INDEX IF EXISTS idx_users_usertag")
    ctx.conn.execute("DROP INDEX IF EXISTS idx_users_usertag_required")
    ctx.conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_users_nametag ON users(nametag) WHERE nametag IS NOT NULL")
    ctx.conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_users_nametag_required ON users(nametag)")
    ctx.conn.execute("DROP TRIGGER IF EXISTS trg_users_usertag_required_insert")
    ctx.conn.execute("DROP TRIGGER IF EXISTS trg_users_usertag_required_update")
    ctx.conn.execute(_tag_required_trigger("nametag", "INSERT"))
    ctx.conn.execute(_tag_required_trigger("nametag", "UPDATE"))


def add_system_prompts(ctx: MigrationContext) -> None:
    _run_all(ctx, _SYSTEM_PROMPTS)


def rename_prompt_to_code(ctx: MigrationContext) -> None:
    for table in ("tasks_heartbeat", "tasks_cron"):
        columns = ctx.columns(table)
        if "prompt" in columns and "code" not in columns:
            ctx.conn.execute(f"ALTER TABLE {table} RENAME COLUMN prompt TO code")
