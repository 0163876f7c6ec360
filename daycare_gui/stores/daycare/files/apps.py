"""Apps: ``APP.md`` (manifest), ``PERMISSIONS.md`` (rules) and ``state.json`` (granted permissions).

Found in ``<workspace>/apps/<id>/`` (global, legacy) and ``<users dir>/<uid>/apps/<id>/`` (per user).
Parsing follows Daycare's ``appManifestParse``/``appPermissionsParse``; where Daycare would throw, we keep
what we could read and say why Daycare would refuse the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, as_int, loaded, split_known
from daycare_gui.stores.common.files.frontmatter import opt_str, read_markdown, section
from daycare_gui.stores.common.files.jsonfile import read_json, type_name
from daycare_gui.stores.common.files.read import Root, subdirs
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem


@dataclass(frozen=True)
class AppManifest(RecordMixin):
    path: str
    name: str | None
    title: str | None
    description: str | None
    model: str | None
    system_prompt: str  # the ``## System Prompt`` section when present, else the whole body (seed format)
    valid: bool
    invalid_reason: str | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class AppRule(RecordMixin):
    text: str
    added_by: str | None = None  # in the type, but Daycare's PERMISSIONS.md format never writes it
    line: int | None = None


@dataclass(frozen=True)
class AppPermissions(RecordMixin):
    path: str
    source_intent: str
    allow: tuple[AppRule, ...]
    deny: tuple[AppRule, ...]
    valid: bool
    invalid_reason: str | None


@dataclass(frozen=True)
class AppPermissionState(RecordMixin):
    path: str
    permissions: tuple[str, ...]
    updated_at: int | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class GrantConflict(RecordMixin):
    """A tag ``state.json`` grants although ``PERMISSIONS.md`` denies it or no longer allows it.

    Daycare applies every granted tag to the app's sessions whatever the rules say (the rules only guide
    the reviewer of each tool call), so a permission taken away in PERMISSIONS.md is still held until its
    grant is revoked.
    """

    tag: str
    denied: bool  # True: listed under Deny; False: simply not under Allow

    @property
    def message(self) -> str:
        rule = "denies it" if self.denied else "does not allow it"
        return (f"state.json still grants {self.tag} although PERMISSIONS.md {rule}: Daycare gives the app this "
                "permission until the grant is revoked")


@dataclass(frozen=True)
class App(RecordMixin):
    id: str  # folder name
    folder: str
    scope: str  # "workspace" (global legacy location) or "user"
    user_id: str | None
    manifest: AppManifest | None
    permissions: AppPermissions | None
    state: AppPermissionState | None

    @property
    def state_path(self) -> str:
        return str(Path(self.folder) / "state.json")

    def grant_conflicts(self) -> list[GrantConflict]:
        return grant_conflicts(self.permissions, self.state)


def grant_conflicts(perms: AppPermissions | None, state: AppPermissionState | None) -> list[GrantConflict]:
    """Granted tags that contradict the rules (tags compared after trimming, as Daycare normalises them)."""
    if perms is None or state is None:
        return []
    allow = {rule.text.strip() for rule in perms.allow}
    deny = {rule.text.strip() for rule in perms.deny}
    return [GrantConflict(tag.strip(), tag.strip() in deny) for tag in state.permissions
            if tag.strip() in deny or tag.strip() not in allow]


def parse_manifest(path: Path, *, root: Root = None) -> tuple[AppManifest | None, list[Problem]]:
    doc, problems = read_markdown(path, root=root)
    if doc is None:
        return None, problems
    meta = doc.meta
    name, title, description = (
        opt_str(meta.get("name")),
        opt_str(meta.get("title")),
        opt_str(meta.get("description")),
    )
    reasons = [] if doc.frontmatter_ok else ["invalid frontmatter"]
    missing = [k for k, v in (("name", name), ("title", title), ("description", description)) if v is None]
    if missing:
        reasons.append(f"frontmatter lacks {', '.join(missing)}")
    prompt = section(doc.body, "System Prompt", 2) or doc.body.strip()
    if not prompt:
        reasons.append("no system prompt")
    reason = "; ".join(reasons) or None
    if reason:
        problems.append(Problem(str(path), None, f"Daycare would refuse this APP.md: {reason}", "warning"))
    manifest = AppManifest(
        str(path),
        name,
        title,
        description,
        opt_str(meta.get("model")),
        prompt,
        reason is None,
        reason,
        dict(meta),
        split_known(meta, {"name", "title", "description", "model"}),
    )
    return manifest, problems


def _rules(body: str, heading: str, text: str) -> tuple[AppRule, ...]:
    """``- `` items under ``### heading`` of the Rules section, with their line in the file when findable."""
    rules = []
    lines = text.split("\n")
    # Search from the heading on, so the same rule text under Allow and Deny gets its own line.
    pattern = re.compile(r"^###\s+" + heading + r"\s*$", re.IGNORECASE)
    start = next((i for i, ln in enumerate(lines) if pattern.match(ln.strip())), 0)
    for line in section(body, heading, 3).split("\n"):
        item = line.strip()
        if not item.startswith("- ") or not item[2:].strip():
            continue
        found = next((i for i in range(start, len(lines)) if lines[i].strip() == item), None)
        if found is not None:
            start = found + 1
        rules.append(AppRule(item[2:].strip(), None, found + 1 if found is not None else None))
    return tuple(rules)


