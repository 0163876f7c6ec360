"""Delete a file or folder of the store by moving it aside, so the user can restore it.

A deleted item goes to ``<data dir>/.daycare-gui-trash/<timestamp>/<relative path>`` (the path relative to
the store folder that held it) with a small manifest (``.trash-manifest.json``) naming the original
location. :func:`restore` moves it back, refusing to overwrite anything that appeared there meanwhile.
Only paths inside the store are accepted, never a store folder itself, the database or the trash.

The trash lives in the store, so its manifests are as untrusted as the rest of it: an entry is offered for
restore only when its item lies inside its own entry folder (no ``..``, no symlinked folder on the way, no
link pointing out of the store) and its place is rebuilt from a store folder and the relative path (the
recorded ``original`` only says which store folder; it is never used as given). Other entries are listed by
:func:`scan_trash` as refused, with the reason, and are never moved.

A move is one ``os.rename`` when both places share a file system. Across file systems (a workspace on
another disk) the item is copied, the copy compared with the original (every path, type, size and SHA-256),
and only then is the original removed: the copy is never deleted once the original has started to go, so
a removal that fails part-way leaves a full copy in the trash and says which files remain
(:class:`TrashIncomplete`).

Qt-free.
"""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.edit.atomic import sha256_of_file
from daycare_gui.stores.common.edit.copies import PRIVATE_FOLDER
from daycare_gui.stores.common.wording import count

TRASH_NAME = ".daycare-gui-trash"
MANIFEST_NAME = ".trash-manifest.json"


class TrashError(Exception):
    """Refused or failed; the message is for the person deleting or restoring."""


class TrashIncomplete(TrashError):
    """The item is whole in the trash (``entry``) but part of the original could not be removed:
    ``remaining`` lists what is still there. Nothing was lost; the message says so."""

    def __init__(self, message: str, entry: TrashEntry, remaining: list[Path]) -> None:
        super().__init__(message)
        self.entry = entry
        self.remaining = remaining


@dataclass(frozen=True)
class TrashEntry:
    folder: Path  # <trash>/<timestamp>
    original: Path  # where the item lived: one of ``bases`` joined with the relative path
    stored: Path  # where it is now
    deleted_at: str  # ISO time
    kind: str  # "file" | "folder"
    base: Path | None = None  # the store folder (resolved) the item is restored into
    bases: tuple[Path, ...] = ()  # every folder of the store (resolved): where a restored link may point


@dataclass(frozen=True)
class RefusedEntry:
    """A trash folder not offered for restore: ``reason`` says why (a manifest naming a place outside the
    store, a path leaving its entry folder, a symlink pointing out)."""

    folder: Path
    reason: str


def trash_dir(paths) -> Path:
    return Path(paths.data_dir) / TRASH_NAME


def _store_bases(paths) -> list[Path]:
    bases = [paths.data_dir, paths.root, paths.config_dir, paths.workspace_dir, *paths.users_dirs, *paths.legacy_dirs]
    seen: list[Path] = []
    for base in bases:
        real = Path(os.path.realpath(base))
        if real not in seen:
            seen.append(real)
    return seen


def _protected(paths) -> set[Path]:
    names = [paths.db_path, Path(str(paths.db_path) + "-wal"), Path(str(paths.db_path) + "-shm"), paths.settings_path]
    return {Path(os.path.realpath(p)) for p in names} | set(_store_bases(paths))


def _relative_in_store(paths, real: Path) -> tuple[Path, Path]:
    """The store folder holding ``real`` (the data dir preferred) and ``real`` relative to it."""
    for base in _store_bases(paths):
        if base in real.parents:
            return base, real.relative_to(base)
    raise TrashError(f"{real} is not inside the store; refusing to delete it")


