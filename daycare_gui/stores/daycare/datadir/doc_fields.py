"""What the shared documents pane asks of Daycare's files beyond their text: ``settings.json`` and
``auth.json`` as masked outlines (never their bytes), and the fields a skill, a memory entity or a setting
can be edited by — each edit a splice of that value's span (core.edit), checked as Daycare would.
"""

from __future__ import annotations

import json
from typing import Any

from daycare_gui.stores.api import EditableField, WriteRefused
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.daycare.datadir.config import masked_settings
from daycare_gui.stores.daycare.datadir.config_docs import AUTH, MEMORY, SETTINGS
from daycare_gui.stores.daycare.datadir.reading import text_of
from daycare_gui.stores.daycare.datadir.skills import SkillDoc
from daycare_gui.stores.daycare.edit.memory_doc import MemoryEntityDoc
from daycare_gui.stores.daycare.edit.settings_doc import SettingsDoc
from daycare_gui.stores.daycare.edit.views import SkillDoc as SkillView
from daycare_gui.stores.records import Row

SETTINGS_FIELDS = 500  # a settings file with more editable leaves than this is edited as... not at all here


def _json(data: bytes | None):
    if data is None:
        return None, "not readable (see Problems)"
    try:
        return json.loads(text_of(data)), ""
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        return None, f"not valid JSON{where}"  # the decoder's words may quote a secret: only the place


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _tree(value: Any, key: str, name: str, parent: str | None, out: list[Row]) -> None:
    if isinstance(value, dict):
        out.append(Row(key, (name, f"{{{len(value)} keys}}"), parent))
        for k, v in value.items():
            _tree(v, f"{key}.{k}" if key else str(k), str(k), key or None, out)
    elif isinstance(value, list):
        out.append(Row(key, (name, f"[{len(value)} items]"), parent))
        for i, v in enumerate(value):
            label = (v.get("instanceId") or v.get("id")) if isinstance(v, dict) else None
            _tree(v, f"{key}[{i}]", f"[{i}]" + (f" {label}" if isinstance(label, str) else ""), key or None, out)
    else:
        out.append(Row(key, (name, _scalar(value)), parent, raw={key: value}))


def outline(doc: SkillDoc, data: bytes | None) -> list[Row]:
    """``settings.json`` masked (credentials whatever they look like); ``auth.json`` as providers and the
    names of their fields with "set" or "empty": no value of it is ever in a row."""
    value, problem = _json(data)
    if problem:
        return [Row("", (doc.ref.title, problem), problem=problem)]
    if doc.source == SETTINGS:
        if not isinstance(value, dict):
            return [Row("", ("settings.json", "not a JSON object"), problem="not a JSON object")]
        out: list[Row] = []
        for k, v in masked_settings(value).items():
            _tree(v, str(k), str(k), None, out)
        return out
    out = []
    for provider, entry in (value.items() if isinstance(value, dict) else ()):
        if not isinstance(entry, dict):
            out.append(Row(provider, (provider, "not a JSON object"), problem="not a JSON object"))
            continue
        kind = entry.get("type") if isinstance(entry.get("type"), str) else "?"
        out.append(Row(provider, (provider, mask_free_text(kind)), raw={"provider": provider, "type": kind}))
        for k, v in entry.items():
            if k != "type":
                out.append(Row(f"{provider}.{k}", (str(k), "set (hidden)" if v not in (None, "", [], {})
                                                   else "empty"), provider))
    return out


def _view(doc: SkillDoc, data: bytes):
    try:
        return (MemoryEntityDoc if doc.source == MEMORY else SkillView).parse(data)
    except DocumentError as exc:
        raise WriteRefused(str(exc)) from exc


def _setting_leaves(value: Any, key: str, out: list[tuple[str, Any]]) -> None:
    if len(out) >= SETTINGS_FIELDS:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if "." not in str(k):  # (a key with a dot cannot be named by a dotted path)
                _setting_leaves(v, f"{key}.{k}" if key else str(k), out)
    elif isinstance(value, (str, bool, int)) and key:
        out.append((key, value))