def parse_permissions(path: Path, *, root: Root = None) -> tuple[AppPermissions | None, list[Problem]]:
    doc, problems = read_markdown(path, root=root)
    if doc is None:
        return None, problems
    text = doc.body
    intent = section(text, "Source Intent", 2)
    rules_body = section(text, "Rules", 2)
    reason = None if intent else "no non-empty `## Source Intent` section"
    if reason:
        problems.append(
            Problem(str(path), None, f"Daycare would refuse this PERMISSIONS.md: {reason}", "warning")
        )
    # Line numbers are searched in the full file so they match what an editor shows.
    full = "\n" * (doc.body_line - 1) + text
    perms = AppPermissions(
        str(path),
        intent,
        _rules(rules_body, "Allow", full),
        _rules(rules_body, "Deny", full),
        reason is None,
        reason,
    )
    return perms, problems


def parse_state(path: Path, *, root: Root = None) -> tuple[AppPermissionState | None, list[Problem]]:
    data, problems = read_json(path, root=root, expect=dict)
    if data is None:
        return None, problems
    perms = data.get("permissions", [])
    if not isinstance(perms, list):
        problems.append(Problem(str(path), None, f"'permissions' is {type_name(perms)}, expected an array"))
        perms = []
    state = AppPermissionState(
        str(path),
        tuple(p for p in perms if isinstance(p, str)),
        as_int(data.get("updatedAt")),
        data,
        split_known(data, {"permissions", "updatedAt"}),
    )
    return state, problems


def read_app(
    folder: Path, *, scope: str, user_id: str | None, root: Root = None
) -> tuple[App, list[Problem]]:
    problems: list[Problem] = []
    manifest, more = parse_manifest(folder / "APP.md", root=root)
    problems.extend(more)
    perms, more = parse_permissions(folder / "PERMISSIONS.md", root=root)
    problems.extend(more)
    state, more = parse_state(folder / "state.json", root=root)
    problems.extend(more)
    for conflict in grant_conflicts(perms, state):
        problems.append(Problem(str(folder / "state.json"), None, conflict.message, "warning"))
    if manifest is None and not more:
        problems.append(Problem(str(folder), None, "app folder without APP.md", "warning"))
    return App(folder.name, str(folder), scope, user_id, manifest, perms, state), problems


def app_roots(paths: DaycarePaths) -> list[tuple[Path, str, str | None]]:
    """(apps folder, scope, user id) for the workspace and every user."""
    roots: list[tuple[Path, str, str | None]] = [(paths.workspace_dir / "apps", "workspace", None)]
    for users_dir in paths.users_dirs:
        for entry in subdirs(users_dir, root=paths)[0]:
            roots.append((entry.path / "apps", "user", entry.name))
    return roots


def read_apps(paths: DaycarePaths) -> Loaded[App]:
    items: list[App] = []
    problems: list[Problem] = []
    for apps_dir, scope, user_id in app_roots(paths):
        dirs, more = subdirs(apps_dir, root=paths)
        problems.extend(more)
        for d in dirs:
            app, more = read_app(d.path, scope=scope, user_id=user_id, root=paths)
            problems.extend(more)
            items.append(app)
    return loaded(items, problems)
