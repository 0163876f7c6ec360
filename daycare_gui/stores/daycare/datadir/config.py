"""``settings.json``, ``auth.json`` and each user's ``secrets.json`` as rows, with no secret in them.

settings.json: every key as a dotted row, the values Daycare treats as credentials (``engine.db.url``,
``appServer.jwtSecret``, ``opensandbox.apiKey``, ``email.smtpUrl``, every plugin's ``settings``) masked
whatever they look like, everything else masked where it looks secret. auth.json and secrets.json hold
nothing but credentials: only their names, types and variable keys are read out, never a value.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.secrets import mask_free_text, mask_secrets, mask_tree, mask_value
from daycare_gui.stores.daycare.datadir.reading import read_capped, subfolders, text_of
from daycare_gui.stores.daycare.datadir.skills import user_label
from daycare_gui.stores.problems import ProblemLog

CREDENTIALS = (("engine", "db", "url"), ("appServer", "jwtSecret"), ("opensandbox", "apiKey"), ("email", "smtpUrl"))
SETTINGS_ROWS = 5000  # a settings file with more leaves than this is not Daycare's own
JSON_LIMIT = 1_000_000


@dataclass(frozen=True)
class Entry:
    key: str
    values: tuple
    raw: dict
    markdown: str | None = None
    problem: str | None = None


def _json(path: Path, folder: Path, problems: ProblemLog, expect: type):
    data = read_capped(path, folder, problems, JSON_LIMIT)
    if data is None:
        return None
    try:
        value = json.loads(text_of(data))
    except (ValueError, RecursionError) as exc:
        # The decoder's message may quote the text around the error (a secret): only its place is said.
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        problems.add(path, f"not valid JSON{where}; not read")
        return None
    if not isinstance(value, expect):
        problems.add(path, f"expected a JSON {'object' if expect is dict else 'array'}; not read")
        return None
    return value


def masked_settings(data: dict) -> dict:
    out = mask_tree(data)
    for keys in CREDENTIALS:
        node = out
        for key in keys[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(keys[-1]) not in (None, ""):
            node[keys[-1]] = mask_value(node[keys[-1]])
    plugins = out.get("plugins") if isinstance(out.get("plugins"), list) else []
    for plugin in plugins:
        if isinstance(plugin, dict) and plugin.get("settings") is not None:
            plugin["settings"] = _mask_all(plugin["settings"])
    return out


def _mask_all(value):
    if isinstance(value, dict):
        return {k: _mask_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask_all(v) for v in value]
    return mask_value(value) if isinstance(value, str) and value else value


def _leaves(value, prefix: str, out: list[tuple[str, object]]) -> None:
    if len(out) >= SETTINGS_ROWS:
        return
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _leaves(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            _leaves(v, f"{prefix}[{i}]", out)
    else:
        out.append((prefix, value))


def settings_entries(config_dir: Path, problems: ProblemLog) -> list[Entry]:
    data = _json(config_dir / "settings.json", config_dir, problems, dict)
    if data is None:
        return []
    leaves: list[tuple[str, object]] = []
    _leaves(masked_settings(data), "", leaves)
    return [Entry(key, (key, v if isinstance(v, (str, int, float, bool)) or v is None else json.dumps(v)),
                  {key: v}) for key, v in leaves]


def auth_entries(config_dir: Path, problems: ProblemLog) -> list[Entry]:
    data = _json(config_dir / "auth.json", config_dir, problems, dict)
    out = []
    for provider, entry in (data or {}).items():
        if not isinstance(entry, dict):
            out.append(Entry(provider, (provider, "", ""), {"provider": provider},
                             problem="not a JSON object"))
            continue
        kind = entry.get("type") if isinstance(entry.get("type"), str) else ""
        keys = [str(k) for k in entry if k != "type"]
        out.append(Entry(provider, (provider, mask_free_text(kind), ", ".join(keys)),
                         {"provider": provider, "type": kind, "keys": keys}))
    return out


def user_secret_entries(users_dir: Path, problems: ProblemLog) -> list[Entry]:
    out = []
    for user in subfolders(users_dir, problems):
        uid = user_label(user)
        data = _json(user / "secrets.json", user, problems, list)
        for i, secret in enumerate(data or []):
            if not isinstance(secret, dict):
                continue
            name = str(secret.get("name") or f"#{i + 1}")
            variables = secret.get("variables") if isinstance(secret.get("variables"), dict) else {}
            keys = [str(k) for k in variables]
            shown = {"user": uid, "name": mask_free_text(name),
                     "displayName": mask_free_text(str(secret.get("displayName") or "")),
                     "description": mask_free_text(str(secret.get("description") or "")), "variables": keys}
            out.append(Entry(f"{uid}/{name}", (uid, shown["name"], shown["displayName"], shown["description"],
                                               ", ".join(keys)), mask_secrets(shown)))
    return out
