"""What an editor's header says about the copy it edits: which of file and database row Daycare reads."""

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
    """For a cron/heartbeat task file: whether Daycare reads this file or the imported database row."""
    if store is None:
        return None
    try:
        sources = store.task_sources()
    except Exception:  # a damaged store must not keep the editor from opening
        return None
    real = os.path.realpath(path)
    for source in sources:
        if source.file_path is None or os.path.realpath(source.file_path) != real:
            continue
        if source.reads == "row":
            if source.has_row:
                return (f"<span style='{_warn()}'>Daycare reads the <b>database row</b> "
                        f"tasks_{source.kind}/{source.id}, not this file</span>: {source.reason}. "
                        "Edit the row to change what runs.")
            return f"<span style='{_warn()}'>Daycare ignores this file</span>: {source.reason}."
        return f"Daycare reads <b>this file</b>: {source.reason}."
    return None