def fields(doc: SkillDoc, data: bytes | None) -> tuple[tuple[EditableField, Any], ...]:
    if data is None or not doc.ref.editable:
        return ()
    if doc.source == SETTINGS:
        value, problem = _json(data)
        if problem or not isinstance(value, dict):
            return ()
        shown = masked_settings(value)
        leaves: list[tuple[str, Any]] = []
        _setting_leaves(value, "", leaves)
        out = []
        for key, v in leaves:
            node = shown
            for part in key.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if node != v:  # masked: a credential is never put in a form
                continue
            kind = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "text"
            out.append((EditableField(key, key, kind), v))
        return tuple(out)
    if not doc.ref.frontmatter or doc.source in (SETTINGS, AUTH):
        return ()
    try:
        view = _view(doc, data)
    except WriteRefused:
        return ()
    if doc.source == MEMORY:
        specs = [EditableField("name", "Name"), EditableField("description", "Description")]
        return tuple((f, view.get_field(f.name)) for f in specs) + _record_fields(view)
    else:
        specs = [EditableField("name", "Name"), EditableField("description", "Description"),
                 EditableField("sandbox", "Sandbox", "bool"),
                 EditableField("permissions", "Permissions", "list", help="one rule a line, e.g. @read:/path")]
    return tuple((f, view.get_field(f.name)) for f in specs)


RECORD = "record:"  # a memory entity's ``## record`` sections, as fields: record:<n>:title, record:<n>:text
NEW_TITLE, NEW_TEXT = "record:new:title", "record:new:text"


def _record_fields(view: MemoryEntityDoc) -> tuple[tuple[EditableField, Any], ...]:
    """Each record's title (renamed in place) and text, then an empty record to add at the end: what the
    old Memory editor's Add… and Rename… did, in the shared form."""
    out: list[tuple[EditableField, Any]] = []
    for section in view.sections():
        n = section.index
        out.append((EditableField(f"{RECORD}{n}:title", f"Record {n + 1} title"), section.title))
        out.append((EditableField(f"{RECORD}{n}:text", f"Record {n + 1}", "markdown"), section.text))
    out.append((EditableField(NEW_TITLE, "New record title", help="fill in to add a record at the end"), ""))
    out.append((EditableField(NEW_TEXT, "New record", "markdown"), ""))
    return tuple(out)


def _splice_records(view: MemoryEntityDoc, changes: dict[str, Any]) -> None:
    """Text edits and renames of the records there, then the new record (appended: no index moves)."""
    count = len(view.sections())
    for name, value in changes.items():
        if not name.startswith(RECORD) or name in (NEW_TITLE, NEW_TEXT):
            continue
        index, _, part = name[len(RECORD):].partition(":")
        if not index.isdigit() or int(index) >= count or part not in ("title", "text"):
            raise WriteRefused(f"the entity has no {name!r} (it changed since it was read?)")
        if part == "title":
            view.rename_section(int(index), str(value or ""))
        else:
            view.set_section_text(int(index), str(value or ""))
    title, text = str(changes.get(NEW_TITLE) or "").strip(), str(changes.get(NEW_TEXT) or "")
    if text.strip() and not title:
        raise WriteRefused("A new record needs a title.")
    if title:
        view.add_section(title, text)


def spliced(doc: SkillDoc, data: bytes, changes: dict[str, Any]) -> bytes:
    """``data`` with each change spliced in (nothing else of the bytes moves); WriteRefused when a value
    is one Daycare would refuse, or the file cannot be edited this way."""
    try:
        if doc.source == SETTINGS:
            settings = SettingsDoc.parse(data)
            for key, value in changes.items():
                settings.set(key, value)
            return settings.to_bytes()
        view = _view(doc, data)
        if doc.source == MEMORY:
            _splice_records(view, changes)
            changes = {k: v for k, v in changes.items() if not k.startswith(RECORD)}
        for name, value in changes.items():
            if name not in view.FIELDS:
                raise WriteRefused(f"{doc.ref.title} has no field {name!r}")
            view.set_field(name, value)
        return view.to_bytes()
    except (InvalidValue, DocumentError, ValueError) as exc:
        raise WriteRefused(str(exc)) from exc
