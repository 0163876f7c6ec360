"""``settings.json`` and ``auth.json``: shown only masked.

Records here never hold an unmasked secret, not even in a private field, so no ``repr``, ``str`` or
``to_dict`` can leak one into a log, a crash report or the CLI's output.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, loaded
from daycare_gui.stores.common.files.jsonfile import read_json, type_name
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.masking import mask_secrets, mask_value
from daycare_gui.stores.problems import Problem


@dataclass(frozen=True)
class SettingsView(RecordMixin):
    path: str
    values: dict  # the whole file with secret-looking values masked
    plugins: tuple[dict, ...] = ()  # settings.plugins entries (masked): instanceId, pluginId, enabled
    providers: tuple[str, ...] = ()  # provider ids configured


def read_settings(paths: DaycarePaths) -> Loaded[SettingsView]:
    data, problems = read_json(paths.settings_path, root=paths, expect=dict)
    if data is None:
        return loaded([], problems)
    masked = mask_secrets(data)
    plugins = masked.get("plugins") if isinstance(masked.get("plugins"), list) else []
    providers = masked.get("providers") if isinstance(masked.get("providers"), list) else []
    view = SettingsView(
        path=str(paths.settings_path),
        values=masked,
        plugins=tuple(p for p in plugins if isinstance(p, dict)),
        providers=tuple(str(p.get("id")) for p in providers if isinstance(p, dict) and "id" in p),
    )
    return loaded([view], problems)


def plugin_ids(paths: DaycarePaths) -> dict[str, str]:
    """instanceId → pluginId from settings (how a plugin data folder's kind is known for sure)."""
    out: dict[str, str] = {}
    plugins = paths.settings.get("plugins") if isinstance(paths.settings, dict) else None
    for p in plugins if isinstance(plugins, list) else []:
        if (
            isinstance(p, dict)
            and isinstance(p.get("instanceId"), str)
            and isinstance(p.get("pluginId"), str)
        ):
            out[p["instanceId"]] = p["pluginId"]
    return out


@dataclass(frozen=True)
class AuthEntry(RecordMixin):
    """One provider in auth.json. Every string except ``type`` is masked before it is stored here."""

    provider: str
    path: str
    type: str | None
    fields: dict = field(default_factory=dict)  # masked values, for display
    secret_keys: tuple[str, ...] = ()  # the keys that hold (masked) credentials


def read_auth(paths: DaycarePaths) -> Loaded[AuthEntry]:
    data, problems = read_json(paths.auth_path, root=paths, expect=dict)
    if data is None:
        # A broken auth.json could echo a secret in a JSON error message; ours only cite line/column.
        return loaded([], problems)
    items = []
    for provider, entry in data.items():
        if not isinstance(entry, dict):
            problems.append(
                Problem(
                    str(paths.auth_path),
                    None,
                    f"entry {provider!r} is {type_name(entry)}, expected an object",
                )
            )
            items.append(
                AuthEntry(str(provider), str(paths.auth_path), None, {"value": mask_value(entry)}, ("value",))
            )
            continue
        masked = _mask_all(entry)
        kind = entry.get("type") if isinstance(entry.get("type"), str) else None
        secret_keys = tuple(k for k in entry if k != "type" and masked.get(k) != entry.get(k))
        items.append(AuthEntry(str(provider), str(paths.auth_path), kind, masked, secret_keys))
    return loaded(items, problems)


def _mask_all(value, key: str | None = None):
    """Every string leaf masked except an entry's ``type``; unlike ``mask_secrets`` this also reaches
    strings inside lists (a list of keys or tokens must not slip through)."""
    if isinstance(value, dict):
        return {k: _mask_all(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask_all(v, key) for v in value]
    if isinstance(value, str) and key != "type":
        return mask_value(value)
    return mask_secrets({key or "value": value}, all_strings=True)[key or "value"]
