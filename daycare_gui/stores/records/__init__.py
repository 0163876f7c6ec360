"""Neutral records: what any store kind hands the shared panes, the CLI and the search index.

A kind turns its own rows, lines and payloads into these; shared code never asks which kind made them.
Every record keeps ``raw`` (the value as stored, secrets already masked by the kind) so the raw view is
one click away, and ``problem`` when part of it could not be read (the record is still shown).
Times are milliseconds since the epoch (UTC), or None when the store does not say.

The records are this package's namespace (some two hundred imports across the kinds, the window, the CLI
and the tests name ``daycare_gui.stores.records``); its modules group them by what they describe:
conversations (:mod:`.conversations`), documents, a kind's own lists and files (:mod:`.documents`), tasks,
runs, usage and counts by day (:mod:`.activity`), the window's sections, a list's query and quick open
(:mod:`.navigation`), the search index's documents and feed (:mod:`.search`), tables, the trash, upgrades
and space (:mod:`.storage`), and what is said of an opened store (:mod:`.summary`).
"""

from __future__ import annotations

from daycare_gui.stores.records.activity import (
    RUN_OUTCOMES,
    Automation,
    DayCount,
    Run,
    StoredCost,
    TaskCopy,
    TaskItem,
    UsageRecord,
)
from daycare_gui.stores.records.conversations import (
    ROLES,
    Message,
    PendingMessage,
    SessionRecord,
    SessionRef,
    ThreadRecord,
    ToolCallRecord,
    ToolResultRecord,
)
from daycare_gui.stores.records.documents import (
    Collection,
    DocRef,
    DocVersion,
    FileEntry,
    FilePreview,
    FileRoot,
    Link,
    Row,
)
from daycare_gui.stores.records.navigation import (
    SECTION_SHOWS,
    FilterSpec,
    JumpEntry,
    Query,
    Section,
)
from daycare_gui.stores.records.search import (
    SearchDocument,
    SqliteFeed,
)
from daycare_gui.stores.records.storage import (
    DeletedItem,
    MigrationLine,
    PruneDone,
    PrunePreview,
    SpaceAction,
    SpaceLine,
    SpaceReport,
    TableRef,
    UpgradePlan,
    UpgradeResult,
    UpgradeStep,
)
from daycare_gui.stores.records.summary import (
    KeptTarget,
    StoreSummary,
)

__all__ = [
    "TaskCopy", "TaskItem", "RUN_OUTCOMES", "Run", "Automation", "DayCount", "UsageRecord", "StoredCost",
    "ROLES", "ToolCallRecord", "ToolResultRecord", "Message", "PendingMessage", "ThreadRecord",
    "SessionRef", "SessionRecord", "DocRef", "DocVersion", "Collection", "Link", "Row", "FileRoot",
    "FileEntry", "FilePreview", "SECTION_SHOWS", "Section", "FilterSpec", "Query", "JumpEntry",
    "SearchDocument", "SqliteFeed", "TableRef", "DeletedItem", "MigrationLine", "UpgradeStep",
    "UpgradePlan", "UpgradeResult", "SpaceLine", "SpaceAction", "SpaceReport", "PrunePreview",
    "PruneDone", "KeptTarget", "StoreSummary",
]
