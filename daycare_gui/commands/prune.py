"""``daycare-gui prune PATH --keep N [--idle-days D] [--dry-run] [--force]`` — give back the space of old
checkpoints (CianaParrot): keep the latest N of each thread, optionally drop threads idle for D days, then
VACUUM; backed up first, refused while the bot runs unless forced. ``--undo BACKUP`` puts a backup back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, NotRecognised, Storage, WriteRefused
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a CianaParrot deployment, its data folder or its checkpoints.db")
    parser.add_argument("--keep", type=int, default=None, help="checkpoints kept per thread (at least 1)")
    parser.add_argument("--idle-days", type=float, default=None,
                        help="also drop threads whose latest checkpoint is older than this many days")
    parser.add_argument("--dry-run", action="store_true", help="say what would go and what it gives back; write nothing")
    parser.add_argument("--force", action="store_true", help="prune even though the bot may be running")
    parser.add_argument("--undo", metavar="BACKUP", help="put this backup (made by a prune) back in place of the store")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_kind(parser)


def _say(args, data: dict, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str) if args.json else text)


def run(args) -> int:
    from daycare_gui.stores.common.wording import byte_size

    if args.undo is None and args.keep is None:
        print("daycare-gui: say how many checkpoints to keep per thread (--keep N), or --undo BACKUP", file=sys.stderr)
        return 2
    try:
        with registry.open_store(args.path, kind=args.kind, live=False) as store:
            storage = store.capability(Storage)
            if storage is None:
                raise WriteRefused("daycare-gui does not prune this kind of store.")
            if args.undo is not None:
                return _undo(args, storage)
            if args.dry_run:
                preview = storage.prune_preview(args.keep, args.idle_days)
                if preview.refusal:
                    raise WriteRefused(preview.refusal)
                lines = [f"  {byte_size(line.bytes):>10}  {line.name}: {line.count:,} checkpoints ({line.detail})"
                         for line in preview.dropped]
                _say(args, {"dry_run": True, "size_before": preview.size_before, "size_after": preview.size_after,
                            "reclaimed": preview.reclaimed, "summary": preview.summary,
                            "threads": [vars(line) for line in preview.dropped], "notes": list(preview.notes)},
                     "\n".join(["Dry run (nothing written): " + preview.summary, *lines,
                                *(f"Note: {n}" for n in preview.notes)]))
                return 0
            done = storage.prune(args.keep, args.idle_days, force=args.force)
    except (NotRecognised, CannotOpen, WriteRefused) as exc:
        print(f"daycare-gui: {mask_url(str(exc))}", file=sys.stderr)
        return 2
    if done.refusal:
        print(f"daycare-gui: {done.refusal}", file=sys.stderr)
        return 1
    _say(args, {"size_before": done.size_before, "size_after": done.size_after,
                "reclaimed": max(0, done.size_before - done.size_after), "backup": done.backup,
                "summary": done.summary}, done.summary)
    return 0


def _undo(args, storage) -> int:
    done = storage.undo_prune(Path(args.undo).expanduser(), force=args.force)
    if done.refusal:
        raise WriteRefused(done.refusal)
    _say(args, {"restored_from": str(done.backup)}, done.summary)
    return 0
