"""``daycare-gui export PATH session:<id> [--format md|html|jsonl] [--out FILE]`` — one conversation of any
store kind that offers conversations, as Markdown, a self-contained HTML page or JSONL (records as stored).

Streams to stdout, or writes FILE atomically (a temporary file beside it, renamed), for its owner only
(mode 0600: an export holds a conversation). An existing FILE is kept unless ``--force``; a symlink is never
written through and a read-only file (no owner write bit) never replaced, even with ``--force``. Never writes
a byte into the store. Exit 2 with one clear line for an unrecognised store, a store without conversations,
an unknown session or a bad target.
"""

from __future__ import annotations

import io
import os
import sqlite3
import stat
import sys

from daycare_gui.commands import options
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
from daycare_gui.stores.common.sqlite_ro import DatabaseError

EXPORT_MODE = 0o600  # an export holds a whole conversation: its owner's to share


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a store: Daycare root, data dir or settings.json, or another kind's folder")
    parser.add_argument("target", metavar="session:ID", help="what to export: session:<session id>, or "
                                                               "costs[:day|model|agent|task|user] (a CSV table)")
    parser.add_argument("--format", choices=[*FORMATS, "csv"], default=None,
                        help="md (readable Markdown), html (one self-contained page) or jsonl (the records as "
                             "stored, one per line); default: from --out's suffix, else md. csv: a costs table")
    options.add_since(parser, "(costs) calls")
    parser.add_argument("--out", metavar="FILE", help="write FILE (atomically, mode 0600) instead of standard "
                                                      "output; an existing FILE is kept unless --force")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing --out FILE (never a symlink, never a read-only file)")
    parser.add_argument("--records", metavar="ID,ID…", help="only these records (ids as shown in raw views)")
    options.add_kind(parser)


# What reading a damaged store raises (a Daycare database that is not one any more, an unreadable file)
READ_ERRORS = (sqlite3.Error, DatabaseError, OSError, CannotOpen)  # (a PGlite store's PgError is one)


def _fail(message: str, code: int = 2) -> int:
    print(f"daycare-gui export: {mask_url(message)}", file=sys.stderr)
    return code


def run(args) -> int:
    kind, _, session_id = args.target.partition(":")
    if kind == "costs":
        from daycare_gui.commands.costs_export import export_costs

        return export_costs(args, session_id or "model", _fail, _out_refused, EXPORT_MODE)
    if args.format == "csv" or args.since:
        return _fail("--format csv and --since go with a costs table (costs:<grouping>)")
    if kind != "session" or not session_id:
        return _fail(f"cannot export {args.target!r}: name a session as session:<id>")
    fmt = args.format or (format_for_path(args.out) if args.out else "md")
    refusal = _out_refused(args.out, args.force) if args.out else None
    if refusal:
        return _fail(refusal)
    # the records named, each once, in the order given
    ids = list(dict.fromkeys(i.strip() for i in args.records.split(",") if i.strip())) if args.records else None
    try:
        # live=False: a store whose WAL holds data is read from a private snapshot (as inspect does)
        store = registry.open_store(args.path, kind=args.kind, live=False)
    except (NotRecognised, CannotOpen) as exc:
        return _fail(str(exc))
    try:
        with store:
            code = _export(args, store, session_id, fmt, ids)
            if code == 0:
                _note_problems(store, args.path)
            return code
    except BrokenPipeError:  # (an OSError) the reader went away, not the store: main ends quietly
        raise
    except READ_ERRORS as exc:  # a damaged database: what is wrong, in one line, and nothing written
        return _fail(f"cannot read this store: {exc}", 1)


def _note_problems(store, path) -> None:
    """What the store could not read may be missing from the export (a session log that is a named pipe
    exports as no messages): said on stderr, never silently — the export itself stays as it was asked."""
    errors = [p for p in store.problems if getattr(p, "severity", "error") == "error"]
    if not errors:
        return
    first = errors[0]
    more = f" and {len(errors) - 1:,} more" if len(errors) > 1 else ""
    print(f"daycare-gui export: note: part of this store could not be read ({first.path}: {first.message}"
          f"{more}); what it holds is not in the export. 'daycare-gui inspect {path}' lists every problem.",
          file=sys.stderr)


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
            written = export_to_file(cap, ref, fmt, args.out, expect=None if ids is None else len(ids),
                                     replace=args.force, through_links=False, mode=EXPORT_MODE, **options)
        except ExportIncomplete as exc:
            return _missing(exc.written, ids)
        except FileExistsError:  # it appeared while the export ran
            return _fail(f"{args.out} appeared meanwhile and was kept; nothing was written (add --force to "
                         "replace it)")
        except OSError as exc:
            return _fail(f"cannot write {args.out}: {exc.strerror or exc}", 1)
        print(f"wrote {written:,} messages to {args.out}", file=sys.stderr)
        return 0
    if ids is not None:  # a selection is small: held until it is known to be whole
        held = io.StringIO()
        written = export_session(cap, ref, fmt, held, **options)
        if written < len(ids):
            return _missing(written, ids)
        _to_stdout(lambda out: (out.write(held.getvalue()), written)[1])
        return 0
    _to_stdout(lambda out: export_session(cap, ref, fmt, out, **options))
    return 0


def _out_refused(out: str, force: bool) -> str | None:
    """Why ``--out`` must not be written, in one sentence, or None."""
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot write {out}: {exc.strerror or exc}; nothing was written"
    if stat.S_ISLNK(st.st_mode):
        return (f"{out} is a symlink (to {os.path.realpath(out)}); an export is never written through one, "
                "nothing was written")
    if not stat.S_ISREG(st.st_mode):
        return f"{out} exists and is not a regular file; nothing was written"
    if not force:
        return f"{out} exists; nothing was written (add --force to replace it)"
    if not st.st_mode & stat.S_IWUSR:
        return f"{out} is read-only (mode {stat.S_IMODE(st.st_mode):04o}); nothing was written"
    return None


def _missing(written: int, ids: list[str]) -> int:
    return _fail(f"{len(ids) - written} of the {len(ids)} records asked for are not in this session; "
                 "nothing was written")


def _to_stdout(produce) -> int:
    """``produce(out)`` (it returns how many messages it wrote) on standard output, as UTF-8. A reader that
    went away (``| head``) raises BrokenPipeError, which the command line's main ends quietly, as for
    every command."""
    out = sys.stdout
    wrapped = None
    if (getattr(out, "encoding", "") or "").lower().replace("-", "") != "utf8" and hasattr(out, "buffer"):
        out.flush()  # a terminal or pipe in another encoding: exports are UTF-8 whatever the locale says
        out = wrapped = io.TextIOWrapper(out.buffer, encoding="utf-8", newline="")
    try:
        written = produce(out)
        out.flush()
    finally:
        if wrapped is not None:
            wrapped.detach()
    return written
