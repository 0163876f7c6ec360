"""Daycare's apps (APP.md, PERMISSIONS.md, state.json) as rows of the shared list, and Revoke grant….

Daycare applies every permission tag an app's ``state.json`` grants, whatever ``PERMISSIONS.md`` says
now; taking one away is the row action "Revoke <tag>": the file is re-read, checked against what the
row showed (a change meanwhile is a conflict: nothing written), backed up, and rewritten atomically with
only that tag and ``updatedAt`` changed.
"""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.api import StoreAction, WriteConflict, WritePartial, WriteRefused
from daycare_gui.stores.records import DocRef, Link, Row

APP_COLUMNS = ("Name", "Title", "Scope", "Model", "Rules", "Problems", "Description")
REVOKE = "revoke:"  # action ids: "revoke:<tag>"
DELETE = "delete"


def app_problems(app) -> list[str]:
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


def app_markdown(app) -> str:
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

        parts.append(("\n".join(line(x) for x in s.permissions) or "*(none)*") + "\n")
        if conflicts:
            parts.append("Daycare applies every granted tag whatever PERMISSIONS.md says; "
                         "use **Revoke** on the tag to take it away.\n")
    return "\n".join(parts)


def app_row(app, names) -> Row:
    m, p = app.manifest, app.permissions
    problems = app_problems(app)
    scope = "workspace" if app.scope == "workspace" else f"user {names.user(app.user_id)}"
    rules = "" if p is None else f"{len(p.allow)} allow / {len(p.deny)} deny"
    folder = Path(app.folder)
    links = tuple(Link("doc", DocRef(f"app:{app.id}:{name}", f"{name} of {app.id}", folder / name,
                                     group="Apps"), f"Edit {name}")
                  for name in ("PERMISSIONS.md", "APP.md") if (folder / name).is_file())
    raw = app.to_dict()
    raw["granted"] = list(app.state.permissions) if app.state is not None else []
    return Row(app.folder, ((m.name if m else None) or app.id, m.title if m else "", scope,
                            m.model if m else "", rules, "; ".join(problems), m.description if m else ""),
               raw=raw, markdown=app_markdown(app), links=links,
               flag="still granted" if app.grant_conflicts() else "",
               problem="; ".join(problems) or None)


def _state_file(paths, row: Row) -> Path | None:
    raw = row.raw if isinstance(row.raw, dict) else {}
    if not raw.get("granted"):
        return None
    path = Path(row.key) / "state.json"
    return path if paths.contains(path) and path.is_file() and not path.is_symlink() else None


def _engine_check(paths, target: Path, force: bool) -> None:
    from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason

    reason = None if force else engine_running_reason(file=target, paths=paths)
    if reason:
        raise WriteRefused(reason)


def _app_folder(paths, row: Row) -> Path | None:
    folder = Path(row.key)
    return folder if paths.contains(folder) and folder.is_dir() and not folder.is_symlink() else None


def app_actions(paths, row: Row) -> tuple[StoreAction, ...]:
    """Revoke each granted tag, and Delete (to the store's trash, restored from File ▸ Trash…)."""
    folder = _app_folder(paths, row)
    delete = (StoreAction(DELETE, "Delete", f"Move {folder} to the trash? It is kept in "
                          f"{paths.data_dir}/.daycare-gui-trash and can be restored with Trash… (File menu).",
                          writes=True),) if folder is not None else ()
    return revoke_actions(paths, row) + delete


def run_app_action(paths, row: Row, action_id: str, *, force: bool = False) -> str:
    if action_id != DELETE:
        return run_revoke(paths, row, action_id, force=force)
    from daycare_gui.stores.common.edit.trash import TrashError, TrashIncomplete, move_to_trash

    folder = _app_folder(paths, row)
    if folder is None:
        raise ValueError(f"{row.key} is not an app folder of this store")
    _engine_check(paths, folder, force)
    try:
        move_to_trash(paths, folder)
    except TrashIncomplete as exc:  # whole in the trash, part of the original still there: both shown
        raise WritePartial(str(exc)) from exc
    except TrashError as exc:
        raise ValueError(str(exc)) from exc
    return f"{folder.name} was moved to the trash (restore it with Trash… in the File menu)."


