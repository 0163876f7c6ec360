"""Options several commands share, declared and checked in one place so that each says the same thing and
answers bad input with the same sentence: ``--kind`` (open as this kind) and ``--since`` (a date or a time).

A value that does not parse raises :class:`BadOption`; ``cli`` prints its one sentence, never a traceback,
and the command exits 2, as for any other wrong use of its options.
"""

from __future__ import annotations

import datetime as _dt

SINCE_FORMS = "2026-11-01, or a time such as 2026-11-01T07:00; a time without a zone is UTC"


class BadOption(ValueError):
    """An option's value the command cannot use; its text is one sentence naming the option and the fix."""


def add_kind(parser) -> None:
    from daycare_gui.stores import registry  # (the kinds are listed when a command's options are built)

    parser.add_argument("--kind", help=f"open as this kind ({', '.join(registry.kind_names())}) "
                                       "instead of detecting it")


def add_since(parser, what: str, option: str = "--since", *, before: bool = False) -> None:
    """``--since`` (or ``--until`` with ``before``); ``what`` names what it filters (``"runs started"``)."""
    where = "before" if before else "on or after"
    parser.add_argument(option, metavar="DATE", help=f"only {what} {where} this date ({SINCE_FORMS})")


def since(text: str | None, option: str = "--since") -> _dt.datetime | None:
    """A date option as an aware time (UTC when it names no zone; a bare date is its midnight), or None."""
    if not text:
        return None
    try:
        when = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise BadOption(f"{option} {text!r} is not a date (write {SINCE_FORMS}).") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=_dt.timezone.utc)


def since_ms(text: str | None, option: str = "--since") -> int | None:
    """:func:`since` in milliseconds since the epoch, as the stores' run and message times are kept."""
    when = since(text, option)
    return None if when is None else int(when.timestamp() * 1000)


def since_day(text: str | None) -> _dt.date | None:
    """:func:`since` as its UTC day, for what is totalled by day (costs)."""
    when = since(text)
    return None if when is None else when.astimezone(_dt.timezone.utc).date()