def move_to_trash(paths, target: str | os.PathLike, *, now: _dt.datetime | None = None) -> TrashEntry:
    """Move ``target`` (a file or folder inside the store) into the trash; returns how to restore it."""
    target = Path(target)
    if not target.exists() and not target.is_symlink():
        raise TrashError(f"{target} does not exist")
    real = Path(os.path.realpath(target.parent)) / target.name  # the item itself, even if it is a symlink
    if real in _protected(paths):
        raise TrashError(f"{target} is a part of the store that cannot be deleted here")
    trash = Path(os.path.realpath(trash_dir(paths)))
    if real == trash or trash in real.parents:
        raise TrashError(f"{target} is already in the trash")
    base, relative = _relative_in_store(paths, real)
    if trash_dir(paths).is_symlink():  # the store's items would leave the store through it
        raise TrashError(f"the trash ({trash_dir(paths)}) is a symlink to {trash}; refusing to move {target} there")
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    folder = trash / stamp
    suffix = 0
    while True:
        try:
            # Its owner's only: an item private through its folder (not its own mode) stays private here.
            folder.mkdir(parents=True, mode=PRIVATE_FOLDER)
            break
        except FileExistsError:
            suffix += 1
            folder = trash / f"{stamp}-{suffix}"
    stored = folder / relative
    stored.parent.mkdir(parents=True, exist_ok=True)
    kind = "folder" if real.is_dir() and not real.is_symlink() else "file"
    deleted_at = (now or _dt.datetime.now()).astimezone().isoformat(timespec="seconds")
    manifest = {
        "original": str(real),
        "relative": str(relative),
        "kind": kind,
        "deleted_at": deleted_at,
        "by": "daycare-gui",
    }
    manifest_path = folder / MANIFEST_NAME
    manifest_text = json.dumps(manifest, indent=2) + "\n"
    # The manifest first: if the move fails, an orphan manifest is harmless; a moved item without one is not.
    manifest_path.write_text(manifest_text, encoding="utf-8")
    entry = TrashEntry(folder, real, stored, deleted_at, kind, base, tuple(_store_bases(paths)))
    try:
        os.rename(real, stored)  # atomic: on failure nothing moved, the trash folder holds only the manifest
        return entry
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            _discard(folder)
            raise TrashError(f"cannot move {target} to the trash: {_reason(exc)}; nothing was deleted") from exc
    # Another file system. Until the copy is verified the trash folder holds no manifest: a kill meanwhile
    # leaves an unlisted partial copy beside the untouched original, never a half item offered for restore.
    manifest_path.unlink()
    try:
        _copy_verified(real, stored)
    except (OSError, _Mismatch) as exc:
        _discard(folder)
        raise TrashError(f"cannot copy {target} into the trash ({trash}): {_reason(exc)}; "
                         "nothing was deleted") from exc
    try:
        manifest_path.write_text(manifest_text, encoding="utf-8")
    except OSError as exc:
        _discard(folder)
        raise TrashError(f"cannot write the trash's manifest ({_reason(exc)}); nothing was deleted") from exc
    # From here on the trash copy is the safe one: it is never removed, whatever happens to the original.
    remaining, first_error = _remove_tree(real)
    if remaining:
        shown = ", ".join(str(p) for p in remaining[:10]) + (f" and {len(remaining) - 10} more"
                                                             if len(remaining) > 10 else "")
        raise TrashIncomplete(
            f"{target} was copied whole into the trash ({stored}), but {count(len(remaining), 'item')} could not be "
            f"removed from the original ({first_error}) and remain there: {shown}. Nothing is lost: the full copy "
            "is in the Trash. Remove the rest by hand, or move it away and restore the copy from the Trash.",
            entry, remaining)
    return entry


