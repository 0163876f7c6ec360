"""What an editor's header says about the copy it edits: which of a task's copies its system reads."""

from __future__ import annotations

import os

from daycare_gui.ui.theme import colours

# The notes carry this marker instead of a colour, so an open editor paints them in its current palette
# (``painted``) and again after a switch between light and dark.
WARN = "color:@warning@"


def _warn() -> str:
    return WARN


def painted(note: str, palette=None) -> str:
    """``note`` with its warnings coloured for ``palette``: the header sits on the window background."""
    return note.replace("@warning@", colours(palette).window_warning)


def source_note_for_file(store, path) -> str | None:
    """For a task's file: whether the store's system reads this file or another copy (a database row),
    from the copies its ``Tasks`` capability lists. None when the file is no task's copy."""
    from daycare_gui.stores.api import Tasks

    cap = store.capability(Tasks) if store is not None and hasattr(store, "capability") else None
    if cap is None:
        return None
    try:
        tasks = cap.tasks()
    except Exception:  # a damaged store must not keep the editor from opening
        return None
    real = os.path.realpath(path)
    for task in tasks:
        mine = next((c for c in task.copies if c.file and os.path.realpath(c.ref) == real), None)
        if mine is None:
            continue
        reason = mine.reason.removeprefix("not read: ")
        if mine.read:
            return f"{cap.reader} reads <b>this file</b>: {reason}."
        other = next((c for c in task.copies if c.read and c is not mine), None)
        if other is not None:
            return (f"<span style='{_warn()}'>{cap.reader} reads the <b>{other.where}</b> {other.ref}, not this "
                    f"file</span>: {reason}. Edit the {other.where} to change what runs.")
        return f"<span style='{_warn()}'>{cap.reader} ignores this file</span>: {reason}."
    return None
