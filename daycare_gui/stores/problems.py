"""Problems: bad input found while loading, reported instead of raised.

Every reader keeps going when one value, line or file does not parse. It keeps the raw
text where it can and records a :class:`Problem` naming the path (and line) so the user can find it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.masking import mask_text


@dataclass(frozen=True)
class Problem:
    path: str
    line: int | None
    message: str
    severity: str = "error"  # "error" (data could not be read) or "warning" (read, but suspicious)

    def __post_init__(self) -> None:
        # Messages quote what they found (a settings value, a line of a file): never a password in a URL.
        object.__setattr__(self, "message", mask_text(self.message))
        object.__setattr__(self, "path", mask_text(self.path))

    def to_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "message": self.message, "severity": self.severity}

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.message}"


class ProblemLog:
    """An append-only list of problems that readers share while loading one store.

    A problem found again (a page read twice, a file counted and then shown) is listed once: readers
    that find problems as they read may meet the same bad line many times in a session."""

    def __init__(self) -> None:
        self._items: list[Problem] = []
        self._seen: set[Problem] = set()

    def add(self, path: str | Path, message: str, line: int | None = None, severity: str = "error") -> Problem:
        problem = Problem(str(path), line, message, severity)
        if problem not in self._seen:
            self._seen.add(problem)
            self._items.append(problem)
        return problem

    def extend(self, problems) -> None:
        for problem in problems:
            if problem not in self._seen:
                self._seen.add(problem)
                self._items.append(problem)

    def __iter__(self):
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def as_list(self) -> list[Problem]:
        return list(self._items)
