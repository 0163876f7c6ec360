"""``daycare-gui prune PATH --keep N [--idle-days D] [--dry-run] [--force]`` — give back the space of old
checkpoints (CianaParrot): keep the latest N of each thread, optionally drop threads idle for D days, then
VACUUM; backed up first, refused while the bot runs unless forced. ``--undo BACKUP`` puts a backup back.

``daycare-gui prune PATH --leftovers [--keep-backups N] [--dry-run]`` — for any store: this application's own
leftovers (its backups beyond the newest N of each file, working copies of killed writers, search indexes
and kept answers of stores that are gone), listed with their bytes, then removed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from daycare_gui.commands import options
from daycare_gui.stores import registry
from daycare_gui.stores.api import CannotOpen, NotRecognised, Storage, WriteRefused
from daycare_gui.stores.common.secrets import mask_url


def add_arguments(parser) -> None:
    parser.add_argument("path", help="a CianaParrot deployment, its data folder or its checkpoints.db (with "
                                     "--leftovers: any store)")
    parser.add_argument("--keep", type=int, default=None, help="checkpoints kept per thread (at least 1)")
    parser.add_argument("--idle-days", type=float, default=None,
                        help="also drop threads whose latest checkpoint is older than this many days")
    parser.add_argument("--dry-run", action="store_true", help="say what would go and what it gives back; write nothing")
    parser.add_argument("--force", action="store_true", help="prune even though the bot may be running")
    parser.add_argument("--undo", metavar="BACKUP", help="put this backup (made by a prune) back in place of the store")
    parser.add_argument("--leftovers", action="store_true",
                        help="remove daycare-gui's own leftovers instead (any kind of store): old backups, "
                             "working copies of killed writers, indexes of stores that are gone")
    parser.add_argument("--keep-backups", type=int, default=3, metavar="N",
                        help="with --leftovers: the newest backups kept of each file (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_kind(parser)


def _say(args, data: dict, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str) if args.json else text)


def run(args) -> int:
    from daycare_gui.stores.common.wording import byte_size

    if args.undo is None and args.keep is None and not args.leftovers:
        print("daycare-gui: say how many checkpoints to keep per thread (--keep N), or --undo BACKUP, or "
              "--leftovers", file=sys.stderr)
        return 2
    if args.leftovers and args.keep_backups < 1:
        print("daycare-gui: --keep-backups must be at least 1: the newest backup is what undoes the last change",
              file=sys.stderr)
        return 2
    try:
        with registry.open_store(args.path, kind=args.kind, live=False) as store:
            storage = store.capability(Storage)
            if storage is None:
                raise WriteRefused("daycare-gui does not prune this kind of store.")
            if args.leftovers:
                return _leftovers(args, storage)
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


def _leftovers(args, storage) -> int:
    from daycare_gui.stores.common import own_leftovers
    from daycare_gui.stores.common.wording import byte_size

    preview = own_leftovers.preview(storage, args.keep_backups)
    lines = [f"  {byte_size(line.bytes):>10}  {line.name}  ({line.detail})" for line in preview.dropped]
    data = {"dry_run": bool(args.dry_run), "files": [vars(line) for line in preview.dropped],
            "bytes": preview.size_before}
    if args.dry_run:
        _say(args, {**data, "summary": preview.summary},
             "\n".join(["Dry run (nothing removed): " + preview.summary, *lines]))
        return 0
    done = own_leftovers.remove_for(storage, args.keep_backups, preview)
    _say(args, {**data, "reclaimed": done.size_before - done.size_after, "summary": done.summary},
         "\n".join([*lines, done.summary]))
    return 0
