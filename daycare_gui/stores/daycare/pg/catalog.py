"""Daycare's PostgreSQL migrations (ex3ndr/daycare@7c3c466c), in the order Daycare applies them, and the
tables whose rows are versioned (``valid_from``/``valid_to``; the current row has ``valid_to IS NULL``)."""

from __future__ import annotations

from dataclasses import dataclass

MIGRATIONS: tuple[str, ...] = (
    "20260302165030_bootstrap",
    "20260303101000_user_key_values",
    "20260303120000_model_role_rules",
    "20260304101500_psql_databases",
    "20260304120000_fragments",
    "20260307170000_model_role_rules_reasoning",
    "20260307183000_app_auth_tables",
    "20260307190000_workspace_members",
    "20260308090000_remove_user_is_owner",
    "20260308110000_rename_workspace_owner_id",
    "20260306120000_swarm_to_workspace",
    "20260306130000_user_emoji",
    "20260308090000_user_configuration",
    "20260308093000_user_configuration_ready_flags",
    "20260308120000_todos",
    "20260309090000_user_configuration_bootstrap_started",
    "20260311130000_mini_apps",
    "20260312191000_agent_connector_keys",
    "20260313110000_drop_todos",
    "20260314110000_voice_agents",
)

# The first PGlite stores (2026-02-26 … 03-01) were reset once; their names start with these.
PRE_RESET_PREFIXES = ("20260226_", "20260227_", "20260228_", "20260301_")

VERSIONED = ("users", "agents", "tasks", "tasks_cron", "tasks_webhook", "documents", "fragments", "key_values",
             "mini_apps", "channels", "processes", "connections", "system_prompts", "signals_subscriptions")


@dataclass(frozen=True)
class PgMigrationState:
    applied: tuple[str, ...]  # in applied order (applied_at, then name)
    pending: tuple[str, ...]
    unknown: tuple[str, ...]
    pre_reset: bool

    def to_dict(self) -> dict:
        return {"applied": list(self.applied), "pending": list(self.pending), "unknown": list(self.unknown),
                "pre_reset": self.pre_reset}


def migration_state(applied: list[str]) -> PgMigrationState:
    known = set(MIGRATIONS)
    return PgMigrationState(
        applied=tuple(applied),
        pending=tuple(m for m in MIGRATIONS if m not in set(applied)),
        unknown=tuple(m for m in applied if m not in known),
        pre_reset=any(m.startswith(PRE_RESET_PREFIXES) for m in applied),
    )
