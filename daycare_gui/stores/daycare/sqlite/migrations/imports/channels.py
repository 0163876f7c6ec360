"""20260222_import_channels: ``channels/<dir>/channel.json`` + ``history.jsonl`` → channels, members, messages."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.imports.common import (
    number_or_now,
    owner_or_fallback,
    sorted_subdirs,
)
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    JsonError,
    read_json_file,
    read_json_lines,
    string_or_none,
    to_json,
)
from daycare_gui.stores.problems import Problem


@dataclass
class LegacyChannel:
    id: str
    name: str
    leader: str
    members: list[tuple[str, str, int]]  # (agent id, username, joined at)
    messages: list[tuple[str, str, str, str, int]]  # (id, sender, trimmed text, mentions JSON, created at)
    created_at: int
    updated_at: int


def _read_channel(folder: Path, now: int, skipped: list[Problem]) -> LegacyChannel | None:
    path = folder / "channel.json"
    if not path.exists():
        return None
    try:
        parsed = read_json_file(path)
    except (OSError, JsonError):
        skipped.append(Problem(str(path), None, "not valid JSON; channel skipped", "warning"))
        return None
    if not isinstance(parsed, dict):
        skipped.append(Problem(str(path), None, "not a JSON object; channel skipped", "warning"))
        return None
    # The folder name is ignored: the channel is identified by the file's own id/name.
    channel_id, name, leader = (string_or_none(parsed.get(k)) for k in ("id", "name", "leader"))
    if not channel_id or not name or not leader:
        skipped.append(Problem(str(path), None, "id, name or leader missing; channel skipped", "warning"))
        return None
    members = []
    for member in parsed.get("members") if isinstance(parsed.get("members"), list) else []:
        if not isinstance(member, dict):
            continue
        agent_id, username = string_or_none(member.get("agentId")), string_or_none(member.get("username"))
        if agent_id and username:
            members.append((agent_id, username, number_or_now(member.get("joinedAt"), now)))
    return LegacyChannel(channel_id, name, leader, members, _read_messages(folder / "history.jsonl", now, skipped),
                         number_or_now(parsed.get("createdAt"), now), number_or_now(parsed.get("updatedAt"), now))


def _read_messages(path: Path, now: int, skipped: list[Problem]) -> list[tuple]:
    if not path.exists():
        return []
    lines = read_json_lines(path)
    skipped.extend(lines.skipped)
    messages = []
    for number, value in lines.values:
        if not isinstance(value, dict):
            continue
        message_id, sender, text = (string_or_none(value.get(k)) for k in ("id", "senderUsername", "text"))
        if not message_id or not sender or not text:
            skipped.append(Problem(str(path), number, "message without id, senderUsername or text; skipped", "warning"))
            continue
        mentions = value.get("mentions")
        mentions = [m for m in mentions if isinstance(m, str)] if isinstance(mentions, list) else []
        messages.append((message_id, sender, text, to_json(mentions), number_or_now(value.get("createdAt"), now)))
    return messages


def read_channels(channels_dir: Path, now: int, skipped: list[Problem]) -> list[LegacyChannel]:
    if not channels_dir.is_dir():
        return []
    channels = []
    for folder in sorted_subdirs(channels_dir):
        channel = _read_channel(folder, now, skipped)
        if channel is not None:
            channels.append(channel)
    return channels


def scan_channels(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    channels = read_channels(legacy_dir / "channels", now, scan.skipped)
    scan.add("channels", len(channels))
    scan.add("members", sum(len(c.members) for c in channels))
    scan.add("messages", sum(len(c.messages) for c in channels))
    return scan


def import_channels(ctx: MigrationContext) -> None:
    if ctx.legacy_dir is None or not (ctx.legacy_dir / "channels").is_dir():
        return
    owner, conn = owner_or_fallback(ctx), ctx.conn
    for channel in read_channels(ctx.legacy_dir / "channels", ctx.now_ms(), []):
        channel_user = ctx.agent_user_id(channel.leader) or owner
        conn.execute(
            "INSERT OR IGNORE INTO channels (id, user_id, name, leader, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            (channel.id, channel_user, channel.name, channel.leader, channel.created_at, channel.updated_at),
        )
        for agent_id, username, joined_at in channel.members:
            conn.execute(
                """INSERT OR IGNORE INTO channel_members (channel_id, user_id, agent_id, username, joined_at)
                   VALUES (?, ?, ?, ?, ?)""",
                (channel.id, ctx.agent_user_id(agent_id) or channel_user, agent_id, username, joined_at),
            )
        conn.executemany(
            """INSERT OR IGNORE INTO channel_messages (id, channel_id, user_id, sender_username, text, mentions, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            [(mid, channel.id, channel_user, sender, text, mentions, created)
             for mid, sender, text, mentions, created in channel.messages],
        )
