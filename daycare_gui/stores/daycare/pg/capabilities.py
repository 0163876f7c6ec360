"""Which capabilities today's Daycare schema offers, each from the module that reads it: conversations,
search, charts and usage over the agents' history; tasks and automations; documents, lists, files, tables,
storage, the directory and the trash."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.activity import PgCharts, PgTasks
from daycare_gui.stores.daycare.pg.collections import PgCollections
from daycare_gui.stores.daycare.pg.conversations import PgConversations
from daycare_gui.stores.daycare.pg.documents import PgDocuments
from daycare_gui.stores.daycare.pg.search_source import PgSearchSource
from daycare_gui.stores.daycare.pg.storage import PgStorage
from daycare_gui.stores.daycare.pg.tables import PgTables
from daycare_gui.stores.daycare.trash import DaycareTrash


def offer_pg_capabilities(store) -> None:
    if store.has("agents") and store.has("sessions") and store.has("session_history"):
        store.offer(api.Conversations, PgConversations(store))
        store.offer(api.SearchSource, PgSearchSource(store))
        store.offer(api.Charts, PgCharts(store))
        from daycare_gui.stores.daycare.pg.usage import DaycarePgUsage

        store.offer(api.Usage, DaycarePgUsage(store))  # tokens per model call, for the costs page (#37)
    if store.has("tasks_cron") or store.has("tasks_webhook"):
        store.offer(api.Tasks, PgTasks(store))
        if store.has("agents") and store.has("session_history"):  # runs are told from the task agents' records
            from daycare_gui.stores.daycare.pg.automations import PgAutomations

            store.offer(api.Automations, PgAutomations(store, store.capability(api.Tasks)))
    files = store.data_dir_documents()
    if store.has("documents") or files is not None:
        store.offer(api.Documents, PgDocuments(store, files))
    store.offer(api.Collections, PgCollections(store, store.data_dir_lists()))
    if store.paths is not None:  # users' homes and databases beside the store
        from daycare_gui.stores.daycare.datadir.files import daycare_files

        store.offer(api.Files, daycare_files(store.paths))
    store.offer(api.Tables, PgTables(store))
    store.offer(api.Storage, PgStorage(store))
    from daycare_gui.stores.daycare.pg.directory import PgDirectory

    store.offer(api.Directory, PgDirectory(store))  # quick open without a sessions() call per agent
    if store.paths is not None:  # what the editors deleted from the data directory beside the store
        store.offer(api.Trash, DaycareTrash(store.paths))
    from daycare_gui.stores.daycare.pg.before_pglite import offer_earlier_history

    offer_earlier_history(store)  # the old daycare.db's conversations, when the data dir still has it
