"""``daycare-gui edit FILE --set KEY=VALUE … [--check] [--body-file F] [--force]``: change a file's fields safely.

Only the edited values change (see core.edit.document and core.edit.json_doc). A file is edited by the kind
that offers an editor for it (``StoreKind.file_editor``: Daycare's files, in a store or loose), or, in another
kind's store, saved as one of that store's documents (commands.edit_kinds). Daycare's files:

* Markdown with frontmatter. TASK.md goes through the alias-aware cron view (``--set schedule=…`` on a
  file that says ``cron:`` edits ``cron:``; the schedule is validated); PERMISSIONS.md takes ``intent``,
  ``allow`` and ``deny``. A cron or heartbeat file Daycare no longer reads (it imported it into the
  database) is only written with ``--force``, after a warning that names the row Daycare reads.
* An app's ``state.json`` (``permissions``: the granted tags; ``updatedAt``) and ``settings.json``
  (dotted keys such as ``engine.dataDir``), edited as JSON: only the changed value's text changes.

While Daycare's engine runs on the file's store (a live pid in ``engine.pid`` or an answering socket), any
write is refused without ``--force``: the engine may overwrite the change or not see it until it restarts.

A document of another kind's store (a Linggen agent or skill, a CianaParrot workspace file or skill) is
saved through that kind, as the window saves it: refused while its program runs (without ``--force``), its
old text backed up first (see commands.edit_kinds); that store's other files are refused.

Anything else is refused. VALUE is YAML (``--set enabled=false``, ``--set allow='["@network"]'``).
Prints a unified diff of the change (secrets masked).

Exit codes: 0 done (or nothing to change), 2 refused (unknown file, bad value, unreadable file, the engine
running, a file or folder that cannot be written; nothing written), 3 the file changed on disk while we
worked (nothing written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from daycare_gui.commands.edit_common import (
    EXIT_CONFLICT,
    EXIT_OK,
    EXIT_REFUSED,
    MARKDOWN_SUFFIXES,
    apply_edits,
    check_verdict,
    parse_assignment,
    unified_diff,
)
from daycare_gui.commands.edit_kinds import edit_kind_file, store_of
from daycare_gui.stores import registry
from daycare_gui.stores.api import StoreKind, WriteRefused
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    ReadOnlyError,
    load_for_edit,
    refuse_outside,
    save_atomic,
)
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.masking import mask_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a Markdown file (TASK.md, PERMISSIONS.md, APP.md, SKILL.md, …), "
                                     "an app's state.json or settings.json")
    parser.add_argument(
        "--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
        help="set a frontmatter key (or a JSON key; dotted for settings.json); VALUE is YAML (repeatable)",
    )
    parser.add_argument("--body-file", metavar="F", help="replace the Markdown body with the text of file F")
    parser.add_argument("--check", action="store_true", help="validate and show the diff, but write nothing")
    parser.add_argument("--force", action="store_true",
                        help="write even though Daycare may not see it: while its engine runs, or a cron/heartbeat "
                             "file when Daycare reads its database row instead")


def file_editor(path: Path):
    """The editor the first kind offering one has for ``path`` (by its name and format), or None."""
    for name in registry.kind_names():
        try:
            kind = registry.load_kind(name)
        except registry.UnknownKind:
            continue
        if type(kind).file_editor is StoreKind.file_editor:
            continue
        editor = kind.file_editor(path)
        if editor is not None:
            return editor
    return None


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    editor = file_editor(path)
    if editor is None and path.suffix.lower() not in MARKDOWN_SUFFIXES:
        print(f"daycare-gui edit: refused, {path} left unchanged: this command edits Markdown files with "
              "frontmatter, an app's state.json and settings.json, not this file", file=sys.stderr)
        return EXIT_REFUSED
    found = store_of(path)  # the store holding the file: its kind's editor, or its documents
    if found is not None and found.editor is None:  # (Linggen, CianaParrot, …: saved as the window saves it)
        try:
            return edit_kind_file(args, path, found)
        finally:
            if found.store is not None:
                found.store.close()
    editor = found.editor if found is not None else editor
    if editor is None:  # a loose Markdown file no kind edits
        print(f"daycare-gui edit: refused, {path} left unchanged: no store kind edits this file", file=sys.stderr)
        return EXIT_REFUSED
    folders = editor.folders()
    try:
        refuse_outside(path, folders)  # a store's file linked to one of the user's (cron/x/TASK.md → ~/notes.md)
    except OutsideStoreError as exc:
        print(f"daycare-gui edit: refused: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        loaded = load_for_edit(path)
    except OSError as exc:
        print(f"daycare-gui edit: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        assignments = [parse_assignment(text) for text in args.sets]
        body = Path(args.body_file).read_text(encoding="utf-8") if args.body_file else None
        after = apply_edits(path, loaded.data, assignments, body, editor)
    except (DocumentError, InvalidValue, OSError, UnicodeDecodeError) as exc:
        print(f"daycare-gui edit: refused, {path} left unchanged: {mask_text(str(exc))}", file=sys.stderr)
        return EXIT_REFUSED

    if after == loaded.data:
        print(f"{path}: nothing to change")
        return EXIT_OK
    warning = editor.warning()
    engine = editor.blocked()
    diff = unified_diff(path, loaded.data, after, editor)
    if args.check:  # the verdict the real run would give, without writing: "valid" only when it would write
        sys.stdout.write(diff)
        return check_verdict(path, [warning, engine], args.force)
    if warning:
        print(f"daycare-gui edit: warning: {warning}", file=sys.stderr)
    if engine and not args.force:
        print(f"daycare-gui edit: refused, {path} left unchanged: {engine}. Stop the engine first, or add --force "
              "to write it anyway", file=sys.stderr)
        return EXIT_REFUSED
    if engine:
        print(f"daycare-gui edit: warning: {engine}; writing anyway (--force)", file=sys.stderr)
    if warning and not args.force:
        print(f"daycare-gui edit: refused, {path} left unchanged (add --force to write it anyway)", file=sys.stderr)
        return EXIT_REFUSED
    try:
        backup = editor.backup(loaded.data)  # the old text first: a store's file is never rewritten without it
        try:
            save_atomic(path, after, expected_sha256=loaded.sha256, within=folders)
        except BaseException:
            # Nothing was replaced (a conflict, a refusal, a full disk): the file still holds that text or a
            # newer one, so a backup of it would only be a stale copy for the user to wonder about.
            if backup is not None:
                backup.unlink(missing_ok=True)
            raise
    except WriteRefused as exc:
        print(f"daycare-gui edit: refused, {path} left unchanged: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except ConflictError as exc:
        print(f"daycare-gui edit: {exc}; nothing written. Run the command again to edit the new version.", file=sys.stderr)
        return EXIT_CONFLICT
    except (ReadOnlyError, OutsideStoreError) as exc:  # marked read-only, or linked out meanwhile: in a line
        print(f"daycare-gui edit: refused: {exc.strerror}", file=sys.stderr)
        return EXIT_REFUSED
    except OSError as exc:
        # A read-only folder, a full disk, a vanished folder: save_atomic removed its temporary file
        # and the original was never touched, so this is a refusal like any other, not a crash.
        # (the error names the temporary file, which no longer exists; the folder is what the user can fix)
        print(f"daycare-gui edit: refused, {path} left unchanged: it cannot be written in {path.parent}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_REFUSED
    sys.stdout.write(diff)
    if backup is not None:
        print(f"daycare-gui edit: the old text is kept in {backup}", file=sys.stderr)
    return EXIT_OK
