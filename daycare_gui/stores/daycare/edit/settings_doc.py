"""``settings.json`` edited faithfully: one dotted key at a time, the rest of the file byte for byte.

Daycare refuses to start on a settings file that fails its schema, so every value is checked before
anything is written — not only at the key named, but everything beneath it: ``--set 'engine={"dataDir":
5}'`` or ``--set engine=null`` would otherwise slip past a check of ``engine.dataDir`` alone. The schema
below is what Daycare's settings parser (ex3ndr/daycare ``config/configSettingsParse.ts`` and its
``SettingsConfig`` type, with the older ``engine.dbPath`` and ``assistant.workspaceDir``) says of each key
it knows: objects where it expects objects, lists where it expects lists, the type of each known leaf,
and the few keys a list entry must have. Like Daycare, keys it does not know take any value. Enumerated
values (reasoning levels, sandbox backends) are checked only as text: they differ between versions, and
refusing a value some Daycare accepts would be worse than letting Daycare say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.json_doc import JsonDocument, split_key


@dataclass(frozen=True)
class _Leaf:
    kind: str  # "text" | "bool" | "count" | "number" | "port" | "string"

    def describe(self) -> str:
        return {"text": "non-empty text", "bool": "true or false", "count": "a whole number above 0",
                "number": "a number above 0", "port": "a port number (1–65535)", "string": "text"}[self.kind]

    def fits(self, value: Any) -> bool:
        if self.kind == "text":
            return isinstance(value, str) and bool(value.strip())
        if self.kind == "string":
            return isinstance(value, str)
        if self.kind == "bool":
            return isinstance(value, bool)
        if isinstance(value, bool):  # (True is an int to Python, never a number to Daycare)
            return False
        if self.kind == "count":
            return isinstance(value, int) and value > 0
        if self.kind == "number":
            return isinstance(value, (int, float)) and value > 0
        # port: Daycare coerces, so "8080" is a port too
        number = int(value) if isinstance(value, str) and value.strip().isdigit() else value
        return isinstance(number, int) and 1 <= number <= 65535


@dataclass(frozen=True)
class _Object:
    fields: dict = field(default_factory=dict)  # known key -> schema; other keys take anything
    required: tuple[str, ...] = ()
    each: Any = None  # a schema every value must fit (an object used as a map, such as modelFlavors)

    def describe(self) -> str:
        return "an object ({ … })"

    def child(self, key: str):
        return self.fields.get(key, self.each)


@dataclass(frozen=True)
class _List:
    item: Any

    def describe(self) -> str:
        return "a list ([ … ])"


@dataclass(frozen=True)
class _TextOrObject:
    """A model choice: ``"provider/model"`` or ``{"model": …, "reasoning": …}``."""

    obj: _Object

    def describe(self) -> str:
        return "non-empty text or an object"

    def child(self, key: str):
        return self.obj.child(key)


TEXT, STRING, BOOL, COUNT = _Leaf("text"), _Leaf("string"), _Leaf("bool"), _Leaf("count")
ANY_OBJECT = _Object()
TEXTS = _List(TEXT)
_MODEL = _Object({"model": TEXT, "reasoning": TEXT}, required=("model",))

SCHEMA = _Object({
    "engine": _Object({
        "socketPath": TEXT, "dataDir": TEXT, "dbPath": TEXT,
        "db": _Object({"path": TEXT, "url": TEXT, "autoMigrate": BOOL}),
    }),
    "assistant": _Object({"systemPrompt": TEXT, "workspaceDir": TEXT}),
    "docker": _Object({
        "socketPath": TEXT, "runtime": TEXT, "readOnly": BOOL, "unconfinedSecurity": BOOL, "capAdd": TEXTS,
        "capDrop": TEXTS, "allowLocalNetworkingForUsers": TEXTS, "isolatedDnsServers": TEXTS,
        "localDnsServers": TEXTS,
    }),
    "sandbox": _Object({"backend": TEXT, "resourceLimits": _Object({"cpu": _Leaf("number"), "memory": TEXT})}),
    "opensandbox": _Object({"domain": TEXT, "apiKey": TEXT, "image": TEXT, "timeoutSeconds": COUNT}),
    "email": _Object({"smtpUrl": TEXT, "from": TEXT, "replyTo": TEXT}),
    "agents": _Object({"emergencyContextLimit": COUNT}),
    "security": _Object({"appReviewerEnabled": BOOL}),
    "appServer": _Object({
        "enabled": BOOL, "host": TEXT, "port": _Leaf("port"), "appEndpoint": TEXT, "serverEndpoint": TEXT,
        "jwtSecret": TEXT, "telegramInstanceId": TEXT,
    }),
    "plugins": _List(_Object({"instanceId": TEXT, "pluginId": TEXT, "enabled": BOOL, "settings": ANY_OBJECT},
                             required=("instanceId", "pluginId"))),
    "providers": _List(_Object({
        "id": TEXT, "enabled": BOOL, "model": STRING, "reasoning": TEXT, "options": ANY_OBJECT,
        "image": _Object({"enabled": BOOL, "model": STRING, "size": STRING, "quality": TEXT, "endpoint": STRING,
                          "apiKeyHeader": STRING, "apiKeyPrefix": STRING}),
    }, required=("id",))),
    "inference": _Object({"providers": _List(_Object(
        {"id": TEXT, "model": STRING, "reasoning": TEXT, "options": ANY_OBJECT}, required=("id",)))}),
    "cron": _Object({"tasks": _List(ANY_OBJECT)}),
    "models": _Object({role: _TextOrObject(_MODEL) for role in ("user", "memory", "memorySearch", "subagent", "task")}),
    "modelFlavors": _Object(each=_Object({"model": TEXT, "description": TEXT, "reasoning": TEXT},
                                         required=("model", "description"))),
    "memory": _Object({"enabled": BOOL, "maxEntries": COUNT}),
})


def _problem(schema, value: Any, where: str) -> str | None:
    """Why ``value`` does not fit ``schema`` — naming the first path that fails — or None."""
    if isinstance(schema, _Leaf):
        return None if schema.fits(value) else f"{where} must be {schema.describe()}"
    if isinstance(schema, _TextOrObject):
        if isinstance(value, str):
            return _problem(TEXT, value, where)
        if not isinstance(value, dict):
            return f"{where} must be {schema.describe()}"
        return _problem(schema.obj, value, where)
    if isinstance(schema, _List):
        if not isinstance(value, list):
            return f"{where} must be {schema.describe()}"
        for index, item in enumerate(value):
            problem = _problem(schema.item, item, f"{where}[{index}]")
            if problem:
                return problem
        return None
    if not isinstance(value, dict):
        return f"{where} must be {schema.describe()}"
    for key in schema.required:
        if key not in value:
            return f"{where}.{key} is required"
    for key, item in value.items():
        child = schema.child(key)
        if child is not None:
            problem = _problem(child, item, f"{where}.{key}")
            if problem:
                return problem
    return None


def settings_problem(path: tuple[str, ...], value: Any, current: dict | None = None) -> str | None:
    """Why setting ``value`` at ``path`` of the settings ``current`` would give Daycare a settings file it
    refuses, or None. Objects the path runs through (created when missing) must keep their required keys."""
    schema, node = SCHEMA, current if isinstance(current, dict) else {}
    for depth, key in enumerate(path):
        inner = schema.obj if isinstance(schema, _TextOrObject) else schema
        where = ".".join(path[:depth])
        for name in inner.required:
            if name != key and name not in node:
                return f"{where}.{name} is required"
        schema = schema.child(key)
        if schema is None:
            return None  # a key Daycare does not know: it keeps it, whatever it holds
        if depth < len(path) - 1 and not isinstance(schema, (_Object, _TextOrObject)):
            # (the key would become an object holding the rest of the path)
            return f"{'.'.join(path[:depth + 1])} must be {schema.describe()}, so it has no key {path[depth + 1]!r}"
        node = node.get(key) if isinstance(node.get(key), dict) else {}
    return _problem(schema, value, ".".join(path))


class SettingsDoc:
    def __init__(self, doc: JsonDocument) -> None:
        self.doc = doc

    @classmethod
    def parse(cls, data: bytes) -> SettingsDoc:
        return cls(JsonDocument.parse(data))

    def to_bytes(self) -> bytes:
        return self.doc.to_bytes()

    def set(self, key: str, value: Any) -> None:
        path = split_key(key)
        problem = settings_problem(path, value, self.doc.value)
        if problem:
            raise InvalidValue(f"{problem}; Daycare would refuse to start with it")
        self.doc.set(path, value)
