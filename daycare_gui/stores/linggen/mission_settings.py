"""A flat mission's settings in words, and the legacy shape Linggen 1.7 loads without its grants.

Linggen 1.7 writes ``mission.md`` frontmatter with ``agent`` (left out when it is "ling"),
``catchup_hours``, ``kickoff``, ``kickoff-day``, ``kickoff-attended``, ``kickoff-stop`` and a per-path
``permission: {paths: [{path, mode}], warning}`` (the older shape was ``{mode, paths: [str], warning}``).
A frontmatter with ``permission_tier`` or a top-level ``mode`` is read by 1.7 in its legacy shape: the
tier is no longer honoured, so the mission runs with no permission grants, and only schedule, enabled,
model, project and created_at are kept; ``mode: app`` is refused outright.
"""

from __future__ import annotations

from typing import Any

from daycare_gui.stores.linggen.readers import text_of

_MODES = {"read": "may read", "edit": "may edit", "write": "may edit", "admin": "full access (admin) to"}


def settings_in_words(meta: dict) -> list[str]:
    """Markdown bullets for the settings a user should see without opening the raw view, as Linggen 1.7
    reads them."""
    if is_legacy(meta):
        return ["- **Agent:** ling (a mission in the legacy shape always runs as ling)",
                "- **Catch-up:** none (only the schedule starts it)",
                "- **Permission:** none granted (the legacy permission_tier or mode is no longer honoured)"]
    out: list[str] = []
    agent = text_of(meta.get("agent"))
    out.append(f"- **Agent:** {agent}" if agent else "- **Agent:** ling (the default)")
    hours = meta.get("catchup_hours")
    if isinstance(hours, int) and not isinstance(hours, bool):
        out.append(f"- **Catch-up:** when the last completed run is more than {hours} "
                   f"hour{'s' if hours != 1 else ''} old, Linggen runs it again after a chat turn")
    elif "catchup_hours" in meta:
        out.append(f"- **Catch-up:** {text_of(hours)!r} (not a whole number of hours: Linggen cannot load it)")
    else:
        out.append("- **Catch-up:** none (only the schedule starts it)")
    for key, what in (("kickoff", "First messages of a run (one more after each reply)"),
                      ("kickoff-day", "First messages of a run for a given day ($DAY is the day)"),
                      ("kickoff-attended", "First messages when you start it for a day and watch"),
                      ("kickoff-stop", "Replies that end the run early")):
        items = _texts(meta.get(key))
        if items:
            out.append(f"- **{what}** ({key}):" + "".join(f"\n  - {item}" for item in items))
    out.extend(_permission_lines(meta.get("permission")))
    return out


def _permission_lines(permission: Any) -> list[str]:
    if permission is None:
        return ["- **Permission:** none granted (no permission block)"]
    if not isinstance(permission, dict):
        return [f"- **Permission:** {text_of(permission)!r} (not the shape Linggen reads)"]
    lines = []
    paths = permission.get("paths")
    for grant in paths if isinstance(paths, list) else []:
        if isinstance(grant, dict):
            mode = text_of(grant.get("mode"))
            lines.append(f"  - {_MODES.get(mode, f'mode {mode!r} on')} {text_of(grant.get('path'))}")
        else:  # the shape before 1.7: a list of paths sharing one mode
            lines.append(f"  - {text_of(grant)} (mode {text_of(permission.get('mode')) or 'not given'}; "
                         "a plain path is the shape before Linggen 1.7)")
    head = "- **Permission:**" + ("" if lines else " no paths granted")
    warning = text_of(permission.get("warning"))
    tail = [f"  - warning shown before it runs: {warning}"] if warning else []
    return [head, *lines, *tail]


def _texts(value: Any) -> list[str]:
    if isinstance(value, list):
        return [text_of(v) for v in value]
    return [text_of(value)] if value not in (None, "") else []


# Linggen's migration notes map each tier to the mode to give every path instead.
_TIER_MODES = {"readonly": "read", "standard": "edit", "full": "admin"}


def is_legacy(meta: dict) -> bool:
    """Linggen 1.7 reads the frontmatter in its legacy shape (``permission_tier`` or a top-level ``mode``)."""
    return "permission_tier" in meta or "mode" in meta


def legacy_problem(meta: dict) -> tuple[str, bool] | None:
    """What Linggen 1.7 does with a mission in a shape before 1.7, and what to do, with whether 1.7 still
    runs it; None for the 1.7 shape."""
    top_mode = text_of(meta.get("mode"))
    if top_mode == "app":
        return ("legacy mode: app: Linggen 1.7 no longer supports app missions and does not load this one; "
                "it has no replacement for them: remove the mission"), False
    if not is_legacy(meta):
        old = _old_permission_problem(meta.get("permission"))
        return (old, False) if old else None
    tier = text_of(meta.get("permission_tier"))
    what = f"permission_tier: {tier}" if "permission_tier" in meta else f"mode: {top_mode}"
    mode = _TIER_MODES.get(tier, "read, edit or admin")
    return (f"legacy {what}: Linggen 1.7 no longer honours it and runs this mission with no permission grants "
            "(in this shape it also ignores name, description, cwd, allowed-tools and kickoff); replace it with "
            f"a permission block naming each path the mission may use, e.g. permission: {{paths: [{{path: "
            f"~/project, mode: {mode}}}]}}, and remove permission_tier and mode"), True


def _old_permission_problem(permission: Any) -> str | None:
    """Plain paths under ``permission.paths`` (the shape before 1.7) do not parse as 1.7's grants, so
    Linggen 1.7 fails to read the frontmatter and skips the mission."""
    paths = permission.get("paths") if isinstance(permission, dict) else None
    if not isinstance(paths, list) or all(isinstance(p, dict) for p in paths):
        return None
    return ("permission paths in the shape before Linggen 1.7 (plain paths sharing one mode): Linggen 1.7 "
            "cannot read this frontmatter and skips the mission; give each path its own mode, e.g. "
            "paths: [{path: ~/project, mode: edit}]")
