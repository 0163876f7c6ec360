"""Walk every capability of an opened store and yield the text of every record a user could see, and of
every conversation as exported (Markdown, HTML, JSONL)."""

from __future__ import annotations

import io
from collections.abc import Iterator

from daycare_gui.stores.api import Collections, Conversations, Documents, Tables, Tasks
from daycare_gui.stores.common.export import FORMATS, export_session

PAGE = 200  # rows per table or collection: fixtures here are small, the cap only bounds a mistake


def texts(store) -> Iterator[str]:
    if cols := store.capability(Collections):
        for c in cols.collections():
            yield repr(c)
            for row in cols.rows(c.id, 0, PAGE):
                yield repr(row)  # values, raw and links
    if tables := store.capability(Tables):
        for t in tables.tables():
            yield repr(t)
            yield repr(tables.columns(t.name))
            for row in tables.rows(t.name, 0, PAGE):
                yield repr(row)
    if docs := store.capability(Documents):
        for ref in docs.documents():
            yield repr(ref)
            yield docs.read(ref).decode("utf-8", "replace")
    if tasks := store.capability(Tasks):
        for task in tasks.tasks():
            yield repr(task)  # includes raw
    if conv := store.capability(Conversations):
        for thread in conv.threads():
            yield repr(thread)
            for session in conv.sessions(thread.id):
                yield repr(session)
                ref = session.ref if hasattr(session, "ref") else session
                for message in conv.messages(ref, 0, PAGE):
                    yield repr(message)
                yield from exported(conv, ref)


def exported(conv, ref) -> Iterator[str]:
    """The session as the window's Export… and ``daycare-gui export`` write it, in every format."""
    for fmt in FORMATS:
        out = io.StringIO()
        export_session(conv, ref, fmt, out)
        yield out.getvalue()


def leaks(text: str, secrets) -> list[str]:
    return [s for s in secrets if s in text]
