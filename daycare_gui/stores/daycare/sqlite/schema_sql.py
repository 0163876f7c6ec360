"""The SQLite schema exactly as Daycare's 26 migrations at 808af509 leave it.

Demo stores are written with this DDL. ``tests/core/migrations`` proves that running the project's own
migration pipeline on an empty folder produces the same schema, so the two cannot drift apart.
The ``agents.user_id`` default is the bootstrap owner's id baked in as a literal, as Daycare does.
"""

from __future__ import annotations

OWNER_PLACEHOLDER = "{owner_id}"

# (kind, name, sql) in the order sqlite_master lists them after a real upgrade.
SCHEMA_808AF509: list[tuple[str, str, str]] = [
    ('table', '_migrations', 'CREATE TABLE _migrations (\n      name TEXT PRIMARY KEY,\n      applied_at INTEGER NOT NULL\n    )'),
    ('table', 'agents', "CREATE TABLE agents (\n        id TEXT PRIMARY KEY,\n        type TEXT NOT NULL,\n        descriptor TEXT NOT NULL,\n        active_session_id TEXT,\n        permissions TEXT NOT NULL,\n        tokens TEXT,\n        stats TEXT NOT NULL DEFAULT '{}',\n        lifecycle TEXT NOT NULL DEFAULT 'active',\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      , user_id TEXT NOT NULL DEFAULT '{owner_id}')"),
    ('table', 'sessions', 'CREATE TABLE sessions (\n        id TEXT PRIMARY KEY,\n        agent_id TEXT NOT NULL,\n        inference_session_id TEXT,\n        created_at INTEGER NOT NULL,\n        reset_message TEXT, invalidated_at INTEGER, processed_until INTEGER, ended_at INTEGER,\n        FOREIGN KEY (agent_id) REFERENCES agents(id) ON DELETE CASCADE\n      )'),
    ('index', 'idx_sessions_agent_id', 'CREATE INDEX idx_sessions_agent_id ON sessions(agent_id)'),
    ('table', 'session_history', 'CREATE TABLE session_history (\n        id INTEGER PRIMARY KEY AUTOINCREMENT,\n        session_id TEXT NOT NULL,\n        type TEXT NOT NULL,\n        at INTEGER NOT NULL,\n        data TEXT NOT NULL,\n        FOREIGN KEY (session_id) REFERENCES sessions(id) ON DELETE CASCADE\n      )'),
    ('index', 'idx_session_history_session', 'CREATE INDEX idx_session_history_session ON session_history(session_id)'),
    ('table', 'users', 'CREATE TABLE users (\n        id TEXT PRIMARY KEY,\n        is_owner INTEGER NOT NULL DEFAULT 0,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      , parent_user_id TEXT REFERENCES users(id), name TEXT, nametag TEXT)'),
    ('table', 'user_connector_keys', 'CREATE TABLE user_connector_keys (\n        id INTEGER PRIMARY KEY AUTOINCREMENT,\n        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,\n        connector_key TEXT NOT NULL UNIQUE\n      )'),
    ('index', 'idx_user_connector_keys_user_id', 'CREATE INDEX idx_user_connector_keys_user_id\n        ON user_connector_keys(user_id)'),
    ('index', 'idx_users_single_owner', 'CREATE UNIQUE INDEX idx_users_single_owner\n        ON users(is_owner)\n        WHERE is_owner = 1'),
    ('index', 'idx_agents_user_id', 'CREATE INDEX idx_agents_user_id ON agents(user_id)'),
    ('table', 'tasks_cron', 'CREATE TABLE tasks_cron (\n        id TEXT PRIMARY KEY,\n        task_uid TEXT NOT NULL UNIQUE,\n        user_id TEXT,\n        name TEXT NOT NULL,\n        description TEXT,\n        schedule TEXT NOT NULL,\n        code TEXT NOT NULL,\n        agent_id TEXT,\n        enabled INTEGER NOT NULL DEFAULT 1,\n        delete_after_run INTEGER NOT NULL DEFAULT 0,\n        last_run_at INTEGER,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_tasks_cron_enabled', 'CREATE INDEX idx_tasks_cron_enabled ON tasks_cron(enabled)'),
    ('index', 'idx_tasks_cron_updated_at', 'CREATE INDEX idx_tasks_cron_updated_at ON tasks_cron(updated_at)'),
    ('table', 'tasks_heartbeat', "CREATE TABLE tasks_heartbeat (\n        id TEXT PRIMARY KEY,\n        title TEXT NOT NULL,\n        code TEXT NOT NULL,\n        last_run_at INTEGER,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      , user_id TEXT NOT NULL DEFAULT '')"),
    ('index', 'idx_tasks_heartbeat_updated_at', 'CREATE INDEX idx_tasks_heartbeat_updated_at ON tasks_heartbeat(updated_at)'),
    ('table', 'inbox', 'CREATE TABLE inbox (\n        id TEXT PRIMARY KEY,\n        agent_id TEXT NOT NULL,\n        posted_at INTEGER NOT NULL,\n        type TEXT NOT NULL,\n        data TEXT NOT NULL\n      )'),
    ('index', 'idx_inbox_agent_order', 'CREATE INDEX idx_inbox_agent_order\n        ON inbox(agent_id, posted_at)'),
    ('table', 'signals_events', 'CREATE TABLE signals_events (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        type TEXT NOT NULL,\n        source TEXT NOT NULL,\n        data TEXT,\n        created_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_signals_events_user', 'CREATE INDEX idx_signals_events_user\n        ON signals_events(user_id)'),
    ('index', 'idx_signals_events_type', 'CREATE INDEX idx_signals_events_type\n        ON signals_events(type)'),
    ('index', 'idx_signals_events_created', 'CREATE INDEX idx_signals_events_created\n        ON signals_events(created_at)'),
    ('table', 'signals_subscriptions', 'CREATE TABLE signals_subscriptions (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        agent_id TEXT NOT NULL,\n        pattern TEXT NOT NULL,\n        silent INTEGER NOT NULL DEFAULT 0,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL,\n        UNIQUE(user_id, agent_id, pattern)\n      )'),
    ('index', 'idx_signals_subscriptions_user_agent', 'CREATE INDEX idx_signals_subscriptions_user_agent\n        ON signals_subscriptions(user_id, agent_id)'),
    ('table', 'signals_delayed', 'CREATE TABLE signals_delayed (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        type TEXT NOT NULL,\n        deliver_at INTEGER NOT NULL,\n        source TEXT NOT NULL,\n        data TEXT,\n        repeat_key TEXT,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_signals_delayed_deliver', 'CREATE INDEX idx_signals_delayed_deliver\n        ON signals_delayed(deliver_at)'),
    ('table', 'channels', 'CREATE TABLE channels (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        name TEXT NOT NULL UNIQUE,\n        leader TEXT NOT NULL,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_channels_user', 'CREATE INDEX idx_channels_user\n        ON channels(user_id)'),
    ('index', 'idx_channels_name', 'CREATE INDEX idx_channels_name\n        ON channels(name)'),
    ('table', 'channel_members', 'CREATE TABLE channel_members (\n        id INTEGER PRIMARY KEY AUTOINCREMENT,\n        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,\n        user_id TEXT NOT NULL,\n        agent_id TEXT NOT NULL,\n        username TEXT NOT NULL,\n        joined_at INTEGER NOT NULL,\n        UNIQUE(channel_id, agent_id)\n      )'),
    ('index', 'idx_channel_members_channel', 'CREATE INDEX idx_channel_members_channel\n        ON channel_members(channel_id)'),
    ('table', 'channel_messages', 'CREATE TABLE channel_messages (\n        id TEXT PRIMARY KEY,\n        channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,\n        user_id TEXT NOT NULL,\n        sender_username TEXT NOT NULL,\n        text TEXT NOT NULL,\n        mentions TEXT NOT NULL,\n        created_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_channel_messages_channel_created', 'CREATE INDEX idx_channel_messages_channel_created\n        ON channel_messages(channel_id, created_at)'),
    ('table', 'expose_endpoints', 'CREATE TABLE expose_endpoints (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        target TEXT NOT NULL,\n        provider TEXT NOT NULL,\n        domain TEXT NOT NULL,\n        mode TEXT NOT NULL,\n        auth TEXT,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL\n      )'),
    ('index', 'idx_expose_endpoints_user', 'CREATE INDEX idx_expose_endpoints_user\n        ON expose_endpoints(user_id)'),
    ('index', 'idx_expose_endpoints_domain', 'CREATE INDEX idx_expose_endpoints_domain\n        ON expose_endpoints(domain)'),
    ('table', 'processes', "CREATE TABLE processes (\n        id TEXT PRIMARY KEY,\n        user_id TEXT NOT NULL,\n        name TEXT NOT NULL,\n        command TEXT NOT NULL,\n        cwd TEXT NOT NULL,\n        home TEXT,\n        env TEXT NOT NULL,\n        package_managers TEXT NOT NULL,\n        allowed_domains TEXT NOT NULL,\n        allow_local_binding INTEGER NOT NULL DEFAULT 0,\n        permissions TEXT NOT NULL,\n        owner TEXT,\n        keep_alive INTEGER NOT NULL DEFAULT 0,\n        desired_state TEXT NOT NULL DEFAULT 'running',\n        status TEXT NOT NULL DEFAULT 'running',\n        pid INTEGER,\n        boot_time_ms INTEGER,\n        restart_count INTEGER NOT NULL DEFAULT 0,\n        restart_failure_count INTEGER NOT NULL DEFAULT 0,\n        next_restart_at INTEGER,\n        settings_path TEXT NOT NULL,\n        log_path TEXT NOT NULL,\n        created_at INTEGER NOT NULL,\n        updated_at INTEGER NOT NULL,\n        last_started_at INTEGER,\n        last_exited_at INTEGER\n      )"),
    ('index', 'idx_processes_user', 'CREATE INDEX idx_processes_user\n        ON processes(user_id)'),
    ('index', 'idx_processes_owner', 'CREATE INDEX idx_processes_owner\n        ON processes(owner)'),
    ('index', 'idx_tasks_heartbeat_user_id', 'CREATE INDEX idx_tasks_heartbeat_user_id ON tasks_heartbeat(user_id)'),
    ('index', 'idx_sessions_invalidated_at', 'CREATE INDEX idx_sessions_invalidated_at ON sessions(invalidated_at)'),
    ('index', 'idx_users_parent', 'CREATE INDEX idx_users_parent ON users(parent_user_id) WHERE parent_user_id IS NOT NULL'),
    ('table', 'connections', 'CREATE TABLE connections (\n                user_a_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,\n                user_b_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,\n                requested_a INTEGER NOT NULL DEFAULT 0,\n                requested_b INTEGER NOT NULL DEFAULT 0,\n                requested_a_at INTEGER,\n                requested_b_at INTEGER,\n                PRIMARY KEY (user_a_id, user_b_id),\n                CHECK (user_a_id < user_b_id)\n            )'),
    ('index', 'idx_connections_user_b', 'CREATE INDEX idx_connections_user_b ON connections(user_b_id)'),
    ('index', 'idx_users_nametag', 'CREATE UNIQUE INDEX idx_users_nametag ON users(nametag) WHERE nametag IS NOT NULL'),
    ('index', 'idx_users_nametag_required', 'CREATE UNIQUE INDEX idx_users_nametag_required ON users(nametag)'),
    ('trigger', 'trg_users_nametag_required_insert', "CREATE TRIGGER trg_users_nametag_required_insert\n            BEFORE INSERT ON users\n            FOR EACH ROW\n            WHEN NEW.nametag IS NULL OR trim(NEW.nametag) = ''\n            BEGIN\n                SELECT RAISE(ABORT, 'users.nametag is required');\n            END"),
    ('trigger', 'trg_users_nametag_required_update', "CREATE TRIGGER trg_users_nametag_required_update\n            BEFORE UPDATE OF nametag ON users\n            FOR EACH ROW\n            WHEN NEW.nametag IS NULL OR trim(NEW.nametag) = ''\n            BEGIN\n                SELECT RAISE(ABORT, 'users.nametag is required');\n            END"),
    ('table', 'system_prompts', 'CREATE TABLE system_prompts (\n                id TEXT PRIMARY KEY,\n                scope TEXT NOT NULL,\n                user_id TEXT,\n                kind TEXT NOT NULL,\n                condition TEXT,\n                prompt TEXT NOT NULL,\n                enabled INTEGER NOT NULL DEFAULT 1,\n                created_at INTEGER NOT NULL,\n                updated_at INTEGER NOT NULL\n            )'),
    ('index', 'idx_system_prompts_scope', 'CREATE INDEX idx_system_prompts_scope ON system_prompts(scope)'),
    ('index', 'idx_system_prompts_user_id', 'CREATE INDEX idx_system_prompts_user_id ON system_prompts(user_id)'),
]