class _Mismatch(Exception):
    """The copy differs from the original."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        failed = exc.args[0]  # copytree's [(src, dst, why), ...]
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        return f"{failed[0][2]}{more}"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return str(exc)


def _discard(folder: Path) -> None:
    """Remove a trash folder whose item is not needed any more (not moved in, or restored whole). The
    manifest goes first, so whatever cannot be removed is never listed as restorable."""
    try:
        (folder / MANIFEST_NAME).unlink()
    except OSError:
        pass
    _remove_tree(folder, own=True)


def _copy_new(src: Path, dst: Path) -> None:
    """Copy ``src`` (file, symlink or folder, modes and times kept) to ``dst``, which must not exist:
    FileExistsError before anything is created; after that, a failure removes what this copy created."""
    if src.is_symlink():
        os.symlink(os.readlink(src), dst)
        return
    if not src.is_dir():
        with open(src, "rb") as fin, open(dst, "xb") as fout:
            try:
                shutil.copyfileobj(fin, fout)
            except BaseException:
                fout.close()
                dst.unlink()
                raise
        try:
            shutil.copystat(src, dst)
        except BaseException:
            dst.unlink()
            raise
        return
    os.mkdir(dst)
    try:
        shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
    except BaseException:
        _remove_tree(dst, own=True)
        raise


def _copy_verified(src: Path, dst: Path) -> None:
    """:func:`_copy_new`, then the copy compared with the original; _Mismatch (the copy removed) if they
    differ, for example because something wrote into the original meanwhile."""
    _copy_new(src, dst)
    try:
        a, b = _listing(src), _listing(dst)
    except BaseException:
        _remove_tree(dst, own=True)
        raise
    if a != b:
        _remove_tree(dst, own=True)
        differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        raise _Mismatch(f"the copy differs from the original ({', '.join(differ[:5])}); was it changed meanwhile?")


def _listing(root: Path) -> dict[str, tuple]:
    """Every path under ``root`` (``"."`` itself) with its type and, for a file, size and SHA-256; for a
    symlink its target."""

    def one(path: str) -> tuple:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return ("link", os.readlink(path))
        if stat.S_ISDIR(st.st_mode):
            return ("dir",)
        if stat.S_ISREG(st.st_mode):
            return ("file", st.st_size, sha256_of_file(path))
        return ("special", stat.S_IFMT(st.st_mode))

    out = {".": one(os.fspath(root))}
    if out["."] == ("dir",):
        for dirpath, dirs, files in os.walk(root):
            for name in dirs + files:
                path = os.path.join(dirpath, name)
                out[os.path.relpath(path, root)] = one(path)
    return out


def _writable(folder: str | os.PathLike) -> None:
    try:
        os.chmod(folder, stat.S_IMODE(os.lstat(folder).st_mode) | stat.S_IRWXU)
    except OSError:
        pass


def _remove_tree(root: Path, *, own: bool = False) -> tuple[list[Path], str]:
    """Remove ``root`` (file, symlink or folder), going on past failures. Returns the files (and symlinks,
    and folders left empty of them) still there, and the first error. ``own``: a copy this module made,
    whose read-only folders (modes copied from the original) may be made writable to remove it."""
    errors: list[str] = []
    if own and root.is_dir() and not root.is_symlink():
        _writable(root)
        for dirpath, dirs, _files in os.walk(root):
            for name in dirs:
                if not os.path.islink(os.path.join(dirpath, name)):
                    _writable(os.path.join(dirpath, name))

    def remove(fn, path) -> None:
        try:
            fn(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if not errors:
                errors.append(_reason(exc))

    if root.is_symlink() or not root.is_dir():
        remove(os.unlink, root)
    else:
        for dirpath, dirs, files in os.walk(root, topdown=False):
            for name in files:
                remove(os.unlink, os.path.join(dirpath, name))
            for name in dirs:
                path = os.path.join(dirpath, name)
                remove(os.unlink if os.path.islink(path) else os.rmdir, path)
        remove(os.rmdir, root)
    if not (root.exists() or root.is_symlink()):
        return [], ""
    if root.is_symlink() or not root.is_dir():
        return [root], errors[0] if errors else "it is still there"
    remaining = []
    for dirpath, dirs, files in os.walk(root):
        remaining += [Path(dirpath, n) for n in files]
        remaining += [Path(dirpath, n) for n in dirs if os.path.islink(os.path.join(dirpath, n))]
    return sorted(remaining) or [root], errors[0] if errors else "it is still there"


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _real_inside(path: Path, folders) -> bool:
    real = Path(os.path.realpath(path))
    return any(_inside(real, f) for f in folders)


def _safe_relative(value) -> Path | None:
    """The manifest's ``relative`` as a path that stays below the folder it is joined to, else None."""
    if not isinstance(value, str) or not value or "\0" in value:
        return None
    relative = Path(value)
    if relative.is_absolute() or not relative.parts or any(part in ("..", ".") for part in relative.parts):
        return None
    return relative


def _item_problem(folder: Path, relative: Path, target: Path, bases: tuple[Path, ...]) -> str | None:
    """Why the item ``folder/relative`` must not be moved back to ``target``, or None. Asked when the
    trash is listed and again just before the move (the store may have changed meanwhile)."""
    if folder.is_symlink():
        return f"the entry folder is a symlink (to {os.path.realpath(folder)}), not a folder of the trash"
    at = folder
    for part in relative.parts[:-1]:  # every folder between the entry folder and the item: real folders
        at = at / part
        if at.is_symlink():
            return f"{at} is a symlink (to {os.path.realpath(at)}), so the item is not in the trash"
    stored = folder / relative
    if stored.is_symlink():  # the link itself goes back; where it would then point must be in the store
        pointed = Path(os.path.realpath(target.parent / os.readlink(stored)))
        if not any(_inside(pointed, b) for b in bases):
            return f"the item is a symlink to {pointed}, outside the store"
    # The place it goes back to: its nearest existing folder must lie (links resolved) in the store.
    existing = target.parent
    while not (existing.exists() or existing.is_symlink()) and existing != existing.parent:
        existing = existing.parent
    if not _real_inside(existing, bases):
        return f"{existing} leads to {os.path.realpath(existing)}, outside the store"
    return None


