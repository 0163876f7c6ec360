"""The 26 migrations of Daycare 808af509, in Daycare's execution order (which is not name order)."""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.migrations import schema_steps as s
from daycare_gui.stores.daycare.sqlite.migrations.base import Migration
from daycare_gui.stores.daycare.sqlite.migrations.imports.agents import import_files, scan_agents
from daycare_gui.stores.daycare.sqlite.migrations.imports.channels import import_channels, scan_channels
from daycare_gui.stores.daycare.sqlite.migrations.imports.expose import import_expose, scan_expose
from daycare_gui.stores.daycare.sqlite.migrations.imports.processes import import_processes, scan_processes
from daycare_gui.stores.daycare.sqlite.migrations.imports.signals import import_signals, scan_signals
from daycare_gui.stores.daycare.sqlite.migrations.imports.tasks import import_tasks, scan_tasks
from daycare_gui.stores.daycare.sqlite.migrations.users_bootstrap import users_bootstrap
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509

_BY_NAME: dict[str, Migration] = {
    m.name: m
    for m in (
        Migration("20260219_initial", "creates agents, sessions, session_history", s.initial),
        Migration("20260219_import_files", "imports legacy agents/<id>/ folders (only if agents is empty)",
                  import_files, scan_agents),
        Migration("20260220_add_users", "creates users, user_connector_keys and the single-owner index", s.add_users),
        Migration("20260220_users_bootstrap",
                  "creates one user per connector identity of the user agents (first = owner); adds agents.user_id "
                  "with the owner id as default", users_bootstrap),
        Migration("20260220_add_tasks", "creates tasks_cron and tasks_heartbeat", s.add_tasks),
        Migration("20260220_import_tasks", "imports cron/*/TASK.md and heartbeat/*.md", import_tasks, scan_tasks),
        Migration("20260221_drop_gate_columns", "drops the old `gate` column of both task tables if present",
                  s.drop_gate_columns),
        Migration("20260221_backfill_cron_users", "sets blank tasks_cron.user_id to the owner", s.backfill_cron_users),
        Migration("20260221_add_inbox", "creates inbox", s.add_inbox),
        Migration("20260222_add_signals", "creates signals_events, signals_subscriptions, signals_delayed",
                  s.add_signals),
        Migration("20260222_import_signals", "imports signals/events.jsonl and signals/delayed.json",
                  import_signals, scan_signals),
        Migration("20260222_add_channels", "creates channels, channel_members, channel_messages", s.add_channels),
        Migration("20260222_import_channels", "imports channels/<dir>/channel.json and history.jsonl",
                  import_channels, scan_channels),
        Migration("20260222_add_expose", "creates expose_endpoints", s.add_expose),
        Migration("20260222_import_expose", "imports expose/endpoints/*.json", import_expose, scan_expose),
        Migration("20260222_add_processes", "creates processes", s.add_processes),
        Migration("20260222_import_processes", "imports processes/<dir>/record.json (version 2 only)",
                  import_processes, scan_processes),
        Migration("20260223_add_heartbeat_users",
                  "adds tasks_heartbeat.user_id and sets it to the owner (fails if rows need an owner and none exists)",
                  s.add_heartbeat_users),
        Migration("20260224_add_memory_columns", "adds sessions.invalidated_at and sessions.processed_until",
                  s.add_memory_columns),
        Migration("20260222_session_ended_at", "adds sessions.ended_at", s.session_ended_at),
        Migration("20260222_add_user_parent", "adds users.parent_user_id and users.name", s.add_user_parent),
        Migration("20260222_add_usertag_connections", "adds users.usertag; creates connections",
                  s.add_usertag_connections),
        Migration("20260225_require_usertag",
                  "gives every user without a tag a random one; makes the tag required (index + triggers)",
                  s.require_usertag),
        Migration("20260226_rename_usertag_to_nametag", "renames users.usertag to nametag, recreates index/triggers",
                  s.rename_usertag_to_nametag),
        Migration("20260224_add_system_prompts", "creates system_prompts", s.add_system_prompts),
        Migration("20260224_rename_prompt_to_code", "renames `prompt` to `code` in tasks_heartbeat and tasks_cron",
                  s.rename_prompt_to_code),
    )
}

# Order and names come from the shared list, so the catalog cannot drift from what the rest of the app knows.
MIGRATIONS: tuple[Migration, ...] = tuple(_BY_NAME[name] for name in MIGRATIONS_808AF509)
assert len(MIGRATIONS) == len(_BY_NAME), "every implemented migration must be in MIGRATIONS_808AF509"
