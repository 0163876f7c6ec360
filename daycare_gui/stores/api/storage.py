"""The store as storage: its schema, migrations, upgrade, space and pruning (:class:`Storage`), its raw
tables (:class:`Tables`), the checks and repairs a kind offers (:class:`Actions`), and what this app deleted
and kept aside (:class:`Trash`)."""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.api.kinds import Capability
from daycare_gui.stores.records import (
    DeletedItem,
    MigrationLine,
    PruneDone,
    PrunePreview,
    Row,
    SpaceReport,
    TableRef,
    UpgradePlan,
    UpgradeResult,
)


class Storage(Capability):
    """How the store's schema stands against the migrations its system knows, and the upgrade that
    would bring it up to date. A kind whose store has no migrations list does not offer it.

    ``upgrade_plan`` is a dry run (it writes nothing); it answers a sentence instead of a plan when the
    store will not be upgraded here (the engine runs, a later version's store, a server). ``upgrade``
    runs a plan: on a copy, swapped in only when every step and check passed, backed up first unless
    ``backup`` is False (True: the default name, taken now; a path: that file, never overwritten).
    """

    # Modules the methods below import lazily: the window imports them on its GUI thread first (a
    # worker must never be the first to import a module).
    modules: tuple[str, ...] = ()
    offers_upgrade = True  # False: the store keeps no migrations (it offers Storage for its space)

    def migrations(self) -> list[MigrationLine]:
        """Applied migrations in the order they ran, then pending ones, then a later version's."""
        return []

    def migration_summary(self) -> str:
        """One paragraph a person can act on (what is applied, what is pending, what stopped)."""
        return ""

    def upgrade_plan(self) -> UpgradePlan | str:
        return "daycare-gui does not upgrade this kind of store."

    def default_backup(self, plan: UpgradePlan) -> Path | None:
        """Where the backup goes unless the user chooses, named now (None: the plan has nothing to back up)."""
        return None

    def upgrade(self, plan: UpgradePlan, backup: bool | Path, progress=None, cancelled=None) -> UpgradeResult:
        """``progress(done, total, step name)``; ``cancelled()`` is asked between steps."""
        return UpgradeResult(plan.target, refusal="daycare-gui does not upgrade this kind of store.")

    # -- space on disk and the safe ways to get it back (#38) ---------------------------------------------
    def space(self, progress=None) -> SpaceReport | None:
        """Where the bytes go (tables and indexes, threads/sessions/agents, folders, free pages, the log)
        with advice and the safe actions; read-only. None: this kind does not measure it.

        ``progress(step)`` is told each step (a sentence, with how far a long one is); it may raise to stop
        the measuring (the window's Cancel, a store closed meanwhile), which then ends with that exception."""
        return None

    def space_quick(self) -> SpaceReport | None:
        """What measures in well under a second — tables and indexes, free pages, the log, folders — with
        ``holders_pending`` set when ``space()`` has the holders still to measure, or the whole report when
        it was kept for the store as it is now. None: ``space()`` is quick itself (the window calls only it)."""
        return None

    def prune_preview(self, keep: int, idle_days: float | None = None, progress=None) -> PrunePreview:
        """The prune's dry run (writes nothing beside the store). ``progress(step name)``."""
        return PrunePreview(refusal="daycare-gui does not prune this kind of store.")

    def prune(self, keep: int, idle_days: float | None = None, *, force: bool = False, progress=None,
              cancelled=None) -> PruneDone:
        """Run the prune: backed up first, refused while the store's program runs unless ``force``."""
        return PruneDone(refusal="daycare-gui does not prune this kind of store.")

    def undo_prune(self, backup: Path, *, force: bool = False) -> PruneDone:
        """Put a prune's backup back in place of the store."""
        return PruneDone(refusal="daycare-gui does not prune this kind of store.")

    # -- this application's own leftovers (backups beyond the kept ones, indexes of stores that are gone) --
    def own_folders(self) -> tuple[Path, ...]:
        """The folders where this application leaves files beside the store: where its backups go (each
        one's ``.daycare-gui-backups`` is looked into) and its working copies. () when it leaves none.
        What is found there, and removed, is the shared rule's (``stores/common/own_leftovers``)."""
        return ()


class Tables(Capability):
    """A raw table browser: every table, paged."""

    @abstractmethod
    def tables(self) -> list[TableRef]: ...

    @abstractmethod
    def columns(self, table: str) -> list[str]: ...

    @abstractmethod
    def rows(self, table: str, offset: int, limit: int) -> list[tuple]: ...

    def rows_after(self, table: str, key: str | None, n: int) -> list[Row]:
        """Up to ``n`` rows after the row keyed ``key`` (None: from the first), in the table's own order:
        ``Row.values`` in ``columns`` order, ``Row.raw`` a dict of them for the detail view (JSON parsed,
        secrets masked where the kind knows them). A kind with keys (SQLite's rowid) overrides this so a
        page deep in a big table is no OFFSET; the default pages by position, the key being it."""
        start = int(key) + 1 if key is not None and str(key).isdigit() else 0
        columns = self.columns(table)
        return [Row(str(start + i), tuple(r), raw=dict(zip(columns, r)))
                for i, r in enumerate(self.rows(table, start, n))]

    def count(self) -> int | None:
        return sum(1 for t in self.tables() if not t.hidden)


@dataclass(frozen=True)
class StoreAction:
    id: str
    title: str
    description: str  # what it does, and what it changes on disk ("read-only" when it changes nothing)
    writes: bool = False


class Actions(Capability):
    """Checks and repairs a kind offers (an FTS5 integrity check, a counter repair)."""

    @abstractmethod
    def actions(self) -> list[StoreAction]: ...

    @abstractmethod
    def run(self, action_id: str, *, force: bool = False) -> str:
        """Run it and say what happened in one or two sentences. Writes are refused while
        ``writes_blocked()`` says why, unless ``force``."""


class Trash(Capability):
    """What this app deleted from the store and kept aside, newest first, each restorable to its place: the
    one list of deleted items of any sort (tasks, documents such as skills, rows), shown by one dialog.
    Whatever a kind's capabilities delete (``Tasks.delete``, ``Documents.delete``, …) is listed here."""

    @abstractmethod
    def where(self) -> str:
        """Where deleted items are kept, in words (a folder inside the store)."""

    @abstractmethod
    def deleted(self) -> list[DeletedItem]: ...

    def restore_blocked(self, item: DeletedItem) -> str | None:
        """Why putting ``item`` back now is risky (the system's engine runs), or None."""
        return None

    @abstractmethod
    def restore(self, item: DeletedItem, *, force: bool = False) -> str:
        """Put it back; says where in a sentence. Raises WriteRefused (``restore_blocked`` and not
        ``force``; or something is at its place again: nothing moved, the item stays kept)."""

    def count(self) -> int | None:
        return sum(1 for item in self.deleted() if item.problem is None)
