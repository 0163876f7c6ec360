"""An app's ``state.json``: the permission tags Daycare has granted the app, edited faithfully.

Daycare applies every tag listed here to the app's sessions whatever ``PERMISSIONS.md`` says (the rules
there only guide the reviewer of each tool call), so taking a permission away means removing its tag
here. Daycare writes the file as ``{"permissions": [...], "updatedAt": <ms>}``; a change to the grants
also moves ``updatedAt`` to now when the file has one, as Daycare's own writer would. Everything else in
the file keeps its bytes.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.edit.atomic import ConflictError, Loaded, load_for_edit, save_atomic, sha256_of
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.json_doc import JsonDocument

from .permissions_doc import validate_rule

KEYS = ("permissions", "updatedAt")


def is_app_state(path: str | os.PathLike) -> bool:
    """``…/apps/<app id>/state.json``: where Daycare keeps an app's granted permissions."""
    p = Path(path)
    return p.name == "state.json" and p.parent.parent.name == "apps"


def _now_ms() -> int:
    return int(time.time() * 1000)


class AppStateDoc:
    def __init__(self, doc: JsonDocument) -> None:
        self.doc = doc

    @classmethod
    def parse(cls, data: bytes) -> AppStateDoc:
        return cls(JsonDocument.parse(data))

    def to_bytes(self) -> bytes:
        return self.doc.to_bytes()

    @property
    def permissions(self) -> list[str]:
        value = self.doc.get(("permissions",), [])
        return [tag for tag in value if isinstance(tag, str)] if isinstance(value, list) else []

    def set_permissions(self, tags: Any, now_ms: int | None = None) -> None:
        if isinstance(tags, str) or not isinstance(tags, (list, tuple)):
            raise InvalidValue("permissions must be a list of permission tags such as [\"@network\"]")
        cleaned: list[str] = []
        for tag in tags:
            problem = validate_rule(tag)
            if problem:
                raise InvalidValue(f"permission refused: {problem}")
            if tag.strip() not in cleaned:
                cleaned.append(tag.strip())
        if cleaned == self.doc.get(("permissions",)):
            return
        self.doc.set(("permissions",), cleaned)
        if "updatedAt" in self.doc.value:
            self.doc.set(("updatedAt",), _now_ms() if now_ms is None else now_ms)

    def revoke(self, tag: str, now_ms: int | None = None) -> None:
        granted = self.permissions
        if tag.strip() not in [t.strip() for t in granted]:
            raise InvalidValue(f"{tag} is not granted in this state.json")
        self.set_permissions([t for t in granted if t.strip() != tag.strip()], now_ms)

    def set(self, key: str, value: Any, now_ms: int | None = None) -> None:
        """``edit --set`` on state.json: ``permissions`` (a list of tags) or ``updatedAt`` (ms)."""
        if key == "permissions":
            self.set_permissions(value, now_ms)
        elif key == "updatedAt":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidValue("updatedAt must be a time in milliseconds (a whole number)")
            self.doc.set(("updatedAt",), value)
        else:
            raise InvalidValue(f"an app's state.json has no key {key!r}; use {', '.join(KEYS)}")


def revoke_grant(path: str | os.PathLike, tag: str, *, expected_sha256: str | None = None,
                 now_ms: int | None = None) -> Loaded:
    """Remove ``tag`` from the app's granted permissions, atomically.

    ``expected_sha256`` is the hash of the bytes the person looked at when choosing; a file changed since
    raises :class:`ConflictError` and nothing is written. Without it, the file as read now is the base.
    """
    loaded = load_for_edit(path)
    if expected_sha256 is not None and loaded.sha256 != expected_sha256:
        raise ConflictError(path, loaded.data)
    doc = AppStateDoc.parse(loaded.data)
    doc.revoke(tag, now_ms)
    return save_atomic(path, doc.to_bytes(), expected_sha256=sha256_of(loaded.data))
