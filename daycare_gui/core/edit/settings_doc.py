"""``settings.json`` edited faithfully: one dotted key at a time, the rest of the file byte for byte.

Daycare aborts on a settings file it cannot validate, so the keys whose type this application knows
(paths, the database URL, autoMigrate) are checked before anything is written; other keys take any JSON
value, as Daycare keeps keys it does not know.
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidValue
from .json_doc import JsonDocument, split_key

_TEXT_KEYS = {
    ("engine", "dataDir"), ("engine", "dbPath"), ("engine", "db", "path"), ("engine", "db", "url"),
    ("engine", "socketPath"), ("assistant", "workspaceDir"),
}
_BOOL_KEYS = {("engine", "db", "autoMigrate")}


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
        if path in _TEXT_KEYS and not (isinstance(value, str) and value.strip()):
            raise InvalidValue(f"{key} must be non-empty text")
        if path in _BOOL_KEYS and not isinstance(value, bool):
            raise InvalidValue(f"{key} must be true or false")
        self.doc.set(path, value)
