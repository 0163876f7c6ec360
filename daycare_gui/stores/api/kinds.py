"""What a kind is and what opening a store gives: a :class:`StoreKind` probes a path and opens it as an
:class:`OpenedStore`, which offers :class:`Capability` objects; the errors a kind raises; the fields the
shared form edits; a file's edit (:class:`FileEditor`) and a store's upgrade (:class:`Upgrader`), where a kind
offers them."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import JumpEntry, KeptTarget, Section, StoreSummary

StorePath = str | os.PathLike


class NotRecognised(Exception):
    """The path is not a store of this kind (or of any kind, when raised by the registry)."""


class CannotOpen(Exception):
    """The path is a store of this kind, but it cannot be opened now (a server refuses the connection,
    PGlite cannot run here); the message says why in a sentence, with secrets masked."""


class WriteRefused(Exception):
    """A write was refused before anything changed: the system's engine or bot runs (retry with
    ``force=True`` after the user insists), the value is invalid, or the store cannot be written."""


class WriteConflict(Exception):
    """What was edited changed in the store since it was read; nothing was written."""


class WritePartial(Exception):
    """A write stopped half-way and said so: part of it happened (a delete copied the whole item into the
    trash but could not remove all of the original). The message says what is where; ``token`` restores."""

    def __init__(self, message: str, token: str = "") -> None:
        super().__init__(message)
        self.token = token


@dataclass(frozen=True)
class EditableField:
    """A field the shared form can edit: ``kind`` is "text", "markdown", "bool", "choice", "int", "list",
    "schedule" (a cron expression, said in words as it is typed) or "rules" (see :class:`DocumentForm`)."""

    name: str
    label: str
    kind: str = "text"
    choices: tuple[str, ...] = ()
    help: str = ""
    # What the system assumes when the item holds no value (a task without "active" runs): the form shows
    # it, and writes it only if the user changes the field.
    default: Any = None
    # The item may lack the field: the file editor's form shows "(not set)" and leaving it empty adds nothing.
    optional: bool = False


@dataclass(frozen=True)
class Candidate:
    """A kind's answer to "is PATH yours?". ``confidence`` 0 means no; 1 means certain."""

    kind: str
    confidence: float
    reason: str  # why, or why not: shown when no kind recognises a path

    @property
    def recognised(self) -> bool:
        return self.confidence > 0


class Capability:
    """Base of every capability. ``count`` is what the navigation shows beside the section (None: unknown)."""

    def count(self) -> int | None:
        return None


C = TypeVar("C", bound=Capability)


