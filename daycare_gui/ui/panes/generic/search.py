"""Search for every store that offers ``SearchSource`` (Ctrl+Shift+F): the shared full-text index.

The index lives in the user's cache folder (:mod:`daycare_gui.stores.common.search_index`); the store is
never written. It is brought up to date when the pane opens, on a worker of its own so browsing and
searching stay responsive, with progress and Cancel; a search while indexing sees what is indexed so far.
The documents the store offers (skills, memory, prompt files, settings keys) are indexed after the
messages and come back as a "Documents" group below the conversations, each saying where it lives.

Beside the words, order, role and time, the store's own facets (``SearchSource.facets``: Daycare's agent
kind, lifecycle, user and record type) appear as filters once the store has said them. Enter (or a
double-click) on a message opens the conversation at it; on a document, the section that shows it (found
through the store's quick-open ``Directory``), at it.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_docs import store_documents
from daycare_gui.stores.common.search_index import SourceIndex, index_file, update_documents
from daycare_gui.stores.common.search_query import (
    DocumentHit,
    SessionHits,
    SourceFilter,
    SourceHit,
    ThreadHits,
    search_source,
)
from daycare_gui.stores.records import ROLES, JumpEntry
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.search_results import SourceResultsModel
from daycare_gui.ui.panes.generic.common import when
from daycare_gui.ui.panes.generic.conversations import MessageTarget
from daycare_gui.ui.panes.search_page import RESULT_LIMIT, SearchPage, combo, time_range_box
from daycare_gui.ui.widgets.snippet import snippet_plain

HINT = "Type to search; Enter on a match opens the conversation at that message, or the document."


def _index_for(source: api.SearchSource) -> SourceIndex:
    return SourceIndex(index_file(source.identity()))


def _titles(conversations) -> dict[str, str]:
    return {t.id: t.title for t in conversations.threads()} if conversations is not None else {}


def _doc_entry(opened, hit: DocumentHit) -> JumpEntry:
    """The quick-open entry of a matched document (its route), or a plain one keyed by its id."""
    directory = opened.capability(api.Directory)
    if directory is not None:
        for entry in directory.entries():
            if entry.kind == "doc" and entry.key == hit.key:
                return entry
    return JumpEntry("doc", hit.key, hit.title, hit.where, hit.key)


class SourceSearchPane(SearchPage):
    placeholder = 'Search conversations and documents: words, "a phrase", prefix*, OR, -exclude'
    hint = HINT
    build_tooltip = ("Index messages and documents added since the last update (the index is kept in your "
                     "cache folder; the store is never written)")
    offers_rebuild = True
    second_column_width = 130
    index_unit = "messages"
    rebuilt_verb = "rebuilt with"
    search_channel = "source-search"
    indexer_name = "source-search-indexer"
    results_model = SourceResultsModel

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.source: api.SearchSource = ctx.opened.capability(api.SearchSource)
        self.conversations = ctx.opened.capability(api.Conversations)
        self._titles: dict[str, str] = {}
        self.last_build = None
        self.documents_indexed: int | None = None

    def _make_filters(self):
        self.role_box = combo("Any role", ROLES)
        self.time_box = time_range_box()
        self.facet_boxes: dict[str, QComboBox] = {}
        self.facet_row = QWidget()  # the store's facets, once it has said them (on the worker)
        self.facet_row.setObjectName("searchFacets")
        layout = QHBoxLayout(self.facet_row)
        layout.setContentsMargins(0, 0, 0, 0)
        return [self.role_box, self.time_box], [self.facet_row]

    # -- indexing ----------------------------------------------------------------------------------
    def load(self) -> None:
        conversations, source = self.conversations, self.source
        if source is None:  # (a Daycare store without a history table)
            self.index_label.setText("This store has no conversation history to search.")
            for w in (self.query_box, self.build_button, self.rebuild_button, self.tree):
                w.setEnabled(False)
            return
        self.ctx.worker.submit("source-search-titles", lambda: _titles(conversations),
                               on_result=self._titles_arrived, on_error=lambda _m: None)
        self.ctx.worker.submit("source-search-facets", lambda: tuple(source.facets()),
                               on_result=self._facets_arrived, on_error=lambda _m: None)
        self.start_build()

    def _titles_arrived(self, titles: dict[str, str]) -> None:
        self._titles = titles
        if self.query_box.text().strip():
            self.run_search()

    def _facets_arrived(self, facets) -> None:
        layout = self.facet_row.layout()
        for spec in facets:
            if spec.kind != "choice" or spec.name in self.facet_boxes:
                continue
            box = combo(spec.label, ())
            box.setObjectName(f"facet:{spec.name}")
            for value, label in spec.choices:
                box.addItem(label, value)
                if label != value:
                    box.setItemData(box.count() - 1, value, Qt.ItemDataRole.ToolTipRole)  # the id behind a name
            box.currentIndexChanged.connect(lambda _i: self.run_search())
            layout.addWidget(box)
            self.facet_boxes[spec.name] = box

    def _searchable(self) -> bool:
        return self.source is not None

    def _build_work(self, rebuild: bool):
        source, opened = self.source, self.ctx.opened
        if source is None:
            return None

        def work(progress, cancelled):
            with _index_for(source) as index:
                result = update_source_index(source, index, progress=lambda d, t: progress(d, t, ""),
                                             cancel=cancelled, rebuild=rebuild)
                documents = None
                if result.status != "cancelled":
                    progress(result.added, 0, "documents")
                    documents = update_documents(index, store_documents(opened, source), cancel=cancelled)
                return result, str(index.path), index.state().roles, documents

        return work

    def _offer_roles(self, roles) -> None:
        """The role filter lists the common roles and any other this store's messages have."""
        known = {self.role_box.itemData(i) for i in range(self.role_box.count())}
        for role in roles:
            if role and role not in known:
                self.role_box.addItem(role, role)

    def _build_progress(self, done: int, _total: int, message: str) -> None:
        if message == "documents":
            self.index_label.setText("Indexing documents… (searches see what is indexed)")
        elif done:
            # (a fresh build commits once, at its end: until then searches see the index as it was)
            self.index_label.setText(f"Indexing messages: {done:,} so far… (searches see what was indexed before)")

    def _built(self, answer) -> None:
        result, path, roles, documents = answer
        self.last_build = result
        self.documents_indexed = documents
        self._offer_roles(roles)
        self._set_building(False)
        self._show_built(result, path)
        if documents:
            self.index_label.setText(self.index_label.text().replace(
                f"{result.rows:,} messages", f"{result.rows:,} messages and {documents:,} documents", 1))
            if self.query_box.text().strip() and not result.added:
                self.run_search()  # the documents are new to the results shown

    # -- searching -----------------------------------------------------------------------------------
    def current_filter(self) -> SourceFilter:
        span = self.time_box.currentData()
        role = self.role_box.currentData()
        since = int(time.time() * 1000) - span if span else None
        choices = tuple((name, box.currentData()) for name, box in self.facet_boxes.items()
                        if box.currentData() is not None)
        return SourceFilter(roles=(role,) if role else (), since=since, choices=choices)

    def _search_work(self, text: str):
        source, flt, titles = self.source, self.current_filter(), dict(self._titles)
        newest = bool(self.order_box.currentData())

        def work():
            with _index_for(source) as index:
                return search_source(index, text, flt, limit=RESULT_LIMIT, newest_first=newest, titles=titles,
                                     source=source)

        return work

    # -- opening -------------------------------------------------------------------------------------
    def _go(self, entry: JumpEntry) -> None:
        from daycare_gui.ui.panes.generic import route_for

        section, target = route_for(self.ctx.opened, entry)
        if section:
            self.ctx.navigate(section, target)

    def _activate(self, index) -> None:
        item = self.model.item(index)
        if isinstance(item, DocumentHit):
            opened = self.ctx.opened
            self.ctx.worker.submit("source-search-open", lambda: _doc_entry(opened, item), on_result=self._go,
                                   on_error=lambda msg: self.summary.setText(f"Could not open {item.title}: {msg}"))
            return
        if self.conversations is None:
            return
        if isinstance(item, SourceHit):
            target = MessageTarget(item.ref, item.message_id, item.position)
            self._go(JumpEntry("message", item.message_id, item.message_id, ref=target))
        elif isinstance(item, SessionHits):
            self._go(JumpEntry("session", item.ref.session_id, item.ref.session_id, ref=item.ref))
        elif isinstance(item, ThreadHits):
            self._go(JumpEntry("agent", item.thread_id, item.title, ref=item.thread_id))

    def _current_changed(self, current, _previous) -> None:
        item = self.model.item(current)
        if isinstance(item, SourceHit):
            thread = self._titles.get(item.ref.thread_id, item.ref.thread_id)
            fields = tuple((k, v) for k, v in (
                ("Thread", thread), ("Session", item.ref.session_id), ("Message", item.message_id),
                ("Role", item.role), ("Kind", item.kind), ("Time", when(item.at)),
                ("Match", snippet_plain(item.snippet))) if v)
            self.ctx.show_detail(DetailItem(f"Match in message {item.message_id}", fields,
                                            {"thread_id": item.ref.thread_id, "session_id": item.ref.session_id,
                                             "message_id": item.message_id, "role": item.role, "at": item.at}))
        elif isinstance(item, DocumentHit):
            fields = tuple((k, v) for k, v in (
                ("Document", item.title), ("Where", item.where), ("Kind", item.group), ("Changed", when(item.at)),
                ("Match", snippet_plain(item.snippet))) if v)
            self.ctx.show_detail(DetailItem(f"Match in {item.title}", fields,
                                            {"key": item.key, "group": item.group, "where": item.where}))
