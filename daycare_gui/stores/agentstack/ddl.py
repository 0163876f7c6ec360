"""AgentStack's schema as its v1.6.1 script creates it (facts from the as-built notes), to write demo
databases and test fixtures; older generations drop the columns they lacked.

Generations: "current"; "pre-task-tree" (tasks without risk_level, parent_task_id, depth,
consensus_checkpoint_id: before 2026-01-29); "pre-agent-id" (also memory without agent_id: before
2026-01-27).
"""

from __future__ import annotations

import sqlite3

MEMORY_AGENT = "agent_id TEXT DEFAULT NULL,"
TASK_TREE = """risk_level TEXT CHECK (risk_level IS NULL OR risk_level IN ('low', 'medium', 'high')),
    parent_task_id TEXT,
    depth INTEGER,
    consensus_checkpoint_id TEXT,"""
TASK_TREE_FKS = """,
    FOREIGN KEY (parent_task_id) REFERENCES tasks(id),
    FOREIGN KEY (consensus_checkpoint_id) REFERENCES consensus_checkpoints(id)"""

TABLES: dict[str, str] = {
    "memory": """CREATE TABLE IF NOT EXISTS memory (
    id TEXT PRIMARY KEY,
    key TEXT NOT NULL,
    namespace TEXT DEFAULT 'default',
    content TEXT NOT NULL,
    embedding BLOB,
    metadata TEXT,
    {agent}
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE(namespace, key));
CREATE INDEX IF NOT EXISTS idx_memory_namespace ON memory(namespace);
CREATE INDEX IF NOT EXISTS idx_memory_key ON memory(key);
CREATE INDEX IF NOT EXISTS idx_memory_updated ON memory(updated_at DESC);
{agent_index}""",
    "tags": """CREATE TABLE IF NOT EXISTS tags (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_tags_name ON tags(name);""",
    "memory_tags": """CREATE TABLE IF NOT EXISTS memory_tags (memory_id TEXT NOT NULL, tag_id TEXT NOT NULL,
    created_at INTEGER NOT NULL, PRIMARY KEY (memory_id, tag_id),
    FOREIGN KEY (memory_id) REFERENCES memory(id) ON DELETE CASCADE,
    FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_memory_tags_memory ON memory_tags(memory_id);
CREATE INDEX IF NOT EXISTS idx_memory_tags_tag ON memory_tags(tag_id);""",
    "memory_relationships": """CREATE TABLE IF NOT EXISTS memory_relationships (id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL, to_id TEXT NOT NULL, relationship_type TEXT NOT NULL, metadata TEXT,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (from_id) REFERENCES memory(id) ON DELETE CASCADE,
    FOREIGN KEY (to_id) REFERENCES memory(id) ON DELETE CASCADE,
    UNIQUE(from_id, to_id, relationship_type));
CREATE INDEX IF NOT EXISTS idx_memory_relationships_from ON memory_relationships(from_id);
CREATE INDEX IF NOT EXISTS idx_memory_relationships_to ON memory_relationships(to_id);
CREATE INDEX IF NOT EXISTS idx_memory_relationships_type ON memory_relationships(relationship_type);""",
    "memory_versions": """CREATE TABLE IF NOT EXISTS memory_versions (id TEXT PRIMARY KEY,
    memory_id TEXT NOT NULL, version INTEGER NOT NULL, key TEXT NOT NULL, namespace TEXT NOT NULL,
    content TEXT NOT NULL, metadata TEXT, agent_id TEXT DEFAULT NULL, created_at INTEGER NOT NULL,
    FOREIGN KEY (memory_id) REFERENCES memory(id) ON DELETE CASCADE, UNIQUE(memory_id, version));
CREATE INDEX IF NOT EXISTS idx_memory_versions_memory ON memory_versions(memory_id);
CREATE INDEX IF NOT EXISTS idx_memory_versions_created ON memory_versions(created_at DESC);""",
    "memory_fts": """CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5(key, content, namespace,
    content=memory, content_rowid=rowid, tokenize='porter unicode61');
CREATE TRIGGER IF NOT EXISTS memory_ai AFTER INSERT ON memory BEGIN
    INSERT INTO memory_fts(rowid, key, content, namespace) VALUES (NEW.rowid, NEW.key, NEW.content, NEW.namespace);
END;
CREATE TRIGGER IF NOT EXISTS memory_ad AFTER DELETE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, key, content, namespace)
    VALUES ('delete', OLD.rowid, OLD.key, OLD.content, OLD.namespace);
END;
CREATE TRIGGER IF NOT EXISTS memory_au AFTER UPDATE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, key, content, namespace)
    VALUES ('delete', OLD.rowid, OLD.key, OLD.content, OLD.namespace);
    INSERT INTO memory_fts(rowid, key, content, namespace) VALUES (NEW.rowid, NEW.key, NEW.content, NEW.namespace);
END;""",
    "sessions": """CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, status TEXT NOT NULL DEFAULT 'active',
    started_at INTEGER NOT NULL, ended_at INTEGER, metadata TEXT);
CREATE INDEX IF NOT EXISTS idx_sessions_status ON sessions(status);""",
    "tasks": """CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, session_id TEXT, agent_type TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', input TEXT, output TEXT, created_at INTEGER NOT NULL,
    completed_at INTEGER,
    {tree}
    FOREIGN KEY (session_id) REFERENCES sessions(id){tree_fks});
CREATE INDEX IF NOT EXISTS idx_tasks_session ON tasks(session_id);
CREATE INDEX IF NOT EXISTS idx_tasks_status ON tasks(status);""",
    "plugins": """CREATE TABLE IF NOT EXISTS plugins (name TEXT PRIMARY KEY, version TEXT NOT NULL,
    enabled INTEGER DEFAULT 1, config TEXT, installed_at INTEGER NOT NULL);""",
    "projects": """CREATE TABLE IF NOT EXISTS projects (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT,
    path TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active', created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL, metadata TEXT);
CREATE INDEX IF NOT EXISTS idx_projects_status ON projects(status);
CREATE INDEX IF NOT EXISTS idx_projects_updated ON projects(updated_at DESC);""",
    "project_tasks": """CREATE TABLE IF NOT EXISTS project_tasks (id TEXT PRIMARY KEY, project_id TEXT NOT NULL,
    session_id TEXT, title TEXT NOT NULL, description TEXT, phase TEXT NOT NULL DEFAULT 'draft',
    priority INTEGER DEFAULT 5, assigned_agents TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    completed_at INTEGER, FOREIGN KEY (project_id) REFERENCES projects(id));
CREATE INDEX IF NOT EXISTS idx_project_tasks_project ON project_tasks(project_id);
CREATE INDEX IF NOT EXISTS idx_project_tasks_phase ON project_tasks(phase);
CREATE INDEX IF NOT EXISTS idx_project_tasks_updated ON project_tasks(updated_at DESC);""",
    "specifications": """CREATE TABLE IF NOT EXISTS specifications (id TEXT PRIMARY KEY,
    project_task_id TEXT NOT NULL, type TEXT NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL,
    version INTEGER DEFAULT 1, status TEXT NOT NULL DEFAULT 'draft', created_by TEXT NOT NULL, reviewed_by TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, approved_at INTEGER, comments TEXT,
    FOREIGN KEY (project_task_id) REFERENCES project_tasks(id));
CREATE INDEX IF NOT EXISTS idx_specifications_task ON specifications(project_task_id);
CREATE INDEX IF NOT EXISTS idx_specifications_status ON specifications(status);""",
    "agent_identities": """CREATE TABLE IF NOT EXISTS agent_identities (agent_id TEXT PRIMARY KEY,
    agent_type TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'active', 'dormant', 'retired')),
    capabilities TEXT NOT NULL DEFAULT '[]', version INTEGER NOT NULL DEFAULT 1, display_name TEXT,
    description TEXT, metadata TEXT, created_at INTEGER NOT NULL, last_active_at INTEGER NOT NULL,
    retired_at INTEGER, retirement_reason TEXT, created_by TEXT, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_agent_identities_type ON agent_identities(agent_type);
CREATE INDEX IF NOT EXISTS idx_agent_identities_status ON agent_identities(status);
CREATE INDEX IF NOT EXISTS idx_agent_identities_last_active ON agent_identities(last_active_at DESC);
CREATE INDEX IF NOT EXISTS idx_agent_identities_display_name ON agent_identities(display_name);""",
    "agent_identity_audit": """CREATE TABLE IF NOT EXISTS agent_identity_audit (id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('created', 'activated', 'deactivated', 'retired', 'updated', 'spawned')),
    previous_status TEXT, new_status TEXT, reason TEXT, actor_id TEXT, metadata TEXT, timestamp INTEGER NOT NULL,
    FOREIGN KEY (agent_id) REFERENCES agent_identities(agent_id));
CREATE INDEX IF NOT EXISTS idx_agent_identity_audit_agent ON agent_identity_audit(agent_id);
CREATE INDEX IF NOT EXISTS idx_agent_identity_audit_timestamp ON agent_identity_audit(timestamp DESC);
CREATE INDEX IF NOT EXISTS idx_agent_identity_audit_action ON agent_identity_audit(action);""",
    "active_agents": """CREATE TABLE IF NOT EXISTS active_agents (id TEXT PRIMARY KEY, type TEXT NOT NULL,
    name TEXT NOT NULL UNIQUE, status TEXT NOT NULL, session_id TEXT, memory_namespace TEXT, identity_id TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, metadata TEXT,
    FOREIGN KEY (session_id) REFERENCES sessions(id),
    FOREIGN KEY (identity_id) REFERENCES agent_identities(agent_id));
CREATE INDEX IF NOT EXISTS idx_active_agents_status ON active_agents(status);
CREATE INDEX IF NOT EXISTS idx_active_agents_session ON active_agents(session_id);
CREATE INDEX IF NOT EXISTS idx_active_agents_name ON active_agents(name);
CREATE INDEX IF NOT EXISTS idx_active_agents_identity ON active_agents(identity_id);""",
    "review_loops": """CREATE TABLE IF NOT EXISTS review_loops (id TEXT PRIMARY KEY, coder_id TEXT NOT NULL,
    adversarial_id TEXT NOT NULL, session_id TEXT, status TEXT NOT NULL, iteration INTEGER DEFAULT 0,
    max_iterations INTEGER DEFAULT 3, code_input TEXT NOT NULL, current_code TEXT, reviews TEXT,
    final_verdict TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, completed_at INTEGER,
    FOREIGN KEY (session_id) REFERENCES sessions(id));
CREATE INDEX IF NOT EXISTS idx_review_loops_status ON review_loops(status);
CREATE INDEX IF NOT EXISTS idx_review_loops_session ON review_loops(session_id);""",
    "task_embeddings": """CREATE TABLE IF NOT EXISTS task_embeddings (task_id TEXT PRIMARY KEY,
    embedding BLOB NOT NULL, model TEXT NOT NULL, dimensions INTEGER NOT NULL, created_at INTEGER NOT NULL,
    FOREIGN KEY (task_id) REFERENCES tasks(id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_task_embeddings_created ON task_embeddings(created_at DESC);""",
    "task_relationships": """CREATE TABLE IF NOT EXISTS task_relationships (id TEXT PRIMARY KEY,
    from_task_id TEXT NOT NULL, to_task_id TEXT NOT NULL,
    relationship_type TEXT NOT NULL CHECK (relationship_type IN ('parent_of', 'derived_from', 'depends_on',
        'supersedes')),
    metadata TEXT, created_at INTEGER NOT NULL,
    FOREIGN KEY (from_task_id) REFERENCES tasks(id) ON DELETE CASCADE,
    FOREIGN KEY (to_task_id) REFERENCES tasks(id) ON DELETE CASCADE,
    UNIQUE(from_task_id, to_task_id, relationship_type));
CREATE INDEX IF NOT EXISTS idx_task_relationships_from ON task_relationships(from_task_id);
CREATE INDEX IF NOT EXISTS idx_task_relationships_to ON task_relationships(to_task_id);
CREATE INDEX IF NOT EXISTS idx_task_relationships_type ON task_relationships(relationship_type);""",
    "drift_detection_events": """CREATE TABLE IF NOT EXISTS drift_detection_events (id TEXT PRIMARY KEY,
    task_id TEXT, task_type TEXT NOT NULL, ancestor_task_id TEXT NOT NULL, similarity_score REAL NOT NULL,
    threshold REAL NOT NULL,
    action_taken TEXT NOT NULL CHECK (action_taken IN ('allowed', 'warned', 'prevented')),
    task_input TEXT, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_drift_events_task ON drift_detection_events(task_id);
CREATE INDEX IF NOT EXISTS idx_drift_events_created ON drift_detection_events(created_at DESC);
CREATE INDEX IF NOT EXISTS idx_drift_events_action ON drift_detection_events(action_taken);""",
    "agent_resource_metrics": """CREATE TABLE IF NOT EXISTS agent_resource_metrics (agent_id TEXT PRIMARY KEY,
    files_read INTEGER DEFAULT 0, files_written INTEGER DEFAULT 0, files_modified INTEGER DEFAULT 0,
    api_calls_count INTEGER DEFAULT 0, subtasks_spawned INTEGER DEFAULT 0, tokens_consumed INTEGER DEFAULT 0,
    started_at INTEGER NOT NULL, last_deliverable_at INTEGER, last_activity_at INTEGER NOT NULL,
    phase TEXT DEFAULT 'normal', paused_at INTEGER, pause_reason TEXT, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_agent_resource_metrics_phase ON agent_resource_metrics(phase);""",
    "agent_deliverable_checkpoints": """CREATE TABLE IF NOT EXISTS agent_deliverable_checkpoints (
    id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, type TEXT NOT NULL, description TEXT, artifacts TEXT,
    created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_agent_deliverable_checkpoints_agent ON agent_deliverable_checkpoints(agent_id);""",
    "resource_exhaustion_events": """CREATE TABLE IF NOT EXISTS resource_exhaustion_events (id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL, agent_type TEXT NOT NULL, phase TEXT NOT NULL, action_taken TEXT NOT NULL,
    metrics TEXT NOT NULL, thresholds TEXT NOT NULL, triggered_by TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_resource_exhaustion_events_agent ON resource_exhaustion_events(agent_id);
CREATE INDEX IF NOT EXISTS idx_resource_exhaustion_events_created ON resource_exhaustion_events(created_at DESC);""",
    "consensus_checkpoints": """CREATE TABLE IF NOT EXISTS consensus_checkpoints (id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL, parent_task_id TEXT, proposed_subtasks TEXT NOT NULL,
    risk_level TEXT NOT NULL CHECK (risk_level IN ('low', 'medium', 'high')),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'expired')),
    reviewer_strategy TEXT NOT NULL CHECK (reviewer_strategy IN ('adversarial', 'different-model', 'human')),
    reviewer_id TEXT, reviewer_type TEXT CHECK (reviewer_type IN ('agent', 'human')), decision TEXT,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, decided_at INTEGER);
CREATE INDEX IF NOT EXISTS idx_consensus_checkpoints_status ON consensus_checkpoints(status);
CREATE INDEX IF NOT EXISTS idx_consensus_checkpoints_task ON consensus_checkpoints(task_id);
CREATE INDEX IF NOT EXISTS idx_consensus_checkpoints_expires ON consensus_checkpoints(expires_at);""",
    "consensus_checkpoint_events": """CREATE TABLE IF NOT EXISTS consensus_checkpoint_events (id TEXT PRIMARY KEY,
    checkpoint_id TEXT NOT NULL,
    event_type TEXT NOT NULL CHECK (event_type IN ('created', 'review_started', 'approved', 'rejected', 'expired',
        'subtask_rejected')),
    actor_id TEXT, actor_type TEXT CHECK (actor_type IN ('agent', 'human', 'system')), details TEXT,
    created_at INTEGER NOT NULL,
    FOREIGN KEY (checkpoint_id) REFERENCES consensus_checkpoints(id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_consensus_events_checkpoint ON consensus_checkpoint_events(checkpoint_id);
CREATE INDEX IF NOT EXISTS idx_consensus_events_created ON consensus_checkpoint_events(created_at DESC);""",
    "users": """CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, email TEXT UNIQUE NOT NULL,
    username TEXT UNIQUE NOT NULL, password_hash TEXT NOT NULL, role TEXT NOT NULL DEFAULT 'developer',
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, last_login_at TEXT);
CREATE INDEX IF NOT EXISTS idx_users_email ON users(email);
CREATE INDEX IF NOT EXISTS idx_users_username ON users(username);""",
    "refresh_tokens": """CREATE TABLE IF NOT EXISTS refresh_tokens (id TEXT PRIMARY KEY, user_id TEXT NOT NULL,
    token_hash TEXT NOT NULL, expires_at TEXT NOT NULL, created_at TEXT NOT NULL, revoked INTEGER DEFAULT 0,
    FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE);
CREATE INDEX IF NOT EXISTS idx_refresh_tokens_user ON refresh_tokens(user_id);
CREATE INDEX IF NOT EXISTS idx_refresh_tokens_expires ON refresh_tokens(expires_at);""",
}

GENERATIONS = ("current", "pre-task-tree", "pre-agent-id")


def schema_sql(generation: str = "current", *, omit: tuple[str, ...] = ()) -> str:
    if generation not in GENERATIONS:
        raise ValueError(f"unknown generation {generation!r}")
    tree = generation == "current"
    agent = generation != "pre-agent-id"
    parts = []
    for name, sql in TABLES.items():
        if name in omit:
            continue
        parts.append(sql.format(
            agent=MEMORY_AGENT if agent else "",
            agent_index="CREATE INDEX IF NOT EXISTS idx_memory_agent_id ON memory(agent_id);" if agent else "",
            tree=TASK_TREE if tree else "", tree_fks=TASK_TREE_FKS if tree else "") if name in ("memory", "tasks")
            else sql)
    return "\n".join(parts)


def create(path, generation: str = "current", *, omit: tuple[str, ...] = (), wal: bool = True) -> None:
    """A new database at ``path`` as AgentStack opens one: WAL, foreign keys, the schema script."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        if wal:
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.executescript("BEGIN;\n" + schema_sql(generation, omit=omit) + "\nCOMMIT;")
    finally:
        conn.close()
