"""Daycare's upgrade for ``daycare-gui upgrade`` (:meth:`StoreKind.upgrader <daycare_gui.stores.api.StoreKind.upgrader>`):
its migrations applied to ``daycare.db`` (created from the legacy files when there is none), with a backup
first, as ``daycare upgrade`` applies them (:mod:`.sqlite.migrations.upgrade`).

A folder that is not a Daycare store (``/tmp``, ``<store>/cron``) or holds neither a database nor legacy
files to import is refused before anything is looked at further: an upgrade there would only create a
database Daycare never asked for. A PGlite store is refused by the plan (its schema is Daycare's own).
"""

from __future__ import annotations

from daycare_gui.stores.api import NotRecognised, Upgrader, UpgradeReport


class DaycareUpgrader(Upgrader):
    def __init__(self, paths) -> None:
        self.paths = paths

    @classmethod
    def at(cls, path) -> DaycareUpgrader:
        from daycare_gui.stores.daycare.detect import detect
        from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
        from daycare_gui.stores.daycare.sqlite.migrations.store_check import nothing_to_upgrade

        try:
            paths = resolve_paths(path)
            detection = detect(paths)
        except NotADaycareDirectory as exc:
            raise NotRecognised(str(exc)) from None
        empty = nothing_to_upgrade(paths.db_path) if detection.generation != "pglite" else None
        if empty:
            raise NotRecognised(empty)
        return cls(paths)

    def heading(self) -> list[str]:
        out = ["daycare upgrade"]
        # the store the upgrade looked at: a path that is there (a PGlite store has no daycare.db to name)
        if self.paths.db_path.exists():
            out.append(f"Database: {self.paths.db_path}")
        elif self.paths.pglite_path.exists():
            out.append(f"Database: {self.paths.pglite_path} (PGlite)")
        return out

    def plan(self) -> UpgradeReport:
        from daycare_gui.stores.daycare.sqlite.migrations.upgrade import plan_upgrade

        plan = plan_upgrade(self.paths.db_path, self.paths)
        return UpgradeReport(tuple(plan.lines()), refused=bool(plan.refusal))

    def run(self, *, backup: bool, progress=None) -> UpgradeReport:
        from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade

        def each(index: int, total: int, migration) -> None:
            if progress is not None:
                progress(index + 1, total, migration.name)

        result = run_upgrade(self.paths.db_path, paths=self.paths, backup=backup, progress=each)
        return UpgradeReport(tuple(result.summary()), refused=bool(result.refusal), failed=bool(result.failure))
