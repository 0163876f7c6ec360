"""A PGlite or PostgreSQL Daycare store through ``api.Storage``: its ``_migrations`` against the list
Daycare 7c3c466c applies (``catalog.MIGRATIONS``), and why daycare-gui offers no upgrade for it."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.catalog import MIGRATIONS, PRE_RESET_PREFIXES
from daycare_gui.stores.records import MigrationLine, UpgradePlan

NOT_HERE = ("Daycare migrates its PGlite or PostgreSQL store itself, when its engine starts; daycare-gui opens "
            "it read-only and never migrates it.")


class PgStorage(api.Storage):
    modules = ("daycare_gui.stores.daycare.space",)

    def __init__(self, store) -> None:
        self.store = store

    def own_folders(self):
        paths = self.store.paths  # backups in the data folder, PGlite's backups and working copies beside it
        if paths is None:
            return ()
        pglite = paths.pglite_path.parent if self.store.generation == "pglite" else None
        return tuple(dict.fromkeys(p for p in (paths.data_dir, pglite, paths.root) if p is not None))

    def space(self, progress=None):
        return self._space(progress=progress)

    def space_quick(self):
        return self._space(quick=True)

    def _space(self, progress=None, quick: bool = False):
        from daycare_gui.stores.daycare.space import pg_space

        paths = self.store.paths
        pglite = paths.pglite_path if paths is not None and self.store.generation == "pglite" else None
        engine = getattr(self.store, "engine", None)
        return pg_space(self.store.db, paths.data_dir if paths is not None else None, pglite, progress,
                        quick=quick, keep=not (engine is not None and engine.running))

    def _applied(self) -> list[tuple[str, int | None]]:
        if not self.store.has("_migrations"):
            return []
        rows = self.store.db.rows("SELECT name, applied_at FROM _migrations ORDER BY applied_at, name")
        return [(str(name), int(at) if isinstance(at, (int, float)) else None) for name, at in rows]

    def migrations(self) -> list[MigrationLine]:
        known = set(MIGRATIONS)
        applied = self._applied()
        out = []
        for name, at in applied:
            if name in known:
                out.append(MigrationLine("applied", name, at))
            elif name.startswith(PRE_RESET_PREFIXES):
                out.append(MigrationLine("unknown", name, at, "from the first PGlite stores, before Daycare reset "
                                                              "its migration list"))
            else:
                out.append(MigrationLine("unknown", name, at, "not in Daycare 7c3c466c's list (a later Daycare?)"))
        done = {name for name, _at in applied}
        out += [MigrationLine("pending", m, None, "in Daycare 7c3c466c's list, not applied yet")
                for m in MIGRATIONS if m not in done]
        return out

    def migration_summary(self) -> str:
        if not self.store.has("_migrations"):
            return "No _migrations table: Daycare has never migrated this database."
        m = self.store.migrations()
        text = f"{len(m.applied)} applied of Daycare 7c3c466c's {len(MIGRATIONS)}"
        text += f"; {len(m.pending)} pending, next: {m.pending[0]}." if m.pending else "; none pending."
        if m.unknown:
            text += f" {len(m.unknown)} unknown to this application."
        return text

    def upgrade_plan(self) -> UpgradePlan | str:
        pending = self.store.migrations().pending if self.store.has("_migrations") else ()
        if pending:
            n = len(pending)
            return f"{n} migration{'' if n == 1 else 's'} pending. {NOT_HERE}"
        return f"Nothing to upgrade. {NOT_HERE}"
