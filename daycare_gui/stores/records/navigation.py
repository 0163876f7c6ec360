"""How the window finds its way in a store: the sections a kind names, the filters and query of a list the
store filters itself, and the entries of quick open and deep links."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred

# What a section of the window shows; the window picks the shared pane for each.
SECTION_SHOWS = ("overview", "conversations", "session", "search", "tasks", "documents", "files", "collection",
                 "automations", "costs", "storage", "actions", "problems")


@deferred
class Section:
    """A section of the window as a kind names and orders it: the id deep links and routes use, its title,
    and what it shows (one of ``SECTION_SHOWS``; the window picks the shared pane and skips a section whose
    capability the store does not offer). ``arg`` narrows it: a task group ("cron"), a documents shelf
    ``(section id, group)``, a collection id or a tuple of ids shown as tabs."""

    id: str
    title: str
    shows: str
    arg: Any = None
    icon: str = ""
    in_nav: bool = True  # False: reached only by following a link (one session on a page of its own)
    group: str = ""


@deferred
class FilterSpec:
    """A filter a list offers, done by the store: ``kind`` is "text" (words in the row), "choice" (one of
    ``choices``), "flag" (only rows whose ``Row.flag`` is ``name``: "stuck only") or "time" (since/until)."""

    name: str
    label: str
    kind: str = "text"
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)


@deferred
class Query:
    """What a keyed list is asked for: filtered and sorted by the store, never by the window."""

    text: str = ""
    choices: tuple[tuple[str, str], ...] = ()  # (filter name, chosen value)
    flags: frozenset[str] = frozenset()
    since: int | None = None  # ms since the epoch
    until: int | None = None
    parent: str | None = None  # a detail list's selected parent key (a channel's members)
    sort: str = ""  # one of the list's sorts(); "" = the list's own order
    descending: bool = False

    def choice(self, name: str) -> str | None:
        return dict(self.choices).get(name)


@dataclass(frozen=True, slots=True)  # slots: a large store lists tens of thousands
class JumpEntry:
    """One item the quick-open palette can find and a deep link can name: keys and short labels only.

    ``kind`` is the link's word ("agent", "session", "user", "task", "doc", "app", "table", "row"); ``key``
    the id (or path, table name) the link carries. ``ref`` is what the item's pane opens it with (plain
    data: an id, a :class:`SessionRef`, a kind's tuple). ``collection`` names the collection the item is a
    row of, when the shared collection pane shows it (a PostgreSQL store's users, say).
    """

    kind: str
    key: str
    label: str
    detail: str = ""  # one short line: owner, type, path
    ref: Any = None
    collection: str = ""
