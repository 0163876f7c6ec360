"""Finds store kinds and picks the one that recognises a path.

Built-in kinds are listed by module name and imported only when first probed or opened (start-up pays
for none of them). Kinds from other installed packages are found through the standard entry-point group
``daycare_gui.store_kinds`` (``name = "package.module"``, the module exposing ``KIND``), the way pytest
and Datasette find plug-ins. A kind that fails to import is reported as a reason, never a crash.

Opening is cheap for the common case: a kind's module holds only what its probe needs (its readers load
when it is chosen, see ``StoreKind.open_modules``); ``choose`` stops at the first kind that is certain,
since no later kind can outrank it; the installed packages are scanned for entry points once per
``sys.path``, and only when a built-in kind is not certain. ``choose_loaded`` lets a thread that must not
import (the window's workers) decide with what is already imported, or say that more is needed.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from daycare_gui.stores.api import Candidate, NotRecognised, OpenedStore, StoreKind, StorePath

ENTRY_POINT_GROUP = "daycare_gui.store_kinds"

# name → module exposing KIND. Order breaks confidence ties.
BUILTIN: dict[str, str] = {
    "daycare": "daycare_gui.stores.daycare",
    "linggen": "daycare_gui.stores.linggen",
    "agentstack": "daycare_gui.stores.agentstack",
    "cianaparrot": "daycare_gui.stores.cianaparrot",
}

# A probe answers at most 1.0 (certain); a kind that answers it wins, as every later kind can only tie.
CERTAIN = 1.0

_extra: dict[str, str | StoreKind] = {}  # registered at run time (tests, embedding applications)
_loaded: dict[str, StoreKind] = {}
_scanned: tuple[tuple[str, ...], dict[str, str]] | None = None  # (sys.path it was scanned on, name → module)


class NoKindRecognised(NotRecognised):
    """No kind recognised the path; ``candidates`` says what each kind answered."""

    def __init__(self, path: str, candidates: list[Candidate]) -> None:
        self.path = path
        self.candidates = candidates
        names = ", ".join(c.kind for c in candidates)
        self.headline = f"{path} is not a store that daycare-gui knows (kinds tried: {names})"
        if "://" not in str(path) and not os.path.lexists(str(path)):  # (a server's URL is no path)
            self.headline = f"{path} does not exist: there is nothing there to open (kinds tried: {names})"
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
    """The outside kinds, scanned once per ``sys.path`` (scanning reads every installed package's
    metadata, and importing importlib.metadata alone costs more than probing a store)."""
    global _scanned
    key = tuple(sys.path)
    if _scanned is None or _scanned[0] != key:
        _scanned = (key, _scan_entry_points())
    return _scanned[1]


def _entry_points_scanned() -> bool:
    return _scanned is not None and _scanned[0] == tuple(sys.path)


def _scan_entry_points() -> dict[str, str]:
    try:
        from importlib import metadata

        return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    except Exception:  # a broken distribution must not stop the application
        return {}


def _names() -> Iterator[str]:
    """Kind names in registry order; the entry points are scanned only if the built-in ones are not enough."""
    seen = set(BUILTIN)
    yield from BUILTIN
    for name in (*_entry_points(), *_extra):
        if name not in seen:
            seen.add(name)
            yield name


def kind_names() -> list[str]:
    return list(_names())


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


def default_location() -> Path | None:
    """The first built-in kind's usual store that exists (Daycare's ``~/.daycare``), else None."""
    for name in BUILTIN:
        try:
            place = load_kind(name).default_location()
        except Exception:  # a kind's bug must not stop the window from starting
            continue
        if place is not None and place.exists():
            return place
    return None


def _probe_one(name: str, path: StorePath) -> Candidate:
    try:
        return load_kind(name).probe(path)
    except Exception as exc:  # a probe must not raise; if one does, it declines
        return Candidate(name, 0.0, f"could not probe: {type(exc).__name__}: {exc}")


def _ranked(answers: list[Candidate], names: list[str]) -> list[Candidate]:
    order = {n: i for i, n in enumerate(names)}
    return sorted(answers, key=lambda c: (-c.confidence, order.get(c.kind, 99)))


def probe(path: StorePath) -> list[Candidate]:
    """Every kind's answer, most confident first (ties keep registry order)."""
    names = kind_names()
    return _ranked([_probe_one(name, path) for name in names], names)


