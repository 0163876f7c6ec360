"""What AgentStack's database holds (blackms/aistack as built at v1.6.1), and which generation a file is.

AgentStack keeps no version marker: one ``CREATE … IF NOT EXISTS`` script runs on every open, so newer
tables appear in old files but newer *columns* never do. The generation is therefore read from the
columns (``PRAGMA table_info``): what a file lacks says which AgentStack last created it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# table → columns, in the order the schema script declares them (v1.6.1; unchanged since 2026-01-29).
KNOWN: dict[str, tuple[str, ...]] = {
    "memory": ("id", "key", "namespace", "content", "embedding", "metadata", "agent_id", "created_at",
               "updated_at"),
    "tags": ("id", "name", "created_at"),
    "memory_tags": ("memory_id", "tag_id", "created_at"),
    "memory_relationships": ("id", "from_id", "to_id", "relationship_type", "metadata", "created_at"),
    "memory_versions": ("id", "memory_id", "version", "key", "namespace", "content", "metadata", "agent_id",
                        "created_at"),
    "memory_fts": ("key", "content", "namespace"),
    "sessions": ("id", "status", "started_at", "ended_at", "metadata"),
    "tasks": ("id", "session_id", "agent_type", "status", "input", "output", "created_at", "completed_at",
              "risk_level", "parent_task_id", "depth", "consensus_checkpoint_id"),
    "plugins": ("name", "version", "enabled", "config", "installed_at"),
    "projects": ("id", "name", "description", "path", "status", "created_at", "updated_at", "metadata"),
    "project_tasks": ("id", "project_id", "session_id", "title", "description", "phase", "priority",
                      "assigned_agents", "created_at", "updated_at", "completed_at"),
    "specifications": ("id", "project_task_id", "type", "title", "content", "version", "status", "created_by",
                       "reviewed_by", "created_at", "updated_at", "approved_at", "comments"),
    "agent_identities": ("agent_id", "agent_type", "status", "capabilities", "version", "display_name",
                         "description", "metadata", "created_at", "last_active_at", "retired_at",
                         "retirement_reason", "created_by", "updated_at"),
    "agent_identity_audit": ("id", "agent_id", "action", "previous_status", "new_status", "reason", "actor_id",
                             "metadata", "timestamp"),
    "active_agents": ("id", "type", "name", "status", "session_id", "memory_namespace", "identity_id",
                      "created_at", "updated_at", "metadata"),
    "review_loops": ("id", "coder_id", "adversarial_id", "session_id", "status", "iteration", "max_iterations",
                     "code_input", "current_code", "reviews", "final_verdict", "created_at", "updated_at",
                     "completed_at"),
    "task_embeddings": ("task_id", "embedding", "model", "dimensions", "created_at"),
    "task_relationships": ("id", "from_task_id", "to_task_id", "relationship_type", "metadata", "created_at"),
    "drift_detection_events": ("id", "task_id", "task_type", "ancestor_task_id", "similarity_score",
                               "threshold", "action_taken", "task_input", "created_at"),
    "agent_resource_metrics": ("agent_id", "files_read", "files_written", "files_modified", "api_calls_count",
                               "subtasks_spawned", "tokens_consumed", "started_at", "last_deliverable_at",
                               "last_activity_at", "phase", "paused_at", "pause_reason", "updated_at"),
    "agent_deliverable_checkpoints": ("id", "agent_id", "type", "description", "artifacts", "created_at"),
    "resource_exhaustion_events": ("id", "agent_id", "agent_type", "phase", "action_taken", "metrics",
                                   "thresholds", "triggered_by", "created_at"),
    "consensus_checkpoints": ("id", "task_id", "parent_task_id", "proposed_subtasks", "risk_level", "status",
                              "reviewer_strategy", "reviewer_id", "reviewer_type", "decision", "created_at",
                              "expires_at", "decided_at"),
    "consensus_checkpoint_events": ("id", "checkpoint_id", "event_type", "actor_id", "actor_type", "details",
                                    "created_at"),
    # Added to the same file by the web server's auth service.
    "users": ("id", "email", "username", "password_hash", "role", "created_at", "updated_at", "last_login_at"),
    "refresh_tokens": ("id", "user_id", "token_hash", "expires_at", "created_at", "revoked"),
}

# The tables only the web server creates: their absence is normal, not an older generation.
OPTIONAL_TABLES = frozenset({"users", "refresh_tokens"})

# Columns that arrived after the first release, with the generation a file lacking them belongs to.
TASK_TREE_COLUMNS = ("risk_level", "parent_task_id", "depth", "consensus_checkpoint_id")

# FTS5 creates these beside a virtual table NAME (NAME_content only without an external content table).
FTS_SHADOW_SUFFIXES = ("_data", "_idx", "_docsize", "_config", "_content")

# Columns whose values are secrets or secret-derived: never shown, not even masked text of them.
NEVER_SHOWN = {("users", "password_hash")}
MASKED = {("refresh_tokens", "token_hash")}

# Whether a name looks like one of AgentStack's files.
# The values AgentStack's code writes (its columns are plain TEXT): what a list flags otherwise, and the
# choices a task's status is edited among.
SESSION_STATUSES = ("active", "ended", "error")
TASK_STATUSES = ("pending", "running", "completed", "failed")
RISK_LEVELS = ("low", "medium", "high")

DB_NAMES = ("aistack.db", "agentstack.db")
CONFIG_NAMES = ("aistack.config.json", "agentstack.config.json")
# The tables that make a SQLite file AgentStack's even when its name is not (memory.path may be anything).
SIGNATURE = ("memory", "memory_fts", "sessions", "tasks")


@dataclass
class Generation:
    """The layout generation read from a file's columns."""

    name: str  # "current", "pre-task-tree", "pre-agent-id", "partial"
    missing_tables: list[str] = field(default_factory=list)
    missing_columns: dict[str, list[str]] = field(default_factory=dict)
    unknown_tables: list[str] = field(default_factory=list)
    unknown_columns: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "missing_tables": self.missing_tables,
            "missing_columns": self.missing_columns,
            "unknown_tables": self.unknown_tables,
            "unknown_columns": self.unknown_columns,
        }


