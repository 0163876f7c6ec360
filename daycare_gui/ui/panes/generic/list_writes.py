"""A keyed list's row links, row actions and New…, and the write each runs (ListView's part that writes)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QPushButton

from daycare_gui.stores import api
from daycare_gui.stores.records import Row
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs


class ListWrites:
    """The selected row's links and the store's actions for it (Revoke grant…) in the list's actions bar,
    New…, and the write they run. Mixed into :class:`~daycare_gui.ui.panes.generic.listing.ListView`, whose
    ``pane``, ``ctx``, ``cap``, ``spec``, ``channel``, ``row``, ``buttons``, ``actions_bar``, ``new_fields``,
    ``_pending``, ``reload`` and ``current_row`` it uses."""

    def _actions_for(self, row: Row) -> None:
        for button in self.buttons:
            self.actions_bar.removeWidget(button)
            button.deleteLater()
        self.buttons = []
        for link in row.links:
            button = QPushButton(link.label or link.target)
            button.clicked.connect(lambda _c=False, lk=link: self.pane.follow(lk))
            self.actions_bar.addWidget(button)
            self.buttons.append(button)
        cap, cid = self.cap, self.spec.id
        self.ctx.worker.submit(f"{self.channel}:actions", lambda: cap.row_actions(cid, row),
                               on_result=lambda actions: self._actions_arrived(row, actions))

    def _actions_arrived(self, row: Row, actions) -> None:
        if self.row is not row:
            return
        for action in actions:
            title = action.title if len(action.title) <= 48 else action.title[:47] + "…"
            button = QPushButton(title + ("…" if action.writes and not title.endswith("…") else ""))
            button.setToolTip(action.description)
            button.setObjectName(f"action:{action.id}")
            button.clicked.connect(lambda _c=False, a=action: self.run_action(a))
            self.actions_bar.addWidget(button)
            self.buttons.append(button)

    def row_actions(self) -> list[QPushButton]:
        return [b for b in self.buttons if b.objectName().startswith("action:")]

    def _follow_first_link(self) -> None:
        row = self.current_row()
        if row is not None and row.links:
            self.pane.follow(row.links[0])

    def confirm_action(self, action: api.StoreAction) -> bool:
        """Ask before a write (tests replace this)."""
        answer = QMessageBox.question(self, action.title, action.description,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def confirm_engine_running(self, reason: str, verb: str) -> bool:
        """Ask before writing while the system's engine runs (tests replace this)."""
        return ask_write_while_engine_runs(self, reason, verb)

    def run_action(self, action: api.StoreAction, *, on_done=None) -> None:
        row = self.row
        if row is None or (action.writes and not self.confirm_action(action)):
            return
        cap, cid = self.cap, self.spec.id
        self._write(lambda force: cap.run_row_action(cid, row, action.id, force=force),
                    action.title.split(" ")[0], on_done)

    def ask_new_values(self) -> dict | None:
        """The new row's values from a form (tests replace this); None: cancelled."""
        from daycare_gui.ui.panes.generic.edit_form import EditDialog

        dialog = EditDialog(f"New in {self.spec.title}", self.new_fields, {}, self)
        return dialog.values() if dialog.exec() else None

    def new_item(self, *, on_done=None) -> None:
        values = self.ask_new_values() if self.new_fields else None
        if values is None:
            return
        cap, cid = self.cap, self.spec.id

        def created(key) -> None:
            self._pending = key  # selected once the keys are read again
            if on_done is not None:
                on_done(key)

        self._write(lambda force: cap.create(cid, values, force=force), "Create", created)

    def _write(self, call, verb: str, on_done=None) -> None:
        """Run ``call(force)`` on the worker: a refusal (the engine runs) asks the window's one question and
        runs again forced; a conflict or a value that cannot be used is said in a sentence."""
        watcher = getattr(self.window(), "watcher", None)  # our own write is no news from disk
        own = hasattr(watcher, "own_write_started")

        def submit(force: bool) -> None:
            if own:
                watcher.own_write_started()
            self.ctx.worker.submit(f"{self.channel}:write", lambda: call(force),
                                   on_result=lambda said: finished(said, None),
                                   on_error=lambda message: finished(None, (message, force)))

        def finished(said, failure) -> None:
            if own:
                watcher.own_write_done()
            partly = failure is not None and failure[0].startswith(api.WritePartial.__name__ + ":")
            if partly:  # part written and kept: said, then shown as it now is
                QMessageBox.warning(self, "Partly done", failure[0].partition(": ")[2])
            if failure is None or partly:
                status = getattr(self.window(), "statusBar", None)
                if isinstance(said, str) and " " in said and callable(status):
                    status().showMessage(said, 10000)  # (the page itself is read again below)
                refresh = getattr(self.window(), "refresh", None)  # problems and counts read afresh
                if callable(refresh):
                    refresh()
                else:
                    self.reload(keep=True)
            else:
                message, forced = failure
                kind, _, text = message.partition(": ")
                text = text or message
                if kind == api.WriteRefused.__name__ and not forced:
                    if self.confirm_engine_running(text, verb):
                        submit(True)
                        return
                    text = ""  # the person said no: nothing more to say
                title = "Changed on disk" if kind == api.WriteConflict.__name__ else "Not done"
                if text:
                    QMessageBox.warning(self, title, text)
            if on_done is not None:
                on_done(said)

        submit(False)
