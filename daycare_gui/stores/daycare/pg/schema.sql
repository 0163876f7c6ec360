-- Today's Daycare schema (ex3ndr/daycare@7c3c466c, all 20 migrations applied), as PGlite reports it for
-- the real store in tests/fixtures/daycare-pglite-7c3c466c.tar.gz: tables, columns, NOT NULL, defaults and
-- primary keys (indexes and the three foreign keys left out). Used to write demo and test stores into a
-- fresh PGlite folder or PostgreSQL database.
CREATE TABLE "_migrations" (
    "name" text,
    "applied_at" bigint NOT NULL,
    PRIMARY KEY (name)
);
CREATE TABLE "agents" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "path" text NOT NULL,
    "kind" text NOT NULL DEFAULT 'agent'::text,
    "model_role" text,
    "connector_name" text,
    "parent_agent_id" text,
    "foreground" boolean NOT NULL DEFAULT false,
    "name" text,
    "description" text,
    "system_prompt" text,
    "workspace_dir" text,
    "next_sub_index" integer NOT NULL DEFAULT 0,
    "active_session_id" text,
    "permissions" jsonb NOT NULL,
    "lifecycle" text NOT NULL DEFAULT 'active'::text,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    "user_id" text NOT NULL,
    "connector_key" text,
    PRIMARY KEY (id, version)
);
CREATE TABLE "app_auth_accounts" (
    "id" text,
    "provider_id" text NOT NULL,
    "account_id" text NOT NULL,
    "user_id" text NOT NULL,
    "access_token" text,
    "refresh_token" text,
    "id_token" text,
    "access_token_expires_at" timestamp with time zone,
    "refresh_token_expires_at" timestamp with time zone,
    "scope" text,
    "password" text,
    "created_at" timestamp with time zone NOT NULL,
    "updated_at" timestamp with time zone NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "app_auth_sessions" (
    "id" text,
    "user_id" text NOT NULL,
    "token" text NOT NULL,
    "expires_at" timestamp with time zone NOT NULL,
    "ip_address" text,
    "user_agent" text,
    "created_at" timestamp with time zone NOT NULL,
    "updated_at" timestamp with time zone NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "app_auth_users" (
    "id" text,
    "email" text NOT NULL,
    "email_verified" boolean NOT NULL DEFAULT false,
    "name" text NOT NULL,
    "image" text,
    "created_at" timestamp with time zone NOT NULL,
    "updated_at" timestamp with time zone NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "app_auth_verifications" (
    "id" text,
    "identifier" text NOT NULL,
    "value" text NOT NULL,
    "expires_at" timestamp with time zone NOT NULL,
    "created_at" timestamp with time zone NOT NULL,
    "updated_at" timestamp with time zone NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "channel_members" (
    "id" serial,
    "channel_id" text NOT NULL,
    "user_id" text NOT NULL,
    "agent_id" text NOT NULL,
    "username" text NOT NULL,
    "joined_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "channel_messages" (
    "id" text,
    "channel_id" text NOT NULL,
    "user_id" text NOT NULL,
    "sender_username" text NOT NULL,
    "text" text NOT NULL,
    "mentions" jsonb NOT NULL,
    "created_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "channels" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "user_id" text NOT NULL,
    "name" text NOT NULL,
    "leader" text NOT NULL,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE "connections" (
    "user_a_id" text,
    "user_b_id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "requested_a" boolean NOT NULL DEFAULT false,
    "requested_b" boolean NOT NULL DEFAULT false,
    "requested_a_at" bigint,
    "requested_b_at" bigint,
    PRIMARY KEY (user_a_id, user_b_id, version)
);
CREATE TABLE "document_references" (
    "id" serial,
    "user_id" text NOT NULL,
    "source_id" text NOT NULL,
    "source_version" integer NOT NULL,
    "target_id" text NOT NULL,
    "kind" text NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "documents" (
    "id" text,
    "user_id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "slug" text NOT NULL,
    "title" text NOT NULL,
    "description" text NOT NULL,
    "body" text NOT NULL DEFAULT ''::text,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (user_id, id, version)
);
CREATE TABLE "fragments" (
    "id" text,
    "user_id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "kit_version" text NOT NULL,
    "title" text NOT NULL,
    "description" text NOT NULL DEFAULT ''::text,
    "spec" jsonb NOT NULL,
    "archived" boolean NOT NULL DEFAULT false,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (user_id, id, version)
);
CREATE TABLE "inbox" (
    "id" text,
    "agent_id" text NOT NULL,
    "posted_at" bigint NOT NULL,
    "type" text NOT NULL,
    "data" jsonb NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "key_values" (
    "user_id" text,
    "key" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "value" jsonb,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (user_id, key, version)
);
CREATE TABLE "mini_apps" (
    "user_id" text,
    "id" text,
    "version" integer DEFAULT 1,
    "code_version" integer NOT NULL DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "title" text NOT NULL,
    "icon" text NOT NULL,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (user_id, id, version)
);
CREATE TABLE "model_role_rules" (
    "id" text,
    "role" text,
    "kind" text,
    "user_id" text,
    "agent_id" text,
    "model" text NOT NULL,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    "reasoning" text,
    PRIMARY KEY (id)
);
CREATE TABLE "observation_log" (
    "id" text,
    "user_id" text NOT NULL,
    "type" text NOT NULL,
    "source" text NOT NULL,
    "message" text NOT NULL,
    "details" text,
    "data" jsonb,
    "scope_ids" text[] NOT NULL DEFAULT '{}'::text[],
    "created_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "processes" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "user_id" text NOT NULL,
    "name" text NOT NULL,
    "command" text NOT NULL,
    "cwd" text NOT NULL,
    "home" text,
    "env" jsonb NOT NULL,
    "package_managers" jsonb NOT NULL,
    "allowed_domains" jsonb NOT NULL,
    "allow_local_binding" boolean NOT NULL DEFAULT false,
    "permissions" jsonb NOT NULL,
    "owner" jsonb,
    "keep_alive" boolean NOT NULL DEFAULT false,
    "desired_state" text NOT NULL DEFAULT 'running'::text,
    "status" text NOT NULL DEFAULT 'running'::text,
    "pid" integer,
    "boot_time_ms" bigint,
    "restart_count" integer NOT NULL DEFAULT 0,
    "restart_failure_count" integer NOT NULL DEFAULT 0,
    "next_restart_at" bigint,
    "settings_path" text NOT NULL,
    "log_path" text NOT NULL,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    "last_started_at" bigint,
    "last_exited_at" bigint,
    PRIMARY KEY (id, version)
);
CREATE TABLE "psql_databases" (
    "user_id" text,
    "id" text,
    "name" text NOT NULL,
    "created_at" bigint NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE TABLE "session_history" (
    "id" serial,
    "session_id" text NOT NULL,
    "type" text NOT NULL,
    "at" bigint NOT NULL,
    "data" jsonb NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "sessions" (
    "id" text,
    "agent_id" text NOT NULL,
    "inference_session_id" text,
    "created_at" bigint NOT NULL,
    "reset_message" text,
    "invalidated_at" bigint,
    "processed_until" bigint,
    "ended_at" bigint,
    PRIMARY KEY (id)
);
CREATE TABLE "signals_delayed" (
    "id" text,
    "user_id" text NOT NULL,
    "type" text NOT NULL,
    "deliver_at" bigint NOT NULL,
    "source" jsonb NOT NULL,
    "data" jsonb,
    "repeat_key" text,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "signals_events" (
    "id" text,
    "user_id" text NOT NULL,
    "type" text NOT NULL,
    "source" jsonb NOT NULL,
    "data" jsonb,
    "created_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "signals_subscriptions" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "user_id" text NOT NULL,
    "agent_id" text NOT NULL,
    "pattern" text NOT NULL,
    "silent" boolean NOT NULL DEFAULT false,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE "system_prompts" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "scope" text NOT NULL,
    "user_id" text,
    "kind" text NOT NULL,
    "condition" text,
    "prompt" text NOT NULL,
    "enabled" boolean NOT NULL DEFAULT true,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE "tasks" (
    "id" text,
    "user_id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "title" text NOT NULL,
    "description" text,
    "code" text NOT NULL,
    "parameters" jsonb,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (user_id, id, version)
);
CREATE TABLE "tasks_cron" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "task_id" text NOT NULL,
    "user_id" text NOT NULL,
    "schedule" text NOT NULL,
    "timezone" text NOT NULL DEFAULT 'UTC'::text,
    "agent_id" text,
    "enabled" boolean NOT NULL DEFAULT true,
    "delete_after_run" boolean NOT NULL DEFAULT false,
    "parameters" jsonb,
    "last_run_at" bigint,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE "tasks_webhook" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "task_id" text NOT NULL,
    "user_id" text NOT NULL,
    "agent_id" text,
    "last_run_at" bigint,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id, version)
);
CREATE TABLE "token_stats_hourly" (
    "hour_start" bigint,
    "user_id" text,
    "agent_id" text,
    "model" text,
    "input_tokens" integer NOT NULL DEFAULT 0,
    "output_tokens" integer NOT NULL DEFAULT 0,
    "cache_read_tokens" integer NOT NULL DEFAULT 0,
    "cache_write_tokens" integer NOT NULL DEFAULT 0,
    "cost" real NOT NULL DEFAULT 0,
    PRIMARY KEY (hour_start, user_id, agent_id, model)
);
CREATE TABLE "user_connector_keys" (
    "id" serial,
    "user_id" text NOT NULL,
    "connector_key" text NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "users" (
    "id" text,
    "version" integer DEFAULT 1,
    "valid_from" bigint NOT NULL,
    "valid_to" bigint,
    "is_workspace" boolean NOT NULL DEFAULT false,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    "workspace_owner_id" text,
    "first_name" text,
    "last_name" text,
    "bio" text,
    "about" text,
    "country" text,
    "timezone" text,
    "system_prompt" text,
    "memory" boolean NOT NULL DEFAULT false,
    "nametag" text NOT NULL,
    "emoji" text,
    "configuration" jsonb NOT NULL DEFAULT '{"appReady": false, "homeReady": false, "bootstrapStarted": false}'::jsonb,
    PRIMARY KEY (id, version)
);
CREATE TABLE "voice_agents" (
    "id" text,
    "user_id" text NOT NULL,
    "name" text NOT NULL,
    "description" text,
    "system_prompt" text NOT NULL,
    "tools" jsonb NOT NULL DEFAULT '[]'::jsonb,
    "settings" jsonb NOT NULL DEFAULT '{}'::jsonb,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    PRIMARY KEY (id)
);
CREATE TABLE "workspace_members" (
    "id" serial,
    "workspace_id" text NOT NULL,
    "user_id" text NOT NULL,
    "joined_at" bigint NOT NULL,
    "left_at" bigint,
    "kick_reason" text,
    PRIMARY KEY (id)
);
