"""The thread list's Memory button: the documents holding what the selected thread remembers (a Daycare
agent's user's MEMORY.md, or its memory rows in today's store), opened on the documents page that lists
them. The store says which documents (``Documents.memory_of``); the page is found among the sections."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMenu, QPushButton

from daycare_gui.stores import api
from daycare_gui.stores.records import DocRef


class ThreadMemory(QObject):
    """A "Memory" button following the current thread; hidden when the store offers no documents."""

    def __init__(self, pane, layout) -> None:
        super().__init__(pane)
        self.pane = pane
        opened = pane.ctx.opened
        self.cap: api.Documents | None = opened.capability(api.Documents) if opened is not None else None
        self.button = QPushButton("Memory", pane)  # (parented before it is made visible: never a window of its own)
        self.button.setObjectName("threadMemory")
        self.button.setToolTip("Open what this thread remembers (its memory documents)")
        self.button.setEnabled(False)
        self.button.setVisible(self.cap is not None)
        self.button.clicked.connect(self.open)
        layout.addWidget(self.button)
        self.found: list[tuple[str, DocRef]] = []  # (section id, document) for the current thread
        self._for: str | None = None

    def follow(self, thread_id: str | None) -> None:
        """Ask the store (on the worker) for the thread's memory and the pages that list it."""
        self.found, self._for = [], thread_id
        self.button.setEnabled(False)
        if self.cap is None or thread_id is None:
            return
        cap, opened = self.cap, self.pane.ctx.opened

        def work():
            # (the documents page's module, ~3 ms, is not imported with the Agents page: the preloader brings
            # it in before this worker may run)
            from daycare_gui.ui.panes.generic import sections_for
            from daycare_gui.ui.panes.generic.documents import documents_section_for

            docs = cap.memory_of(thread_id)
            specs = sections_for(opened) if docs else ()
            return [(section, d) for d in docs if (section := documents_section_for(specs, d)) is not None]

        # a courtesy, not what the user waits for: on the background worker, which also waits until start-up's
        # idle imports are done (the store's document readers are among them)
        self.pane.ctx.slow_worker.submit("conversations-memory", work,
                                    on_result=lambda found, t=thread_id: self._arrived(t, found),
                                    on_error=lambda _m: None)

    def _arrived(self, thread_id: str, found) -> None:
        if thread_id != self._for:
            return
        self.found = found
        self.button.setEnabled(bool(found))
        titles = ", ".join(d.title for _s, d in found)
        self.button.setToolTip(f"Open {titles}" if found else "This thread has no memory documents")

    def open(self, choice: int | None = None) -> None:
        """One document: open it; several: a menu (``choice``: the one to open, for tests and keys)."""
        if not self.found:
            return
        if choice is None and len(self.found) > 1:
            menu = QMenu(self.button)
            for i, (_s, d) in enumerate(self.found):
                menu.addAction(d.title, lambda i=i: self.open(i))
            menu.exec(self.button.mapToGlobal(self.button.rect().bottomLeft()))
            menu.deleteLater()
            return
        section, doc = self.found[choice or 0]
        self.pane.ctx.navigate(section, doc.id)
