"""A flat mission's run history (``runs.jsonl``) in both formats, with each status said in words.

Before Linggen 1.7 a row was appended when a run ended: ``triggered_at`` is that moment, and a row of a
run that reached the entry-script stage carries ``entry_exit_code`` and ``output_dir``. Since 1.7 the row
is appended as ``running`` when the run starts (``triggered_at`` is the start) and rewritten in place when
it ends; exit code and output folder are gone. A row still ``running`` while no Linggen runs belongs to a
dead process: Linggen's next start turns it into ``interrupted``.

The list shows the columns of the formats present: a home written only by 1.7 has no always-empty "Exit
code" column, and each row's time is labelled by what it means in its format.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from daycare_gui.stores.linggen.readers import local_time, seconds_to_ms, text_of

SINCE_17, BEFORE_17 = "1.7", "before 1.7"

STATUS_MEANINGS = {
    "running": "Linggen started this run and has not recorded its end yet.",
    "completed": "The run finished.",
    "failed": "The run ended with an error.",
    "cancelled": "The run was stopped before it finished.",
    "skipped": "Linggen did not start this run: another run of this mission was still under way.",
    "interrupted": ("Linggen stopped (it quit, crashed or hung, or the machine went down) while this run was "
                    "under way, and marked the run interrupted when it next started. The run did not finish; "
                    "its session holds what was done, and a catch-up counts the slot as not done."),
}
STALE = "stale: will be marked interrupted when Linggen next starts"

_COLUMNS = {
    SINCE_17: ("Mission", "Run", "Started", "Status", "Skipped", "Session"),
    BEFORE_17: ("Mission", "Run", "Ended", "Status", "Skipped", "Exit code", "Output folder", "Session"),
}
_ORDER = ("Mission", "Run", "Started", "Ended", "Status", "Skipped", "Exit code", "Output folder", "Session")


def run_format(run: dict) -> str:
    """The format a row was written in: an exit code or output folder only exist before 1.7."""
    return BEFORE_17 if "entry_exit_code" in run or "output_dir" in run else SINCE_17


def columns_for(formats: Iterable[str]) -> tuple[str, ...]:
    """The columns of the formats present (1.7's when there are no runs)."""
    wanted = {c for f in (set(formats) or {SINCE_17}) for c in _COLUMNS[f]}
    return tuple(c for c in _ORDER if c in wanted)


def run_values(columns: tuple[str, ...], mission_title: str, run: dict) -> tuple[Any, ...]:
    fmt = run_format(run)
    skipped = run.get("skipped")
    at = local_time(seconds_to_ms(run.get("triggered_at")))
    by_column = {
        "Mission": mission_title, "Run": text_of(run.get("run_id")),
        "Started" if fmt == SINCE_17 else "Ended": at,
        "Status": text_of(run.get("status")),
        "Skipped": skipped if isinstance(skipped, bool) else None,  # the lists show yes/no; blank: not said
        "Exit code": text_of(run.get("entry_exit_code")), "Output folder": text_of(run.get("output_dir")),
        "Session": text_of(run.get("session_id")),
    }
    return tuple(by_column.get(c, "") for c in columns)


def run_flag(run: dict, linggen_running: bool) -> str:
    status = text_of(run.get("status"))
    if status == "running" and not linggen_running:
        return STALE
    if status and status not in STATUS_MEANINGS:
        return f"unknown status {status!r}"
    return ""


def run_markdown(run: dict, linggen_running: bool) -> str:
    """The row's status in words, and what its time means in the format it was written in."""
    status = text_of(run.get("status"))
    meaning = STATUS_MEANINGS.get(status, "Linggen writes no such status; it may be from a newer version.")
    lines = [f"**Status: {status or '(none)'}** — {meaning}"]
    if status == "running" and not linggen_running:
        lines.append("Linggen is not running, so this run was cut off: Linggen marks it **interrupted** "
                     "when it next starts.")
    if run_format(run) == SINCE_17:
        lines.append("Written as Linggen 1.7 writes it: the time is when the run started.")
    else:
        lines.append("Written as Linggen before 1.7 wrote it: the row was added when the run ended, so the "
                     "time is its end; the exit code is the entry script's.")
    return "\n\n".join(lines)