def is_shadow(name: str, virtual_tables: set[str]) -> bool:
    """True for an FTS5 shadow table of one of ``virtual_tables``."""
    return any(name == v + s for v in virtual_tables for s in FTS_SHADOW_SUFFIXES)


def infer_generation(columns: dict[str, list[str]], virtual_tables: set[str]) -> Generation:
    """``columns``: every table's columns (shadow tables excluded) → the generation and what differs."""
    gen = Generation("current")
    for table, known in KNOWN.items():
        have = columns.get(table)
        if have is None:
            if table not in OPTIONAL_TABLES:
                gen.missing_tables.append(table)
            continue
        if table in virtual_tables:
            continue  # an FTS table's columns are its indexed columns, compared below only by name
        lacking = [c for c in known if c not in have]
        extra = [c for c in have if c not in known]
        if lacking:
            gen.missing_columns[table] = lacking
        if extra:
            gen.unknown_columns[table] = extra
    gen.unknown_tables = sorted(t for t in columns if t not in KNOWN)

    if "agent_id" in gen.missing_columns.get("memory", []):
        gen.name = "pre-agent-id"
        gen.notes.append("memory has no agent_id column: made by AgentStack before 2026-01-27 "
                         "(blackms/aistack@19314ff). Current AgentStack cannot open it: its schema script "
                         "fails creating idx_memory_agent_id (no such column).")
    if any(c in gen.missing_columns.get("tasks", []) for c in TASK_TREE_COLUMNS):
        if gen.name == "current":
            gen.name = "pre-task-tree"
        gen.notes.append("tasks lacks " + ", ".join(c for c in TASK_TREE_COLUMNS
                                                     if c in gen.missing_columns.get("tasks", []))
                         + ": made before 2026-01-29 (blackms/aistack@35902fe). Tasks are shown flat; "
                           "AgentStack code that uses those columns fails on this file.")
    if gen.name == "current" and (gen.missing_tables or gen.missing_columns):
        gen.name = "partial"
    if gen.missing_tables:
        gen.notes.append("tables missing (AgentStack creates them on its next open): "
                         + ", ".join(gen.missing_tables))
    if gen.unknown_tables or gen.unknown_columns:
        gen.notes.append("holds tables or columns this version does not know (a newer AgentStack?); "
                         "they are listed under Tables")
    return gen
