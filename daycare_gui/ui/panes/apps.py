"""Apps: manifest (APP.md), system prompt, PERMISSIONS.md rules and the permissions granted in state.json."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QInputDialog, QMessageBox, QPushButton

from daycare_gui.core.edit.app_state import AppStateDoc, revoke_grant
from daycare_gui.core.edit.atomic import ConflictError, load_for_edit
from daycare_gui.core.edit.engine_guard import engine_running_reason
from daycare_gui.core.edit.errors import DocumentError, InvalidValue
from daycare_gui.core.files.apps import App
from daycare_gui.core.queries.names import Names, load_names
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs
from daycare_gui.ui.editors.pane_actions import EditActions
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.widgets.browse_pane import BrowsePane


def _problems(app: App) -> list[str]:
    out = []
    if app.manifest is None:
        out.append("no APP.md")
    elif not app.manifest.valid:
        out.append(f"APP.md: {app.manifest.invalid_reason}")
    if app.permissions is not None and not app.permissions.valid:
        out.append(f"PERMISSIONS.md: {app.permissions.invalid_reason}")
    for conflict in app.grant_conflicts():
        out.append(f"still granted: {conflict.tag} ({'denied' if conflict.denied else 'not allowed'})")
    return out


def _rules_md(title: str, rules) -> str:
    if not rules:
        return f"**{title}:** *(none)*\n"
    lines = "\n".join(f"- {r.text}" + (f" *(line {r.line})*" if r.line else "") for r in rules)
    return f"**{title}:**\n\n{lines}\n"


def app_markdown(app: App) -> str:
    """The app as one Markdown document: prompt, permission rules, granted permissions."""
    m, p, s = app.manifest, app.permissions, app.state
    parts = []
    if m is not None:
        parts.append(f"## System prompt\n\n{m.system_prompt or '*(empty)*'}\n")
    parts.append("## Permissions (PERMISSIONS.md)\n")
    if p is None:
        parts.append("*No PERMISSIONS.md.*\n")
    else:
        parts.append(f"**Source intent:** {p.source_intent or '*(missing)*'}\n")
        parts.append(_rules_md("Allow", p.allow))
        parts.append(_rules_md("Deny", p.deny))
    parts.append("## Granted permissions (state.json)\n")
    if s is None:
        parts.append("*No state.json.*\n")
    else:
        conflicts = {c.tag: c for c in app.grant_conflicts()}

        def line(tag: str) -> str:
            c = conflicts.get(tag.strip())
            if c is None:
                return f"- `{tag}`"
            return f"- `{tag}` — **{'denied' if c.denied else 'not allowed'} by PERMISSIONS.md, still granted**"

        granted = "\n".join(line(x) for x in s.permissions) or "*(none)*"
        parts.append(f"{granted}\n")
        if conflicts:
            parts.append("Daycare applies every granted tag whatever PERMISSIONS.md says; "
                         "use **Revoke grant…** to take one away.\n")
    return "\n".join(parts)


class AppsPane(BrowsePane):
    pane_id = "apps"
    title = "Apps"
    noun = "app"
    filter_placeholder = "Filter apps by name, title, user or description (Ctrl+F)"

    @property
    def columns(self) -> list[Column]:
        # a user's app is labelled with the user's name (self.names arrives with the list), the id in the tooltip
        return [
            Column("Name", lambda a: (a.manifest.name if a.manifest else None) or a.id, tooltip=lambda a: a.folder),
            Column("Title", lambda a: a.manifest.title if a.manifest else ""),
            Column("Scope", lambda a: "workspace" if a.scope == "workspace" else f"user {self.names.user(a.user_id)}",
                   tooltip=lambda a: a.user_id or ""),
            Column("Model", lambda a: a.manifest.model if a.manifest else ""),
            Column("Rules", lambda a: "" if a.permissions is None else
                   f"{len(a.permissions.allow)} allow / {len(a.permissions.deny)} deny"),
            Column("Problems", lambda a: "; ".join(_problems(a))),
            Column("Description", lambda a: a.manifest.description if a.manifest else ""),
        ]

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.edit_actions = EditActions(self, "app")  # Edit… buttons above the viewer
        self.revoke_button = QPushButton("Revoke grant…")
        self.revoke_button.setToolTip("Remove a permission tag the app was granted (its state.json); Daycare "
                                      "applies granted tags whatever PERMISSIONS.md says")
        self.revoke_button.clicked.connect(lambda: self.revoke_grant())
        self.edit_actions.row.addWidget(self.revoke_button)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._update_revoke())
        self._update_revoke()

    # -- revoking a grant ------------------------------------------------------------------------
    def _state_file(self, app: App | None) -> Path | None:
        if app is None or app.state is None or not app.state.permissions:
            return None
        path = Path(app.state_path)
        return path if self.ctx.store.paths.contains(path) and path.is_file() else None

    def _update_revoke(self) -> None:
        self.revoke_button.setEnabled(self._state_file(self.current_record()) is not None)

    def _choose_tag(self, app: App, tags: list[str]) -> str | None:
        conflicts = [c.tag for c in app.grant_conflicts()]
        first = next((i for i, t in enumerate(tags) if t.strip() in conflicts), 0)
        tag, ok = QInputDialog.getItem(self, "Revoke grant", f"Permission to take away from {app.id}:",
                                       tags, first, False)
        return tag if ok else None

    def _confirm(self, app: App, tag: str) -> bool:
        answer = QMessageBox.question(
            self, "Revoke grant",
            f"Remove {tag} from the permissions granted to {app.id}?\n\nThis edits {app.state_path}; only that "
            "tag and the file's updatedAt change. Daycare stops giving the app this permission on its next run.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def confirm_engine_running(self, reason: str) -> bool:
        """Ask before writing state.json while the engine runs (tests replace this)."""
        return ask_write_while_engine_runs(self, reason, "Revoke")

    def revoke_grant(self, choose: Callable[[App, list[str]], str | None] | None = None,
                     confirm: Callable[[App, str], bool] | None = None) -> str | None:
        """Ask which granted tag to remove, confirm, and write state.json. Returns the revoked tag."""
        app = self.current_record()
        path = self._state_file(app)
        if path is None:
            return None
        try:
            seen = load_for_edit(path)  # what the person chooses from; a later change is a conflict
            tags = AppStateDoc.parse(seen.data).permissions
        except (OSError, DocumentError) as exc:
            QMessageBox.warning(self, "Cannot revoke", f"{path} cannot be edited: {exc}")
            return None
        tag = (choose or self._choose_tag)(app, tags) if tags else None
        if not tag or not (confirm or self._confirm)(app, tag):
            return None
        # The engine writes state.json itself when it grants a permission: it may put the tag back.
        reason = engine_running_reason(file=path, paths=self.ctx.store.paths)
        if reason and not self.confirm_engine_running(reason):
            return None
        try:
            revoke_grant(path, tag, expected_sha256=seen.sha256)
        except ConflictError:
            QMessageBox.warning(self, "Not revoked", f"{path} changed on disk while you chose; nothing was written. "
                                                     "Look at it again and retry.")
            return None
        except (OSError, DocumentError, InvalidValue) as exc:
            QMessageBox.warning(self, "Not revoked", f"{path} was left unchanged: {exc}")
            return None
        refresh = getattr(self.window(), "refresh", None)
        if refresh is not None:
            refresh()
        return tag

    def key(self, app: App) -> str:
        return app.folder

    link_kind = "app"

    def link_key(self, app: App) -> str:
        return app.id

    def matches(self, app: App, target) -> bool:
        return target in (app.folder, app.id)

    def fetch(self, store) -> list[App]:
        return list(store.files().items("apps"))

    def fetch_names(self, store, records) -> Names:
        return load_names(store)

    def state(self, app: App) -> str | None:
        return "error" if _problems(app) else None

    def loaded(self, records) -> None:
        self._update_revoke()

    def describe(self, app: App) -> DetailItem:
        m, p, s = app.manifest, app.permissions, app.state
        fields = [("Id", app.id), ("Folder", app.folder), ("Scope", app.scope),
                  ("User", self.names.user_field(app.user_id))]
        if m is not None:
            fields += [("Name", m.name or ""), ("Title", m.title or ""), ("Description", m.description or ""),
                       ("Model", m.model or "(default)")]
            fields += [(f"APP.md {k}", str(v)) for k, v in m.extra.items()]
        if p is not None:
            fields.append(("Source intent", p.source_intent))
            fields += [("Allow", r.text) for r in p.allow] + [("Deny", r.text) for r in p.deny]
        if s is not None:
            fields.append(("Granted (state.json)", ", ".join(s.permissions) or "(none)"))
            fields.append(("state.json updated", fmt_time(s.updated_at)))
            fields += [("Contradiction", c.message) for c in app.grant_conflicts()]
        fields += [("Problem", text) for text in _problems(app)]
        return DetailItem(f"App {app.id}", tuple(fields), app.to_dict(), markdown=app_markdown(app))

    def present(self, app: App) -> None:
        title = (app.manifest.title or app.manifest.name) if app.manifest else app.id
        self.viewer.show_markdown(title or app.id, app_markdown(app), app.folder, app.folder)
