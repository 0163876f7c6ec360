"""``daycare-gui export PATH session:<id> [--format md|html|jsonl] [--out FILE]`` — one conversation of any
store kind that offers conversations, as Markdown, a self-contained HTML page or JSONL (records as stored).

Streams to stdout, or writes FILE atomically. Never writes a byte into the store. Exit 2 with one clear
line for an unrecognised store, a store without conversations, an unknown session or a bad target.
"""

from __future__ import annotations

import io
import sqlite3
import sys

from daycare_gui.core.db import DatabaseError
from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, Conversations, NotRecognised
from daycare_gui.stores.common.export import (
    FORMATS,
    ExportIncomplete,
    export_session,
    export_to_file,
    format_for_path,
    header_for,
)
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store: Daycare root, data dir or settings.json, or another kind's folder")
    parser.add_argument("target", metavar="session:ID", help="what to export: session:<session id>")
    parser.add_argument("--format", choices=list(FORMATS), default=None,
                        help="md (readable Markdown), html (one self-contained page) or jsonl (the records as "
                             "stored, one per line); default: from --out's suffix, else md")
    parser.add_argument("--out", metavar="FILE", help="write FILE (atomically) instead of standard output")
    parser.add_argument("--records", metavar="ID,ID…", help="only these records (ids as shown in raw views)")
    parser.add_argument("--kind", help=f"open as this kind ({', '.join(registry.kind_names())}) "
                                       "instead of detecting it")


# What reading a damaged store raises (a Daycare database that is not one any more, an unreadable file)
READ_ERRORS = (sqlite3.Error, DatabaseError, OSError, CannotOpen)  # (a PGlite store's PgError is one)


def _fail(message: str, code: int = 2) -> int:
    print(f"daycare-gui export: {mask_url(message)}", file=sys.stderr)
    return code


def run(args) -> int:
    kind, _, session_id = args.target.partition(":")
    if kind != "session" or not session_id:
        return _fail(f"cannot export {args.target!r}: name a session as session:<id>")
    fmt = args.format or (format_for_path(args.out) if args.out else "md")
    # the records named, each once, in the order given
    ids = list(dict.fromkeys(i.strip() for i in args.records.split(",") if i.strip())) if args.records else None
    try:
        # live=False: a store whose WAL holds data is read from a private snapshot (as inspect does)
        store = registry.open_store(args.path, kind=args.kind, live=False)
    except (NotRecognised, CannotOpen) as exc:
        return _fail(str(exc))
    try:
        with store:
            return _export(args, store, session_id, fmt, ids)
    except READ_ERRORS as exc:  # a damaged database: what is wrong, in one line, and nothing written
        return _fail(f"cannot read this store: {exc}", 1)


def _export(args, store, session_id: str, fmt: str, ids: list[str] | None) -> int:
    cap = store.capability(Conversations)
    title = registry.load_kind(store.kind).title or store.kind
    if cap is None:
        return _fail(f"this {title} store has no conversations to export")
    ref = cap.find_session(session_id)
    if ref is None:
        return _fail(f"no session {session_id!r} in this {title} store")
    header = header_for(cap, ref, store=store.title, kind=title, selected=None if ids is None else len(ids))
    options = {"header": header, "ids": ids}
    if args.out:
        try:
            # (with records named, the file is written only if every one of them is in the session)
            written = export_to_file(cap, ref, fmt, args.out, expect=None if ids is None else len(ids), **options)
        except ExportIncomplete as exc:
            return _missing(exc.written, ids)
        except OSError as exc:
            return _fail(f"cannot write {args.out}: {exc.strerror or exc}", 1)
        print(f"wrote {written:,} messages to {args.out}", file=sys.stderr)
        return 0
    if ids is not None:  # a selection is small: held until it is known to be whole
        held = io.StringIO()
        written = export_session(cap, ref, fmt, held, **options)
        if written < len(ids):
            return _missing(written, ids)
        return 0 if _to_stdout(lambda out: (out.write(held.getvalue()), written)[1]) is not None else 1
    return 0 if _to_stdout(lambda out: export_session(cap, ref, fmt, out, **options)) is not None else 1


def _missing(written: int, ids: list[str]) -> int:
    return _fail(f"{len(ids) - written} of the {len(ids)} records asked for are not in this session; "
                 "nothing was written")


def _to_stdout(produce) -> int | None:
    """``produce(out)`` (it returns how many messages it wrote) on standard output, as UTF-8; None when the
    reader went away."""
    out = sys.stdout
    wrapped = None
    if (getattr(out, "encoding", "") or "").lower().replace("-", "") != "utf8" and hasattr(out, "buffer"):
        out.flush()  # a terminal or pipe in another encoding: exports are UTF-8 whatever the locale says
        out = wrapped = io.TextIOWrapper(out.buffer, encoding="utf-8", newline="")
    try:
        written = produce(out)
        out.flush()
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        return None
    finally:
        if wrapped is not None:
            wrapped.detach()
    return written
