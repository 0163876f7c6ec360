"""``daycare-gui edit`` on a file of another kind's store (Linggen, CianaParrot, a kind from a package).

The store is the nearest folder above the file that a kind recognises, as ``inspect`` would; when that kind
offers an editor for the file (``StoreKind.file_editor``: Daycare's files), or no kind claims the folder, the
command edits it through that editor (commands.edit). Otherwise the file must be one of the documents the
kind lists, and it is saved through the kind's own ``Documents.save``: the same running
check, backup and refusals as the window's editor (written before, ``edit`` wrote such files while the
program ran, with no backup). Any other file of such a store is refused plainly.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.commands.edit_common import (
    EXIT_CONFLICT,
    EXIT_OK,
    EXIT_REFUSED,
    apply_edits,
    check_verdict,
    parse_assignment,
    unified_diff,
)
from daycare_gui.stores import registry
from daycare_gui.stores.api import (
    CannotOpen,
    Documents,
    FileEditor,
    NotRecognised,
    OpenedStore,
    WriteConflict,
    WriteRefused,
)
from daycare_gui.stores.common.edit.atomic import OutsideStoreError, load_for_edit, refuse_outside
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.masking import mask_text

SURE = 0.8  # a kind this sure is the store's; below it a folder may only hold one (a home with .linggen/)


@dataclass
class KindStore:
    kind: str
    title: str
    folder: Path  # the folder recognised as the store
    store: OpenedStore | None  # None when it could not be opened (``problem`` says why), or not opened
    problem: str = ""
    editor: FileEditor | None = None  # the kind's editor for the file: then the store is not opened


def store_of(path: Path) -> KindStore | None:
    """The store that holds ``path`` (the nearest folder above it that a kind recognises), opened unless its
    kind offers an editor for the file (``editor``); None when there is none."""
    for folder in Path(os.path.abspath(path)).parents:
        sure = [c for c in registry.probe(folder) if c.confidence >= SURE]
        if not sure:
            continue
        kind = sure[0].kind
        title = registry.load_kind(kind).title or kind
        editor = registry.load_kind(kind).file_editor(path)
        if editor is not None:
            return KindStore(kind, title, folder, None, editor=editor)
        try:
            return KindStore(kind, title, folder, registry.open_store(folder, kind=kind))
        except (NotRecognised, CannotOpen, OSError) as exc:
            return KindStore(kind, title, folder, None, str(exc))
    return None


def _one_line(text: str) -> str:
    return "; ".join(part.strip() for part in str(text).split("\n\n") if part.strip())


def edit_kind_file(args, path: Path, found: KindStore) -> int:
    """``edit`` of ``path`` in ``found`` (opened); the exit code, as the Daycare path's."""
    def refuse(why: str) -> int:
        print(f"daycare-gui edit: refused, {path} left unchanged: {why}", file=sys.stderr)
        return EXIT_REFUSED

    where = f"a {found.title} store ({found.folder})"
    if found.store is None:
        return refuse(f"it is in {where} that cannot be opened: {found.problem}")
    docs = found.store.capability(Documents)
    real = os.path.realpath(path)
    ref = next((d for d in (docs.documents() if docs else []) if d.path and os.path.realpath(d.path) == real), None)
    if ref is None:
        return refuse(f"it is in {where} and is not one of the documents daycare-gui edits there")
    if not ref.editable:
        return refuse(f"{ref.readonly_reason or 'it cannot be edited'}")
    try:
        refuse_outside(path, [found.folder])
    except OutsideStoreError as exc:
        print(f"daycare-gui edit: refused: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        loaded = load_for_edit(path)
        assignments = [parse_assignment(text) for text in args.sets]
        body = Path(args.body_file).read_text(encoding="utf-8") if args.body_file else None
        after = apply_edits(path, loaded.data, assignments, body)
    except (DocumentError, InvalidValue, OSError, UnicodeDecodeError) as exc:
        return refuse(mask_text(str(getattr(exc, "strerror", None) or exc)))
    if after == loaded.data:
        print(f"{path}: nothing to change")
        return EXIT_OK
    diff = unified_diff(path, loaded.data, after)
    if args.check:  # the real run's verdict: refused while the program runs (without --force), exit 2
        sys.stdout.write(diff)
        return check_verdict(path, [found.store.writes_blocked()], args.force)
    try:
        # The kind's own save: refused while its program runs (unless --force), the old bytes backed up
        # first, then the atomic, conflict-checked write; the window's editor saves the same way.
        backup = docs.save(ref, after, loaded.sha256, force=args.force)
    except WriteRefused as exc:
        hint = "" if args.force else ". Add --force to write it anyway"
        return refuse(f"{_one_line(str(exc))}{hint}")
    except WriteConflict as exc:
        print(f"daycare-gui edit: {exc}; nothing written. Run the command again to edit the new version.",
              file=sys.stderr)
        return EXIT_CONFLICT
    except OSError as exc:
        return refuse(f"it cannot be written: {exc.strerror or exc}")
    sys.stdout.write(diff)
    if backup is not None:
        print(f"daycare-gui edit: the old text is kept in {backup}", file=sys.stderr)
    return EXIT_OK