def schema_statements(owner_id: str) -> list[str]:
    """The CREATE statements, with the owner id as the ``agents.user_id`` default."""
    if "'" in owner_id:
        raise ValueError("owner id must not contain a quote")
    stmts = []
    for _kind, _name, sql in SCHEMA_808AF509:
        stmts.append(sql.replace(OWNER_PLACEHOLDER, owner_id))
    return stmts


MIGRATIONS_808AF509: tuple[str, ...] = (
    "20260219_initial",
    "20260219_import_files",
    "20260220_add_users",
    "20260220_users_bootstrap",
    "20260220_add_tasks",
    "20260220_import_tasks",
    "20260221_drop_gate_columns",
    "20260221_backfill_cron_users",
    "20260221_add_inbox",
    "20260222_add_signals",
    "20260222_import_signals",
    "20260222_add_channels",
    "20260222_import_channels",
    "20260222_add_expose",
    "20260222_import_expose",
    "20260222_add_processes",
    "20260222_import_processes",
    "20260223_add_heartbeat_users",
    "20260224_add_memory_columns",
    "20260222_session_ended_at",
    "20260222_add_user_parent",
    "20260222_add_usertag_connections",
    "20260225_require_usertag",
    "20260226_rename_usertag_to_nametag",
    "20260224_add_system_prompts",
    "20260224_rename_prompt_to_code",
)

# The last SQLite list (b8a8d807): 33 entries. Names known to Daycare but not implemented by this project.
MIGRATIONS_B8A8D807: tuple[str, ...] = MIGRATIONS_808AF509[:18] + (
    "20260224_rename_prompt_to_code",
    "20260224_add_tasks_table",
    "20260224_add_memory_columns",
    "20260222_session_ended_at",
    "20260222_add_user_parent",
    "20260222_add_usertag_connections",
    "20260225_require_usertag",
    "20260226_rename_usertag_to_nametag",
    "20260227_require_cron_task_id",
    "20260228_soft_delete_tasks",
    "20260301_add_token_stats",
    "20260302_cleanup_rlm_snapshot_payloads",
    "20260303_drop_trigger_code",
    "20260304_scope_task_ids_per_user",
    "20260224_add_system_prompts",
)