class OpenedStore(ABC):
    """A store opened read-only. Subclasses register capabilities in ``self._caps``."""

    kind: str = ""

    def __init__(self, title: str, problems: ProblemLog | None = None) -> None:
        self.title = title  # path or URL with secrets masked
        self.problems = problems if problems is not None else ProblemLog()
        self._caps: dict[type, Capability] = {}

    @abstractmethod
    def summary(self) -> StoreSummary: ...

    def capability(self, cap: type[C]) -> C | None:
        found = self._caps.get(cap)
        if found is None:  # a subclass of the asked capability also answers
            found = next((c for t, c in self._caps.items() if issubclass(t, cap)), None)
        return found  # type: ignore[return-value]

    def offer(self, cap: type[C], impl: C) -> None:
        self._caps[cap] = impl

    def counts(self) -> dict[str, int]:
        """Exact counts for ``inspect`` (tables by name, collections as ``<name>``)."""
        return {}

    def report(self, **options) -> dict:
        """Kind-specific keys for ``inspect --json`` (beside kind, generation, counts, problems).
        ``options`` come from the command line (``home_skills``); a kind ignores those it lacks."""
        return {}

    def writes_blocked(self) -> str | None:
        """Why writing now is unsafe (the system's engine or bot runs), or None."""
        return None

    def engine_state(self) -> tuple[str, str]:
        """What the status bar says of the system's own engine or bot: ``(state, why)``, the state one of
        ``"running"`` (seen running), ``"maybe"`` (not seen, but writes ask first: a kind that cannot see
        every sign says so), ``"stopped"`` (a kind that can tell for sure saw it is not running) or ``""``
        (nothing seen). Asked when the status bar is drawn: keep it cheap.
        By default, whatever blocks writes is a running engine."""
        blocked = self.writes_blocked()
        return ("running", blocked) if blocked else ("", "")

    def watch_paths(self) -> tuple[Path, ...]:
        """Files and folders whose change means the view is stale."""
        return ()

    def sections(self) -> tuple[Section, ...] | None:
        """The window's sections as this kind names and orders them (ids its deep links have always used);
        None, the default: one section per capability offered, in the shared order."""
        return None

    def route(self, entry: JumpEntry) -> tuple[str, Any] | None:
        """Where a quick-open entry or a deep link opens, among :meth:`sections`: (section id, the target
        its pane opens). None: the shared routes (by the entry's kind)."""
        return None

    def follow_live(self) -> None:  # noqa: B027 (optional hook)
        """Its files changed on disk: make the next reads see what was written (a database opened
        immutable because its WAL was empty switches to a live open). Cheap; called on the GUI thread."""

    def interrupt(self) -> None:  # noqa: B027 (optional hook)
        """The window closes the store: stop what runs now (cancel a running query) so the workers come
        free at once. Called on the GUI thread before ``close`` runs on a thread of its own: never wait."""

    def scan(self, progress=None, cancelled=None) -> None:  # noqa: B027 (optional: most kinds find all at open)
        """Optional deep pass (every file read once) that adds what it finds to ``problems``; the
        Problems page runs it on its worker before listing. ``progress(done, total, what)`` and
        ``cancelled()`` may be None. The default finds nothing more than opening did."""

    def close(self) -> None:  # noqa: B027 (optional hook: a store holding nothing has nothing to close)
        """Release handles and delete any private copy. Safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class StoreKind(ABC):
    """One agent system's storage. A kind's package exposes one instance as ``KIND``."""

    name: str = ""  # "daycare", "linggen", ...: used by --kind and inspect's "kind"
    title: str = ""  # "Daycare"
    # Optional: modules the probe and the open import lazily. A kind's own module stays light (every kind
    # is imported to probe each path); the window imports these on its GUI thread before a worker probes
    # or opens, because a worker must never be the first to import a module.
    probe_modules: tuple[str, ...] = ()
    open_modules: tuple[str, ...] = ()
    # Optional: modules the opened store's capabilities import lazily on the worker (file readers, count
    # queries). The window imports them on its GUI thread in idle moments after the first page is shown,
    # and holds its background worker until then, for the reason above.
    idle_modules: tuple[str, ...] = ()

    def open_modules_for(self, path: StorePath) -> tuple[str, ...]:
        """Optional: what opening this very PATH imports beyond ``open_modules`` (the readers of one
        generation only). Asked on the window's worker after ``open_modules`` are imported, so it reads
        a little (never imports); the window imports the answer on its GUI thread before the open."""
        return ()

    def default_location(self) -> Path | None:
        """Where the system keeps its store when nothing says otherwise (``~/.daycare``): the window
        opens it at a first start when it exists. None: the kind has no such place."""
        return None

    @abstractmethod
    def probe(self, path: StorePath) -> Candidate:
        """Cheap (a few stats and small reads), never raises, never writes."""

    def kept_target(self, path: StorePath) -> KeptTarget | None:
        """Optional: when ``path`` names a store this kind reads dearly (a copy, a process), what a repeated
        ``search`` or ``inspect`` needs to answer from what its last run kept (:mod:`commands.repeat`). Cheap
        (paths and stats, no content), never raises. None (the default): always read live."""
        return None

    @abstractmethod
    def open(self, path: StorePath, *, live: bool = True) -> OpenedStore:
        """Open read-only. ``live=False`` asks for a private snapshot (inspect). Raises NotRecognised."""

    def head_start(self, path: StorePath) -> bool:
        """Optional: the window is about to start on ``path``: begin what makes opening it slow (a private
        copy, a process) in the background, for ``open`` to take; True when it did (``path`` is this kind's).
        Never raises, never blocks. The default: nothing to begin."""
        return False

    def upgrader(self, path: StorePath) -> Upgrader | None:
        """Optional: the kind's upgrade of the store at ``path`` in place (Daycare's migrations), for
        ``daycare-gui upgrade``. Asked of a path that may not open (a newer database, only files to import);
        raises NotRecognised, in one sentence, when it is not a store of this kind needing an upgrade; never
        writes. None (the default): the kind has no upgrade."""
        return None

    def file_editor(self, path: StorePath) -> FileEditor | None:
        """Optional: the kind's edit of the file at ``path`` by its name and format (Daycare's TASK.md,
        PERMISSIONS.md, an app's state.json, settings.json), for ``daycare-gui edit`` — also of a file in
        no store. Cheap (the name, a few stats), never raises, never writes. None (the default): the kind
        edits no file this way (its store's ``Documents`` are edited through ``Documents.save``)."""
        return None


class FileEditor(ABC):
    """One file's edit, from :meth:`StoreKind.file_editor`: what its new bytes are and what stands in the
    way. The command reads the file, shows the diff and writes it (atomically, conflict-checked)."""

    def folders(self) -> list[Path] | None:
        """The folders a write must stay in (a link out of the store is refused); None: a loose file."""
        return None

    @abstractmethod
    def apply(self, data: bytes, assignments: list[tuple[str, Any]], body: str | None) -> bytes:
        """The file's bytes after ``--set KEY=VALUE`` (values parsed as YAML) and a new body; raises
        ``stores.common.edit.errors.DocumentError`` or ``InvalidValue`` to refuse."""

    def warning(self) -> str | None:
        """Why the system would not read the change (written only with ``--force``), or None."""
        return None

    def blocked(self) -> str | None:
        """Why writing now is risky (the system's engine runs on the file's store), or None."""
        return None

    def mask_diff(self, text: str) -> str:
        """The diff as it may be printed (a settings file's secrets masked)."""
        return text

    def backup(self, current: bytes) -> Path | None:
        """Keep ``current`` (the file's bytes about to be replaced) where the kind keeps backups; the copy's
        path, or None for a file of no store. Raises ``WriteRefused`` when it cannot: nothing is written."""
        return None


@dataclass(frozen=True)
class UpgradeReport:
    """What an upgrade (or its dry run) says, line by line, and how it ended."""

    lines: tuple[str, ...]
    refused: bool = False  # nothing was written, and nothing would be (exit 2)
    failed: bool = False  # a step failed; the store is as it was (exit 1)


class Upgrader(ABC):
    """One store's upgrade, from :meth:`StoreKind.upgrader`: planned first, then run."""

    @abstractmethod
    def heading(self) -> list[str]:
        """The lines printed before the plan or the result (what is upgraded, where)."""

    @abstractmethod
    def plan(self) -> UpgradeReport:
        """The dry run: what would be done; writes nothing."""

    @abstractmethod
    def run(self, *, backup: bool, progress: Callable[[int, int, str], None] | None = None) -> UpgradeReport:
        """Upgrade (a backup first unless ``backup`` is False); ``progress(done, total, step)`` per step."""


def raw_of(value: Any) -> Any:
    """Records keep raw values as plain data; kinds may call this to drop anything not JSON-like."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): raw_of(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [raw_of(v) for v in value]
    if isinstance(value, bytes):
        return f"<{len(value)} bytes: {value[:16].hex()}…>"
    return repr(value)
