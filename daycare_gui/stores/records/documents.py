"""Documents, a kind's own lists (collections of rows and the links they follow), and the files beside a
store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred


@deferred
class DocRef:
    """A Markdown document (with or without frontmatter) that the shared editor can show and edit."""

    id: str
    title: str
    path: Path | None
    group: str = ""  # navigation group within the Documents section ("Agents", "Skills", ...)
    editable: bool = True
    frontmatter: bool = True
    readonly_reason: str = ""  # said in the editor when not editable
    # -- what the shared documents pane shows beside the text (#33); every kind may leave them empty --
    source: str = ""  # where the system reads it from ("config", "personal", a plugin): a column
    derived_from: str = ""  # the id of the document this is a copy of (an activation copy): read-only, never counted
    format: str = "markdown"  # "markdown", "json" or "text": how the pane shows it
    secret: bool = False  # its bytes are never shown: the pane shows ``Documents.outline(ref)`` instead
    flag: str = ""  # a short warning shown on the row ("not in INDEX.md": the system ignores it)
    thread_id: str = ""  # the thread (agent) it belongs to, for ``Documents.of_thread``
    meta: tuple[tuple[str, str], ...] = ()  # labelled facts for the detail pane (a skill's description)


@deferred
class DocVersion:
    """An earlier version the system keeps of a document (a skill's ``skills-history``), oldest first."""

    id: str
    title: str
    at: int | None = None
    note: str = ""  # what changed from it to the document as it is now ("+3 −1 lines")


@deferred
class Collection:
    """A kind's own list (runs, missions, memory entries, checkpoints): shown by the shared list pane."""

    id: str
    title: str
    columns: tuple[str, ...]
    tree: bool = False  # rows carry ``parent`` keys and are shown as a tree
    group: str = ""  # navigation group; empty puts it at the top level
    icon: str = ""
    # Child collections shown as tabs under the selected row (a channel's members and messages): asked
    # with ``Query.parent`` = the selected row's key. Listed by ``collections()`` only as details, never
    # as sections of their own; see ``detail``.
    details: tuple[str, ...] = ()
    detail: bool = False  # a child list: shown under its parent's rows, not in the navigation
    # False: a short list read whole and shown with each row's text and links beside it (the users), even
    # where the kind's lists are keyed; True: keys only and rows on demand when the kind is a Listing.
    keyed: bool = True


@deferred
class Link:
    """Where following a row leads: ("session", SessionRef), ("row", (collection_id, key)), ("doc", DocRef)."""

    target: str
    value: Any
    label: str = ""


@deferred
class Row:
    key: str
    values: tuple[Any, ...]
    parent: str | None = None
    raw: Any = None
    markdown: str | None = None  # a longer text for the detail pane (a plan as a checklist, a diff)
    links: tuple[Link, ...] = ()
    flag: str = ""  # a short warning shown on the row ("stuck", "lost", "security")
    problem: str | None = None


# -- files beside a store (the Files capability, #33) ----------------------------------------------


@deferred
class FileRoot:
    """A folder the window may browse (a user's home, a workspace); nothing outside it is ever read."""

    id: str
    title: str
    owner: str = ""  # whose it is, in words ("Alex Rivera")
    path: Path | None = None
    note: str = ""  # one line shown when it is selected


@deferred
class FileEntry:
    """One name in a folder of a root; ``rel`` is its path from the root, with "/" between names."""

    name: str
    rel: str
    is_dir: bool
    size: int | None = None
    mtime: float | None = None  # seconds since the epoch
    opens_as: str | None = None  # a path the window can open as a store of its own (a user's database)
    link: str = ""  # set for a link: "inside" (followed) or why it is not followed ("leads out of the folder")
    note: str = ""  # "knowledge file: agents read it"
    problem: str | None = None  # a line that is no entry: why the folder could not be listed whole


@deferred
class FilePreview:
    """What a file holds, bounded: ``format`` is "markdown", "text", "binary" or "none" (not shown)."""

    rel: str
    format: str
    text: str = ""
    size: int | None = None
    cut: bool = False  # only part was read (its head, or its end when asked for the tail)
    note: str = ""  # why nothing is shown, or what was left out
