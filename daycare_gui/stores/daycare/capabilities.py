"""The SQLite and legacy generations of a Daycare store through the shared capabilities: which adapter
answers each one, for the generation the folder holds (today's PGlite/PostgreSQL: ``pg/capabilities``)."""

from __future__ import annotations

# Imported here, on the GUI thread that opens the store: the shared conversations pane reads through them
# on its worker, and a worker must never be the first to import a module (ui/preload.py).
import daycare_gui.stores.daycare.sqlite.queries.history  # noqa: F401
import daycare_gui.stores.daycare.sqlite.queries.history_pages  # noqa: F401
import daycare_gui.stores.daycare.sqlite.queries.sessions  # noqa: F401
from daycare_gui.stores.api import (
    Charts,
    Collections,
    Conversations,
    SearchSource,
    Storage,
    Tables,
    Tasks,
    Trash,
    Usage,
)
from daycare_gui.stores.common.collection_union import CollectionUnion
from daycare_gui.stores.daycare.detect import DATABASE_GENERATIONS
from daycare_gui.stores.daycare.sqlite.charts import DaycareCharts
from daycare_gui.stores.daycare.sqlite.search import DaycareSqliteSearch
from daycare_gui.stores.daycare.sqlite.storage import DaycareStorage
from daycare_gui.stores.daycare.sqlite.tables import DaycareTables
from daycare_gui.stores.daycare.sqlite.usage import DaycareSqliteUsage
from daycare_gui.stores.daycare.sqlite.users import SqliteUsers
from daycare_gui.stores.daycare.trash import DaycareTrash


# The legacy adapters go by the generation the folder holds, as DaycareKind.open_modules_for does, which
# imports them only then: a SQLite store whose database could not be read reads its files through the
# SQLite generation's adapters (the legacy ones add nothing to them but their name).
def _tasks(core):
    if core.generation not in DATABASE_GENERATIONS:
        from daycare_gui.stores.daycare.legacy.tasks import LegacyTasks

        return LegacyTasks(core)
    from daycare_gui.stores.daycare.sqlite.tasks import DaycareTasks

    return DaycareTasks(core)


def offer_capabilities(store) -> None:
    from daycare_gui.stores.api import Directory
    from daycare_gui.stores.daycare.directory import DaycareDirectory

    core = store.core
    store.offer(Directory, DaycareDirectory(core))  # legacy folders too: their agents and sessions
    # what the editors and the Tasks page deleted, in every generation; a restore is seen by the next read
    store.offer(Trash, DaycareTrash(core.paths, after_restore=core.forget_files))
    store.offer(Tasks, _tasks(core))  # cron and heartbeat: their files and rows
    store.offer(Storage, DaycareStorage(core))  # legacy folders too: their upgrade creates daycare.db
    from daycare_gui.stores.daycare.sqlite.documents import offer_documents_and_files

    offer_documents_and_files(store)  # skills, memory, settings, prompts and homes: both generations
    if core.db is None:
        if core.generation == "legacy-files":  # conversations straight from the agents' history.jsonl
            from daycare_gui.stores.daycare.legacy.conversations import KeyedLegacyConversations
            from daycare_gui.stores.daycare.legacy.search import DaycareLegacySearch

            store.offer(Conversations, KeyedLegacyConversations(core))  # keyed by history.jsonl line
            store.offer(SearchSource, DaycareLegacySearch(core))
        if core.generation not in DATABASE_GENERATIONS:
            from daycare_gui.stores.daycare.legacy.collections import LegacyLists

            store.offer(Collections, LegacyLists(core))
        else:
            from daycare_gui.stores.daycare.sqlite.collections import DaycareLists

            store.offer(Collections, DaycareLists(core))
        return
    store.offer(Tables, DaycareTables(core))
    if core.has_table("session_history"):  # runs are told from the records they leave
        from daycare_gui.stores.api import Automations
        from daycare_gui.stores.daycare.sqlite.automations import DaycareAutomations

        store.offer(Automations, DaycareAutomations(core, store.capability(Tasks)))
    from daycare_gui.stores.daycare.sqlite.collections import DaycareLists

    store.offer(Charts, DaycareCharts(core))
    _offer_usage(store, core)  # tokens per model call, for the costs page (#37)
    if core.has_table("agents") and core.has_table("session_history"):
        from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

        store.offer(Conversations, SqliteConversations(core))  # keyed pages by session_history.id
        store.offer(SearchSource, DaycareSqliteSearch(core))
    # inbox, channels, signals, processes, expose, prompts, apps; and the users (stores/daycare/sqlite/users.py)
    lists = DaycareLists(core)
    store.offer(Collections, CollectionUnion(lists, SqliteUsers(core)) if core.has_table("users") else lists)


def _offer_usage(store, core) -> None:
    if core.has_table("session_history") and core.has_table("sessions"):
        store.offer(Usage, DaycareSqliteUsage(core))
