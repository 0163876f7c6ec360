"""``daycare-gui export PATH session:<id> [--format md|html|jsonl] [--out FILE]`` — one conversation of any
store kind that offers conversations, as Markdown, a self-contained HTML page or JSONL (records as stored).

Streams to stdout, or writes FILE atomically. Never writes a byte into the store. Exit 2 with one clear
line for an unrecognised store, a store without conversations, an unknown session or a bad target.
"""

from __future__ import annotations

import io
import sys

from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, Conversations, NotRecognised
from daycare_gui.stores.common.export import (
    FORMATS,
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


def _fail(message: str, code: int = 2) -> int:
    print(f"daycare-gui export: {mask_url(message)}", file=sys.stderr)
    return code


def run(args) -> int:
    kind, _, session_id = args.target.partition(":")
    if kind != "session" or not session_id:
        return _fail(f"cannot export {args.target!r}: name a session as session:<id>")
    fmt = args.format or (format_for_path(args.out) if args.out else "md")
    ids = [i.strip() for i in args.records.split(",") if i.strip()] if args.records else None
    try:
        # live=False: a store whose WAL holds data is read from a private snapshot (as inspect does)
        store = registry.open_store(args.path, kind=args.kind, live=False)
    except (NotRecognised, CannotOpen) as exc:
        return _fail(str(exc))
    with store:
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
                written = export_to_file(cap, ref, fmt, args.out, **options)
            except OSError as exc:
                return _fail(f"cannot write {args.out}: {exc.strerror or exc}", 1)
            print(f"wrote {written:,} messages to {args.out}", file=sys.stderr)
        else:
            written = _to_stdout(cap, ref, fmt, options)
            if written is None:
                return 1
    if ids is not None and written < len(ids):
        return _fail(f"{len(ids) - written} of the {len(ids)} records asked for are not in this session")
    return 0


def _to_stdout(cap, ref, fmt: str, options: dict) -> int | None:
    out = sys.stdout
    wrapped = None
    if (getattr(out, "encoding", "") or "").lower().replace("-", "") != "utf8" and hasattr(out, "buffer"):
        out.flush()  # a terminal or pipe in another encoding: exports are UTF-8 whatever the locale says
        out = wrapped = io.TextIOWrapper(out.buffer, encoding="utf-8", newline="")
    try:
        written = export_session(cap, ref, fmt, out, **options)
        out.flush()
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        return None
    finally:
        if wrapped is not None:
            wrapped.detach()
    return written
