"""Trees of rows from several tables (a project → its tasks → their specifications), paged in SQL.

Each level contributes (id, parent id, sort path) through one SELECT; the UNION ALL of all levels sorted by
path is the tree in pre-order, so a page is one LIMIT/OFFSET query plus one fetch per level for details.
Rows whose parent is missing keep a path starting with ``~`` (sorted last) and no parent.
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.agentstack.spec import Spec
from daycare_gui.stores.records import Row


@dataclass(frozen=True)
class Level:
    prefix: str  # added to the id to make the row key ("t:" for project tasks)
    source: str  # FROM clause (the level's table, joined to its ancestors for the path)
    id_expr: str
    parent_expr: str  # the parent's id, NULL when it has none or it is missing
    path_expr: str
    parent_prefix: str = ""


class LevelTree(Spec):
    tree = True

    def levels(self) -> list[Level]:
        raise NotImplementedError

    def fetch(self, prefix: str, ids: list) -> dict:
        """id → record for the rows of one level."""
        raise NotImplementedError

    def make(self, prefix: str, rec: dict, parent: str | None) -> Row:
        raise NotImplementedError

    def _union(self) -> str:
        return " UNION ALL ".join(
            f"SELECT {i} AS lvl, {lv.id_expr} AS id, {lv.parent_expr} AS parent, {lv.path_expr} AS path "
            f"FROM {lv.source}" for i, lv in enumerate(self.levels()))

    def size(self) -> int:
        return int(self.db.scalar(f"SELECT count(*) FROM ({self._union()})") or 0)

    def items(self) -> int | None:
        """The first level's rows (projects, identities): the others are their children."""
        top = self.levels()[0]
        return int(self.db.scalar(f"SELECT count(*) FROM {top.source}") or 0)

    def rows(self, offset: int, limit: int) -> list[Row]:
        found = self.db.rows(f"SELECT lvl, id, parent FROM ({self._union()}) ORDER BY path, lvl LIMIT ? OFFSET ?",
                             (max(0, int(limit)), max(0, int(offset))))
        return self._build(found)

    def row(self, key: str) -> Row | None:
        levels = self.levels()
        for i in sorted(range(len(levels)), key=lambda i: -len(levels[i].prefix)):
            lv = levels[i]
            if key.startswith(lv.prefix):
                found = self.db.rows(f"SELECT {i}, {lv.id_expr}, {lv.parent_expr} FROM {lv.source} "
                                     f"WHERE {lv.id_expr} = ?", (key[len(lv.prefix):],))
                if found:
                    return self._build(found)[0]
        return None

    def _build(self, found: list[tuple]) -> list[Row]:
        levels = self.levels()
        by_level: dict[int, list] = {}
        for lvl, ident, _parent in found:
            by_level.setdefault(lvl, []).append(ident)
        recs = {lvl: self.fetch(levels[lvl].prefix, ids) for lvl, ids in by_level.items()}
        out = []
        for lvl, ident, parent in found:
            rec = recs[lvl].get(ident)
            if rec is None:
                continue
            lv = levels[lvl]
            out.append(self.make(lv.prefix, rec, None if parent is None else lv.parent_prefix + str(parent)))
        return out
