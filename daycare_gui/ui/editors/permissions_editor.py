"""The editor for an app's PERMISSIONS.md: the source intent and the allow / deny rule lists."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from daycare_gui.stores.daycare.edit.permissions_doc import PermissionsDoc
from daycare_gui.ui.theme import set_tone
from daycare_gui.ui.widgets.plain_text import text_of

from .base import FileEditorBase
from .fields import (
    NOTE_TONE,
    RuleListEditor,
    message_label,
    monospace_editor,
    set_text_if_different,
    show_message,
)


class PermissionsEditor(FileEditorBase):
    kind_label = "App permissions (PERMISSIONS.md)"

    def _build_form(self) -> QWidget:
        form = QWidget()
        layout = QVBoxLayout(form)
        layout.addWidget(QLabel("<b>Source intent</b> — why the app needs these permissions (Daycare requires it)"))
        self.intent = monospace_editor()
        self.intent.setAccessibleName("Source intent")
        self.intent.setMaximumHeight(110)
        self.intent.textChanged.connect(self._intent_edited)
        layout.addWidget(self.intent)
        self.intent_error = message_label()
        layout.addWidget(self.intent_error)
        self.allow = RuleListEditor("Allow")
        self.deny = RuleListEditor("Deny")
        self.allow.rules_changed.connect(lambda rules: self.set_rules("allow", rules))
        self.deny.rules_changed.connect(lambda rules: self.set_rules("deny", rules))
        layout.addWidget(self.allow, 1)
        layout.addWidget(self.deny, 1)
        self.rules_error = message_label()
        layout.addWidget(self.rules_error)
        hint = QLabel("Rules are checked as you type: @read:/path and @write:/path need an absolute path; "
                      "@network, @events and @workspace take none. Order is kept as shown.")
        hint.setWordWrap(True)
        set_tone(hint, NOTE_TONE)
        layout.addWidget(hint)
        return form

    def permissions(self, doc=None) -> PermissionsDoc:
        return PermissionsDoc(doc if doc is not None else self.doc)

    def _preview_markdown(self) -> str:
        return self.doc.body

    def _refresh_form(self) -> None:
        view = self.permissions()
        # The intent box shows what Daycare reads (trimmed; a lone CR or U+2028 shown as the line break the
        # box makes of it, put back by set_intent); while typing it may hold extra blank lines.
        if text_of(self.intent).strip() != view.shown_intent:
            set_text_if_different(self.intent, view.shown_intent)
        self.allow.set_rules(view.allow)
        self.deny.set_rules(view.deny)
        problems = [p for p in view.problems() if not p.startswith("the ## Source Intent")]
        show_message(self.rules_error, "\n".join(problems) or None)

    def _intent_edited(self) -> None:
        if self._updating:
            return
        text = text_of(self.intent)
        problem = self.edit("Edit source intent", "intent", lambda doc: PermissionsDoc(doc).set_intent(text))
        show_message(self.intent_error, problem)

    def set_rules(self, kind: str, rules: list[str]) -> str | None:
        if self._updating:
            return None
        problem = self.edit(f"Change {kind} rules", None, lambda doc: PermissionsDoc(doc).set_rules(kind, rules))
        show_message(self.rules_error, problem)
        return problem
