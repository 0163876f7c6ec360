"""What an agent's and a session's JSON columns hold: the agent's descriptor, the session's permissions,
and the tokens a message or an agent used."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from daycare_gui.stores.daycare.records.json_values import (
    Unparsed,
    frozen_record,
    number_of,
    parse_json_text,
    string_of,
    string_or_none,
    unknown_keys,
)
from daycare_gui.stores.deferred_dataclass import deferred

# --- agent descriptors ------------------------------------------------------------------------------

DESCRIPTOR_KINDS = ("user", "cron", "system", "subagent", "app", "permanent")


@deferred
class AgentDescriptor:
    """One of the six descriptor kinds; unknown kinds keep their type and every key in ``extra``."""

    type: str
    id: str | None = None  # cron, subagent, app, permanent
    name: str | None = None
    connector: str | None = None  # user
    user_id: str | None = None  # user: the connector's user id (not a users.id)
    channel_id: str | None = None  # user
    tag: str | None = None  # system
    parent_agent_id: str | None = None  # subagent, app
    system_prompt: str | None = None  # app, permanent
    app_id: str | None = None  # app
    username: str | None = None  # permanent
    description: str | None = None  # permanent
    workspace_dir: str | None = None  # permanent
    extra: dict = field(default_factory=dict)

    @property
    def known_kind(self) -> bool:
        return self.type in DESCRIPTOR_KINDS

    @property
    def display_name(self) -> str:
        """A name a person recognises, derived differently per kind."""
        if self.type == "user":
            return f"{self.connector or '?'} user {self.user_id or '?'}" + (
                f" · {self.channel_id}" if self.channel_id and self.channel_id != self.user_id else ""
            )
        if self.type == "cron":
            return self.name or f"cron {self.id or '?'}"
        if self.type == "system":
            return f"system: {self.tag or '?'}"
        if self.type == "subagent":
            return self.name or f"subagent {self.id or '?'}"
        if self.type == "app":
            return self.name or f"app {self.app_id or self.id or '?'}"
        if self.type == "permanent":
            return self.name or (self.username and f"@{self.username}") or f"agent {self.id or '?'}"
        return self.name or self.id or f"({self.type})"


_DESCRIPTOR_KEYS = {
    "type": "type",
    "id": "id",
    "name": "name",
    "connector": "connector",
    "userId": "user_id",
    "channelId": "channel_id",
    "tag": "tag",
    "parentAgentId": "parent_agent_id",
    "systemPrompt": "system_prompt",
    "appId": "app_id",
    "username": "username",
    "description": "description",
    "workspaceDir": "workspace_dir",
}


def parse_descriptor(raw: str | None) -> AgentDescriptor | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "descriptor is not a JSON object")
    if not isinstance(obj.get("type"), str):
        return Unparsed(raw, "descriptor has no type")
    values = {}
    for key, attr in _DESCRIPTOR_KEYS.items():
        v = obj.get(key)
        if isinstance(v, str):
            values[attr] = v
        elif v is not None and key != "type":
            values.setdefault("extra", {})[key] = v  # wrong type: keep it visible rather than drop it
    extra = {**values.pop("extra", {}), **unknown_keys(obj, tuple(_DESCRIPTOR_KEYS))}
    return AgentDescriptor(extra=extra, **values)


# --- permissions and tokens ---------------------------------------------------------------------------


@deferred
class SessionPermissions:
    working_dir: str | None
    write_dirs: tuple[str, ...]
    read_dirs: tuple[str, ...]
    network: bool | None  # None: key absent (imported agents may hold a reduced object)
    events: bool | None
    workspace_dir: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def reduced(self) -> bool:
        return self.network is None or self.events is None


def parse_permissions(raw: str | None) -> SessionPermissions | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "permissions are not a JSON object")
    return permissions_from_obj(obj)


def permissions_from_obj(obj: dict) -> SessionPermissions:
    def dirs(key):
        v = obj.get(key)
        return tuple(x for x in v if isinstance(x, str)) if isinstance(v, list) else ()

    def flag(key):
        v = obj.get(key)
        return v if isinstance(v, bool) else None

    known = ("workingDir", "writeDirs", "readDirs", "network", "events", "workspaceDir")
    return SessionPermissions(
        working_dir=string_or_none(obj, "workingDir"),
        write_dirs=dirs("writeDirs"),
        read_dirs=dirs("readDirs"),
        network=flag("network"),
        events=flag("events"),
        workspace_dir=string_or_none(obj, "workspaceDir"),
        extra=unknown_keys(obj, known),
    )


@deferred
class TokenSize:
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total: int = 0

    @classmethod
    def from_obj(cls, obj: Any) -> TokenSize:
        if not isinstance(obj, dict):
            return cls()
        get = obj.get
        values = (get("input"), get("output"), get("cacheRead"), get("cacheWrite"), get("total"))
        if any(type(v) is not int for v in values):  # noqa: E721 (bool is not a count): the careful path
            values = (int(number_of(obj, "input")), int(number_of(obj, "output")), int(number_of(obj, "cacheRead")),
                      int(number_of(obj, "cacheWrite")), int(number_of(obj, "total")))
        # built without the frozen __init__ (one per assistant message of every history page)
        return frozen_record(cls, {}, dict(zip(_TOKEN_FIELDS, values)))

    def __add__(self, other: TokenSize) -> TokenSize:
        return TokenSize(
            self.input + other.input,
            self.output + other.output,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.total + other.total,
        )


_TOKEN_FIELDS = ("input", "output", "cache_read", "cache_write", "total")


@deferred
class TokenEntry:
    provider: str
    model: str
    size: TokenSize


def token_entry_from_obj(obj: Any) -> TokenEntry | None:
    if not isinstance(obj, dict):
        return None
    return frozen_record(TokenEntry, {}, {"provider": string_of(obj, "provider", "?"), "model": string_of(obj, "model", "?"),
                                    "size": TokenSize.from_obj(obj.get("size"))})


def parse_tokens(raw: str | None) -> TokenEntry | None | Unparsed:
    obj = parse_json_text(raw, allow_null=True)
    if obj is None or isinstance(obj, Unparsed):
        return obj
    entry = token_entry_from_obj(obj)
    return entry if entry is not None else Unparsed(raw, "tokens are not a JSON object")


@deferred
class TokenStats:
    """provider → model → sizes."""

    by_model: dict[tuple[str, str], TokenSize]

    @property
    def total(self) -> TokenSize:
        out = TokenSize()
        for size in self.by_model.values():
            out = out + size
        return out


def parse_stats(raw: str | None) -> TokenStats | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "stats are not a JSON object")
    by_model: dict[tuple[str, str], TokenSize] = {}
    for provider, models in obj.items():
        if isinstance(models, dict):
            for model, size in models.items():
                by_model[(str(provider), str(model))] = TokenSize.from_obj(size)
    return TokenStats(by_model)