class _NotLoaded(Exception):
    pass


def _decide(path: StorePath, loaded_only: bool) -> str:
    """The name of the kind that opens PATH. Kinds are asked in registry order until one is certain;
    with ``loaded_only``, reaching a kind that is not imported yet raises _NotLoaded instead."""
    answers: list[Candidate] = []
    names: list[str] = []
    for name in _names_loaded() if loaded_only else _names():
        names.append(name)
        answers.append(_probe_one(name, path))
        if answers[-1].confidence >= CERTAIN:
            break
    ranked = _ranked(answers, names)
    if not ranked or not ranked[0].recognised:
        raise NoKindRecognised(_display(path), ranked)
    return ranked[0].kind


def _names_loaded() -> Iterator[str]:
    """Registry order, stopping with _NotLoaded at the first kind (or entry-point scan) still to import."""
    names = _names() if _entry_points_scanned() else iter((*BUILTIN, None))
    for name in names:
        if name is None or name not in _loaded:
            raise _NotLoaded(name or "the installed packages' kinds")
        yield name


def choose(path: StorePath, kind: str | None = None) -> StoreKind:
    """The kind that opens PATH: ``kind`` when given, else the most confident one that recognises it."""
    return load_kind(kind or _decide(path, loaded_only=False))


def choose_loaded(path: StorePath, kind: str | None = None) -> str | None:
    """``choose`` for a thread that must not import anything: the chosen kind's name, or None when the
    decision needs a kind (or the entry-point scan) that is not loaded yet: call :func:`prepare_probe`
    with ``everything=True`` on the importing thread, then ask again. Raises NoKindRecognised."""
    if kind:
        return kind if kind in _loaded else None
    try:
        return _decide(path, loaded_only=True)
    except _NotLoaded:
        return None


def prepare_probe(*, everything: bool = False) -> None:
    """Import the first built-in kind (Daycare's, the common case) and what its probe uses — with
    ``everything``, every kind, the installed packages' too — so that :func:`choose_loaded` can then run
    on any thread. Other kinds are only needed when the first one is not certain."""
    for name in kind_names() if everything else list(BUILTIN)[:1]:
        _import_all(getattr(load_kind(name), "probe_modules", ()))


def prepare_open(name: str) -> StoreKind:
    """Load kind NAME and import what its ``open`` uses (its readers), before a worker opens with it."""
    kind = load_kind(name)
    _import_all(getattr(kind, "open_modules", ()))
    return kind


def import_modules(modules) -> None:
    """Import MODULES (a kind's ``open_modules_for`` answer) on the calling thread; failures are left to
    the code that uses them, as in :func:`prepare_open`."""
    _import_all(modules)


def _import_all(modules) -> None:
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - the probe or open that needs it reports the failure itself
            pass


def absolute(path: StorePath) -> StorePath:
    """PATH as every kind is given it: a folder or file made absolute against the working folder (links
    kept as they are: the path the user named), a server URL as it is. So every kind names its store the
    same way in the window and in the commands, whatever was typed."""
    from daycare_gui.stores.common.locations import is_url

    text = os.fspath(path)
    return text if is_url(text) else os.path.abspath(os.path.expanduser(text))


def head_start(path: StorePath, kind: str | None = None) -> None:
    """The window is about to start on ``path``: a kind that opens it slowly begins now (StoreKind.head_start),
    while Python imports the window and builds it. Never raises."""
    # Only the kind the open will choose is asked, decided as the window decides it: by the kinds whose
    # probes are loaded (the first built-in's), the others loaded only when those are not certain. Asking
    # every kind in turn loaded each one before Qt for any store that begins nothing (~40 ms on a SQLite one).
    try:
        if not kind:
            prepare_probe()
            kind = choose_loaded(absolute(path))
        if kind:  # (None: deciding needs kinds not loaded yet; the open decides, and begins nothing early)
            load_kind(kind).head_start(path)
    except Exception:  # (the open says what is wrong with the path or the kind)
        pass


def open_store(path: StorePath, *, kind: str | None = None, live: bool = True) -> OpenedStore:
    """Open PATH read-only with the kind that recognises it (or the one named)."""
    path = absolute(path)
    return choose(path, kind).open(path, live=live)


def _display(path: StorePath) -> str:
    from daycare_gui.stores.common.secrets import mask_url

    return mask_url(os.fspath(path))