def _entry(folder: Path, paths) -> TrashEntry | RefusedEntry | None:
    """The entry of trash folder ``folder``, refused with a reason when it would restore outside its
    entry folder or the store; None when it holds no manifest (a move that did not finish)."""
    manifest_path = folder / MANIFEST_NAME
    if not (manifest_path.exists() or manifest_path.is_symlink()):
        return None
    if manifest_path.is_symlink() or not manifest_path.is_file():
        return RefusedEntry(folder, f"its {MANIFEST_NAME} is not a plain file")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return RefusedEntry(folder, f"its {MANIFEST_NAME} cannot be read: {exc}")
    if not isinstance(manifest, dict):
        return RefusedEntry(folder, f"its {MANIFEST_NAME} is not a JSON object")
    relative = _safe_relative(manifest.get("relative"))
    if relative is None:
        return RefusedEntry(folder, f"its relative path {manifest.get('relative')!r} leaves the entry folder")
    bases = tuple(_store_bases(paths))
    original = manifest.get("original")
    recorded = Path(os.path.normpath(original)) if isinstance(original, str) and original else None
    # Rebuilt from a store folder and the relative path; the recorded place only chooses the folder.
    base = next((b for b in bases if recorded == b / relative), None)
    if base is None:
        return RefusedEntry(folder, f"its recorded place {original!r} is not {relative} inside a folder of the store")
    target = base / relative
    trash = Path(os.path.realpath(trash_dir(paths)))
    if target in _protected(paths) or _inside(target, trash):
        return RefusedEntry(folder, f"{target} is a part of the store that is not restored from the trash")
    problem = _item_problem(folder, relative, target, bases)
    if problem:
        return RefusedEntry(folder, problem)
    return TrashEntry(folder, target, folder / relative, str(manifest.get("deleted_at", "")),
                      "folder" if manifest.get("kind") == "folder" else "file", base, bases)


def scan_trash(paths) -> tuple[list[TrashEntry], list[RefusedEntry]]:
    """Restorable entries, newest first, and the entries refused (never restored), each with its reason."""
    trash = trash_dir(paths)
    if trash.is_symlink():
        return [], [RefusedEntry(trash, f"the trash is a symlink to {os.path.realpath(trash)}, outside the store")]
    if not trash.is_dir():
        return [], []
    entries: list[TrashEntry] = []
    refused: list[RefusedEntry] = []
    for folder in sorted(trash.iterdir(), reverse=True):
        if folder.is_symlink():
            refused.append(RefusedEntry(folder, f"it is a symlink (to {os.path.realpath(folder)}), "
                                                "not a folder of the trash"))
            continue
        if not folder.is_dir():
            continue
        entry = _entry(folder, paths)
        if isinstance(entry, RefusedEntry):
            refused.append(entry)
        elif entry is not None and (entry.stored.exists() or entry.stored.is_symlink()):
            entries.append(entry)
    return entries, refused


def list_trash(paths) -> list[TrashEntry]:
    """Restorable entries, newest first (:func:`scan_trash` also says which were refused, and why)."""
    return scan_trash(paths)[0]


def restore(entry: TrashEntry) -> Path:
    """Move the item back where it was; refuses if something exists there now. Returns the restored path.
    Every failure is a TrashError that says where the item is (still in the trash, unless it was restored)."""
    if not (entry.stored.exists() or entry.stored.is_symlink()):
        raise TrashError(f"{entry.stored} is no longer in the trash")
    try:
        relative = entry.stored.relative_to(entry.folder)
    except ValueError:
        relative = None
    problem = ("the item is not inside its trash folder" if relative is None or _safe_relative(str(relative)) is None
               or entry.base is None or entry.original != entry.base / relative
               else _item_problem(entry.folder, relative, entry.original, entry.bases))
    if problem:
        raise TrashError(f"{entry.original} was not restored: {problem}")
    if entry.original.exists() or entry.original.is_symlink():
        raise TrashError(f"{entry.original} exists again; move it away first, nothing was restored")
    kept = f"; it is still in the trash ({entry.stored})"
    try:
        entry.original.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TrashError(f"cannot restore {entry.original}: cannot create its folder ({_reason(exc)}){kept}") from exc
    try:
        os.rename(entry.stored, entry.original)
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise TrashError(f"cannot restore {entry.original}: {_reason(exc)}{kept}") from exc
        try:
            _copy_verified(entry.stored, entry.original)  # another file system: copy, compare, then drop
        except FileExistsError as exc:
            raise TrashError(f"{entry.original} exists again; move it away first, nothing was restored") from exc
        except (OSError, _Mismatch) as exc:
            raise TrashError(f"cannot restore {entry.original}: {_reason(exc)}{kept}") from exc
    _discard(entry.folder)  # the manifest first: a trash copy that cannot all be removed is no longer listed
    return entry.original
