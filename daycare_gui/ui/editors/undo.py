"""Undo commands for the editors: each holds the whole file's bytes before and after one edit.

Whole-file snapshots keep undo exact (the document model is rebuilt from the bytes, so an undo can never
leave a half-applied edit), and files are small. Consecutive typing in the same field merges into one
command, as a text editor would.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

_MERGE_ID = 0x4E17


class SnapshotCommand(QUndoCommand):
    def __init__(self, apply: Callable[[bytes], None], before: bytes, after: bytes, text: str,
                 merge_key: str | None = None) -> None:
        super().__init__(text)
        self._apply = apply
        self.before = before
        self.after = after
        self.merge_key = merge_key

    def id(self) -> int:  # noqa: A003 (Qt API)
        return _MERGE_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt API)
        if not isinstance(other, SnapshotCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        self._apply(self.after)

    def undo(self) -> None:
        self._apply(self.before)
