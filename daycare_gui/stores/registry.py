"""Finds store kinds and picks the one that recognises a path.

Built-in kinds are listed by module name and imported only when first probed or opened (start-up pays
for none of them). Kinds from other installed packages are found through the standard entry-point group
``daycare_gui.store_kinds`` (``name = "package.module"``, the module exposing ``KIND``), the way pytest
and Datasette find plug-ins. A kind that fails to import is reported as a reason, never a crash.
"""

from __future__ import annotations

import importlib
import os
from importlib import metadata

from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath

ENTRY_POINT_GROUP = "daycare_gui.store_kinds"

# name → module exposing KIND. Order breaks confidence ties.
BUILTIN: dict[str, str] = {
    "daycare": "daycare_gui.stores.daycare",
    "linggen": "daycare_gui.stores.linggen",
    "agentstack": "daycare_gui.stores.agentstack",
    "cianaparrot": "daycare_gui.stores.cianaparrot",
}

_extra: dict[str, str | StoreKind] = {}  # registered at run time (tests, embedding applications)
_loaded: dict[str, StoreKind] = {}


class NoKindRecognised(NotRecognised):
    """No kind recognised the path; ``candidates`` says what each kind answered."""

    def __init__(self, path: str, candidates: list[Candidate]) -> None:
        self.path = path
        self.candidates = candidates
        names = ", ".join(c.kind for c in candidates)
        self.headline = f"{path} is not a store that daycare-gui knows (kinds tried: {names})"
        super().__init__(self.explain())

    def explain(self) -> str:
        """The headline, then one line per kind saying why it declined."""
        width = max((len(c.kind) for c in self.candidates), default=8) + 2
        from daycare_gui.stores.common.secrets import mask_url

        lines = [self.headline, *(f"  {c.kind:<{width}}{c.reason}" for c in self.candidates)]
        return mask_url("\n".join(lines))


class UnknownKind(NotRecognised):
    pass


class _Broken(StoreKind):
    """Stands in for a kind whose module failed to import: it declines every path and says why."""

    def __init__(self, name: str, error: str) -> None:
        self.name, self.title, self.error = name, name, error

    def probe(self, path: StorePath) -> Candidate:
        return Candidate(self.name, 0.0, f"this kind failed to load ({self.error})")

    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        raise NotRecognised(f"the {self.name} store kind failed to load: {self.error}")


def register(name: str, kind: str | StoreKind) -> None:
    """Add a kind by module name or instance (tests; applications embedding daycare-gui)."""
    _extra[name] = kind
    _loaded.pop(name, None)


def unregister(name: str) -> None:
    _extra.pop(name, None)
    _loaded.pop(name, None)


def _entry_points() -> dict[str, str]:
    try:
        return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # a broken distribution must not stop the application
        return {}


def kind_names() -> list[str]:
    names = list(BUILTIN)
    for name in (*_entry_points(), *_extra):
        if name not in names:
            names.append(name)
    return names


def load_kind(name: str) -> StoreKind:
    if name in _loaded:
        return _loaded[name]
    source = _extra.get(name) or BUILTIN.get(name) or _entry_points().get(name)
    if source is None:
        raise UnknownKind(f"unknown store kind {name!r}; known: {', '.join(kind_names())}")
    if isinstance(source, StoreKind):
        kind = source
    else:
        module_name, _, attr = source.partition(":")
        try:
            kind = getattr(importlib.import_module(module_name), attr or "KIND")
        except Exception as exc:  # ImportError, a syntax error in a plug-in, a missing KIND
            kind = _Broken(name, f"{type(exc).__name__}: {exc}")
    _loaded[name] = kind
    return kind


def probe(path: StorePath) -> list[Candidate]:
    """Every kind's answer, most confident first (ties keep registry order)."""
    answers = []
    for name in kind_names():
        kind = load_kind(name)
        try:
            answers.append(kind.probe(path))
        except Exception as exc:  # a probe must not raise; if one does, it declines
            answers.append(Candidate(name, 0.0, f"could not probe: {type(exc).__name__}: {exc}"))
    order = {n: i for i, n in enumerate(kind_names())}
    return sorted(answers, key=lambda c: (-c.confidence, order.get(c.kind, 99)))


def choose(path: StorePath, kind: str | None = None) -> StoreKind:
    """The kind that opens PATH: ``kind`` when given, else the most confident one that recognises it."""
    if kind:
        return load_kind(kind)
    candidates = probe(path)
    if not candidates or not candidates[0].recognised:
        raise NoKindRecognised(_display(path), candidates)
    return load_kind(candidates[0].kind)


def open_store(path: StorePath, *, kind: str | None = None, live: bool = True) -> OpenedStore:
    """Open PATH read-only with the kind that recognises it (or the one named)."""
    return choose(path, kind).open(path, live=live)


def _display(path: StorePath) -> str:
    from daycare_gui.stores.common.secrets import mask_url

    return mask_url(os.fspath(path))
