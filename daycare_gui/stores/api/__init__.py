"""The contract every store kind fills in, and that shared code (panes, CLI, search) relies on.

A *kind* (Daycare, Linggen, AgentStack, CianaParrot, or one from another package) is a
:class:`StoreKind`: it *probes* a path (is this mine, how sure, why) and *opens* it read-only, returning
an :class:`OpenedStore`. The opened store offers *capabilities* — conversations, documents, tasks, tables,
collections, charts, a search source, actions — each a small class of this package. Shared code asks
``store.capability(Conversations)`` and never which kind it has; a section of the window appears only
when the store offers its capability.

Everything here is synchronous and may be slow: the window always calls it on a worker thread. Nothing
here imports Qt. Methods never raise on bad data: they return records with ``problem`` set, or add to
``store.problems``. Only ``StoreKind.open`` raises (:class:`NotRecognised`) when the path is not its own.

The contract is this package's namespace (kinds and the window import ``daycare_gui.stores.api``); its
modules group it as it describes: what a kind is and what opening gives (:mod:`.kinds`), a list the store
filters itself (:mod:`.listing`), conversations (:mod:`.conversations`), documents, files and a kind's own
lists (:mod:`.documents`), tasks, automations, usage and charts (:mod:`.activity`), storage, tables,
actions and the trash (:mod:`.storage`), search and quick open (:mod:`.search`).
"""

from __future__ import annotations

from daycare_gui.stores.api.activity import Automations, Charts, Tasks, Usage
from daycare_gui.stores.api.conversations import (
    THREAD_COLUMNS,
    THREADS,
    Conversations,
    KeyedPages,
    thread_row,
    when_utc,
)
from daycare_gui.stores.api.documents import Collections, DocumentForm, Documents, Files, in_shelf
from daycare_gui.stores.api.kinds import (
    Candidate,
    CannotOpen,
    Capability,
    EditableField,
    FileEditor,
    NotRecognised,
    OpenedStore,
    StoreKind,
    StorePath,
    Upgrader,
    UpgradeReport,
    WriteConflict,
    WritePartial,
    WriteRefused,
    raw_of,
)
from daycare_gui.stores.api.listing import Listing, row_matches
from daycare_gui.stores.api.search import Directory, SearchSource
from daycare_gui.stores.api.storage import Actions, Storage, StoreAction, Tables, Trash

__all__ = [
    "Actions", "Automations", "CannotOpen", "Candidate", "Capability", "Charts", "Collections",
    "Conversations", "Directory", "DocumentForm", "Documents", "FileEditor", "EditableField", "Files",
    "KeyedPages", "Listing", "NotRecognised", "WriteConflict", "WritePartial", "WriteRefused", "OpenedStore",
    "SearchSource", "Storage", "StoreAction", "StoreKind", "StorePath", "Tables", "Tasks", "THREADS", "Trash",
    "UpgradeReport", "Upgrader", "Usage", "raw_of", "thread_row", "when_utc", "THREAD_COLUMNS", "in_shelf",
    "row_matches",
]