def new_app_places(paths) -> list[tuple[str, Path]]:
    """Where a new app may go: the workspace's apps and every user's."""
    places = [("workspace apps", paths.workspace_dir / "apps")]
    for users_dir in paths.users_dirs:
        if users_dir.is_dir():
            places += [(f"user {u.name}", u / "apps") for u in sorted(p for p in users_dir.iterdir() if p.is_dir())]
    return places


def new_app_fields(paths) -> tuple:
    from daycare_gui.stores.api import EditableField

    places = tuple(label for label, _p in new_app_places(paths))
    return (EditableField("name", "Name (folder)"), EditableField("title", "Title"),
            EditableField("description", "Description"),
            EditableField("location", "Where", "choice", places, default=places[0]))


def create_app(paths, values: dict, *, force: bool = False) -> str:
    from daycare_gui.stores.common.edit.errors import InvalidValue
    from daycare_gui.stores.daycare.edit import create

    places = dict(new_app_places(paths))
    place = places.get(values.get("location") or "workspace apps")
    name = str(values.get("name") or "").strip()
    if place is None or not name:
        raise ValueError("an app needs a name and a place")
    _engine_check(paths, place, force)
    try:
        folder = create.create_app(place, name, str(values.get("title") or ""), str(values.get("description") or ""))
    except (InvalidValue, OSError) as exc:
        raise ValueError(str(exc)) from exc
    return str(folder)


def revoke_actions(paths, row: Row) -> tuple[StoreAction, ...]:
    path = _state_file(paths, row)
    if path is None:
        return ()
    raw = row.raw if isinstance(row.raw, dict) else {}
    return tuple(StoreAction(REVOKE + tag, f"Revoke {tag}",
                             f"Remove {tag} from the permissions granted to {raw.get('id') or row.key}. This edits "
                             f"{path}; only that tag and the file's updatedAt change (a copy of the file is kept "
                             "first). Daycare stops giving the app this permission on its next run.", writes=True)
                 for tag in raw["granted"])


def run_revoke(paths, row: Row, action_id: str, *, force: bool = False) -> str:
    """Take the tag of ``action_id`` away from the app of ``row``: refused while the engine runs (unless
    ``force``), refused as a conflict when state.json no longer grants what the row showed."""
    from daycare_gui.stores.common.backups import BACKUP_DIR, backup_copy
    from daycare_gui.stores.common.edit.atomic import ConflictError, load_for_edit, sha256_of
    from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
    from daycare_gui.stores.daycare.edit.app_state import AppStateDoc, revoke_grant

    path = _state_file(paths, row)
    tag = action_id[len(REVOKE):] if action_id.startswith(REVOKE) else ""
    if path is None or not tag:
        raise ValueError("this app has no granted permission to revoke")
    # The engine writes state.json itself when it grants a permission: it may put the tag back.
    _engine_check(paths, path, force)
    try:
        seen = load_for_edit(path)
        granted = AppStateDoc.parse(seen.data).permissions
    except (OSError, DocumentError) as exc:
        raise ValueError(f"{path} cannot be edited: {exc}") from exc
    shown = row.raw.get("granted") if isinstance(row.raw, dict) else None
    if granted != shown:
        raise WriteConflict(f"{path} changed on disk since it was shown; nothing was written. Look at it again "
                            "and retry.")
    if tag not in granted:
        raise ValueError(f"{tag} is not granted to this app")
    try:
        backup_copy(seen.data, path, paths.data_dir / BACKUP_DIR, f"{Path(row.key).name}-state.json")
        revoke_grant(path, tag, expected_sha256=sha256_of(seen.data))
    except ConflictError as exc:
        raise WriteConflict(f"{path} changed on disk meanwhile; nothing was written. Look at it again and "
                            "retry.") from exc
    except (OSError, DocumentError, InvalidValue) as exc:
        raise ValueError(f"{path} was left unchanged: {exc}") from exc
    return f"{tag} is no longer granted to {os.path.basename(row.key)}."
