"""Edits to today's Daycare store, made as Daycare makes them: a versioned row is closed
(``valid_to = now``) and version + 1 inserted, in one short transaction, after checking that the version
edited is still the current one.

On a PostgreSQL server the transaction runs there. A PGlite folder is never written in place: a working
copy beside it is edited through PGlite, read back, and only then swapped in (the original kept as a
backup), so a failure or a kill leaves the folder as it was. PGlite takes no lock, so just before the swap
the engine is looked for again and the folder compared with the fingerprint taken before the copy: a
change meanwhile (an engine that started, a second writer) stops the edit, the folder left as that writer
left it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import time
from pathlib import Path

from daycare_gui.stores.api import WriteConflict, WriteRefused
from daycare_gui.stores.common.edit.atomic import sha256_of_file
from daycare_gui.stores.common.fs_swap import exchange
from daycare_gui.stores.common.schedule import schedule_info

BACKUPS_KEPT = 3
WORK_PREFIX = ".daycare-gui-edit-"  # <parent>/.daycare-gui-edit-<pid>-<ms>.pglite
BACKUP_PREFIX = ".daycare-gui-backup-"  # <parent>/.daycare-gui-backup-<ms>-<name>


def _now() -> int:
    return int(time.time() * 1000)


def _bump(conn, table: str, where: str, params: dict, changes: dict, now: int) -> None:
    """Close the current row of ``table`` matching ``where`` and insert the next version with ``changes``."""
    from sqlalchemy import text

    row = conn.execute(text(f'SELECT * FROM "{table}" WHERE {where} AND valid_to IS NULL FOR UPDATE'),
                       params).mappings().first()
    if row is None:
        raise WriteConflict(f"the {table} row was removed since it was read")
    new = dict(row)
    new.update(changes)
    new["version"] = int(row["version"]) + 1
    new["valid_from"] = now
    new["valid_to"] = None
    if "updated_at" in new:
        new["updated_at"] = now
    conn.execute(text(f'UPDATE "{table}" SET valid_to = :now WHERE {where} AND valid_to IS NULL'), {**params, "now": now})
    cols = list(new)
    placeholders = ", ".join(f":c{i}" for i in range(len(cols)))
    values = {f"c{i}": _bindable(new[c]) for i, c in enumerate(cols)}
    conn.execute(text(f'INSERT INTO "{table}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) '
                      f"VALUES ({placeholders})"), values)


def _bindable(value):
    from psycopg.types.json import Jsonb

    return Jsonb(value) if isinstance(value, (dict, list)) else value


def _cron_changes(task, changes: dict) -> tuple[dict, dict]:
    cron, doc = {}, {}
    if "schedule" in changes:
        info = schedule_info(str(changes["schedule"]))
        if not info.valid:
            raise WriteRefused(f"schedule {changes['schedule']!r} is not valid: {info.error}")
        cron["schedule"] = info.expr
    if "timezone" in changes:
        from zoneinfo import ZoneInfo

        tz = str(changes["timezone"]).strip()
        try:
            if tz:
                ZoneInfo(tz)
        except Exception:
            raise WriteRefused(f"{tz!r} is not a timezone name (for example Europe/Berlin)") from None
        cron["timezone"] = tz or "UTC"  # the column is NOT NULL, UTC by default
    if "enabled" in changes:
        cron["enabled"] = bool(changes["enabled"])
    if "title" in changes:
        doc["title"] = str(changes["title"])
    if "body" in changes:
        doc["code"] = str(changes["body"])
    return cron, doc


def update_cron_task(store, task, changes: dict, *, force: bool = False) -> None:
    cron, task_row = _cron_changes(task, changes)
    read_version = (task.raw or {}).get("version")
    user_id, task_id = (task.raw or {}).get("user_id"), (task.raw or {}).get("task_id")
    read_task_version = (task.raw or {}).get("t_version")

    def edit(conn, now):
        from sqlalchemy import text

        current = conn.execute(text("SELECT version FROM tasks_cron WHERE id = :i AND valid_to IS NULL"),
                               {"i": task.id}).scalar()
        if current != read_version:
            raise WriteConflict(f"cron task {task.id} changed since it was read (version {read_version} → {current})")
        if cron:
            _bump(conn, "tasks_cron", "id = :i", {"i": task.id}, cron, now)
        if task_row:
            now_version = conn.execute(text("SELECT version FROM tasks WHERE id = :i AND user_id = :u AND "
                                            "valid_to IS NULL"), {"i": task_id, "u": user_id}).scalar()
            if now_version != read_task_version:
                raise WriteConflict(f"task {task_id} changed since it was read")
            _bump(conn, "tasks", "id = :i AND user_id = :u", {"i": task_id, "u": user_id}, task_row, now)

    write(store, edit, force=force)


def update_document(store, ref, body: str, expected_sha256: str | None, *, force: bool = False) -> None:
    _new_document_version(store, ref, {"body": body}, expected_sha256, force=force)


def _new_document_version(store, ref, values: dict, expected_sha256: str | None, *, force: bool) -> None:
    """A new version of a ``documents`` row with ``values`` changed, refused when its body is no longer the
    one read (``expected_sha256``)."""
    user_id, _, doc_id = ref.id.partition("/")

    def edit(conn, now):
        from sqlalchemy import text

        current = conn.execute(text("SELECT body FROM documents WHERE user_id = :u AND id = :i AND valid_to IS NULL"),
                               {"u": user_id, "i": doc_id}).scalar()
        if expected_sha256 is not None and hashlib.sha256((current or "").encode()).hexdigest() != expected_sha256:
            raise WriteConflict(f"document {ref.title} changed since it was read")
        _bump(conn, "documents", "user_id = :u AND id = :i", {"u": user_id, "i": doc_id}, values, now)

    write(store, edit, force=force)


DOCUMENT_FIELDS = ("title", "description")  # what the shared form edits of a ``documents`` row besides its body


def _one_line(value, what: str, *, empty_ok: bool) -> str:
    text = str(value if value is not None else "").strip()
    if "\n" in text or "\r" in text or (not text and not empty_ok):
        raise WriteRefused(f"a document's {what} must be one {'' if empty_ok else 'non-empty '}line")
    return text


def update_document_fields(store, ref, changes: dict, expected_sha256: str | None, *, force: bool = False) -> None:
    """A ``documents`` row's title or description (a memory renamed), as Daycare edits a versioned row."""
    unknown = set(changes) - set(DOCUMENT_FIELDS)
    if unknown:
        raise WriteRefused(f"{ref.title} has no field {sorted(unknown)[0]!r}")
    values = {k: _one_line(v, k, empty_ok=k == "description") for k, v in changes.items()}
    _new_document_version(store, ref, values, expected_sha256, force=force)


def _new_id() -> str:
    """An id shaped like Daycare's own (24 characters, lower-case letters and digits, a letter first)."""
    import secrets
    import string

    alphabet = string.ascii_lowercase + string.digits
    return secrets.choice(string.ascii_lowercase) + "".join(secrets.choice(alphabet) for _ in range(23))


def create_document(store, user_id: str, slug: str, title: str, description: str, body: str, *,
                    force: bool = False) -> str:
    """A new ``documents`` row (version 1) of ``user_id``, never over a current one with the same slug;
    returns its id."""
    title = _one_line(title, "title", empty_ok=False)
    description = _one_line(description, "description", empty_ok=True)
    doc_id = _new_id()

    def edit(conn, now):
        from sqlalchemy import text

        taken = conn.execute(text("SELECT count(*) FROM documents WHERE user_id = :u AND slug = :s "
                                  "AND valid_to IS NULL"), {"u": user_id, "s": slug}).scalar()
        if taken:
            raise WriteRefused(f"{slug} exists already")
        conn.execute(text("INSERT INTO documents (id, user_id, version, valid_from, valid_to, slug, title, "
                          "description, body, created_at, updated_at) VALUES (:i, :u, 1, :now, NULL, :s, :t, :d, "
                          ":b, :now, :now)"),
                     {"i": doc_id, "u": user_id, "now": now, "s": slug, "t": title, "d": description, "b": body})

    write(store, edit, force=force)
    return doc_id


def write(store, edit, *, force: bool = False) -> None:
    """Run ``edit(conn, now)`` in one transaction on the store's server, or on a PGlite working copy."""
    store.refresh_engine()  # the engine may have started since the store was opened
    blocked = store.writes_blocked()
    if blocked and not force:
        raise WriteRefused(blocked)
    if store.migrations().unknown:
        raise WriteRefused("a newer Daycare wrote this store (unknown migrations); it is never written")
    if store.generation == "postgres":
        _transaction(store.db.url, edit)
        return
    _write_pglite(store, edit, force=force)


def _transaction(url: str, edit) -> None:
    from sqlalchemy import text
    from sqlalchemy.pool import NullPool

    from daycare_gui.stores.daycare.pg.database import make_engine, masked

    engine = make_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL lock_timeout = '3s'"))
            conn.execute(text("SET LOCAL statement_timeout = '15s'"))
            edit(conn, _now())
    except (WriteConflict, WriteRefused):
        raise
    except Exception as exc:
        raise WriteRefused(f"the database refused the change: {masked(exc)}") from None
    finally:
        engine.dispose()


def _write_pglite(store, edit, *, force: bool = False) -> None:
    from daycare_gui.stores.common import leftovers
    from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite, keep_access
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    original = Path(store.paths.pglite_path)
    # Working copies of edits that were killed (their process is gone) would stay for ever otherwise.
    leftovers.clean(leftovers.in_folder(original.parent), only=(leftovers.PGLITE_EDIT,))
    work = original.parent / f"{WORK_PREFIX}{os.getpid()}-{_now()}{original.suffix}"
    backup = original.parent / f"{BACKUP_PREFIX}{_now()}-{original.name}"
    runtime = ensure_runtime()
    try:
        racy_since = time.time_ns() - RACY_NS
        before = fingerprint(original, racy_since)  # before the copy: a later change is one the copy may lack
        skipped: list[tuple[str, str]] = []
        copy_pglite(original, work, skipped=skipped, whole=True)  # swapped in: every file it had
        if skipped:  # swapped in, the edited copy would lose what the copy left out
            rel, why = skipped[0]
            raise WriteRefused(f"{original} holds {rel}, {why.removesuffix('; not copied')}; an edit would "
                               "lose it, so nothing was written")
        server = PgliteServer(work, runtime, copy=False)
        try:
            _transaction(server.url, edit)
        finally:
            server.close()
        keep_access(original, work)  # what PGlite created or replaced no more open than the store was
        _verify(work, runtime)
        _still_as_copied(store, original, before, racy_since, force)
        swap_in(work, original, backup)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    _prune_backups(original)
    store.reload()


RACY_NS = 3_000_000_000  # files written this recently are hashed too: a write in the same clock tick keeps mtime


def fingerprint(folder: Path, racy_since: int) -> dict[str, tuple]:
    """Every path under ``folder`` with its kind, size, mtime_ns and inode (and the folder's own identity);
    a file modified at or after ``racy_since`` (ns; a few seconds before the first fingerprint, and the
    same value for the one compared with it) also with its SHA-256. Two fingerprints are equal only if
    nothing was written, added, removed or replaced in between."""
    top = os.stat(folder)
    out: dict[str, tuple] = {".": ("dir", top.st_dev, top.st_ino, top.st_mtime_ns)}
    for dirpath, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = os.path.join(dirpath, name)
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                continue
            key = os.path.relpath(path, folder)
            if stat.S_ISREG(st.st_mode):
                entry = ("file", st.st_size, st.st_mtime_ns, st.st_ino)
                if st.st_mtime_ns >= racy_since:
                    entry += (_sha256(path),)
                out[key] = entry
            else:
                out[key] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def _sha256(path: str) -> str | None:
    try:
        return sha256_of_file(path)
    except OSError:  # gone or unreadable: its stat entry still tells a change
        return None


def _still_as_copied(store, original: Path, before: dict[str, tuple], racy_since: int, force: bool) -> None:
    """Just before the swap: the engine has not started (unless the user insisted on writing while it
    runs) and ``original`` is unchanged since ``before``; else refuse, the folder left untouched."""
    store.refresh_engine()
    blocked = store.writes_blocked()
    if blocked and not force:
        raise WriteRefused(f"{blocked}. It started while the edit was being made; nothing was written and "
                           f"{original} is as the engine left it")
    after = fingerprint(original, racy_since)
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k) and k != ".")
        shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
        shown = shown or "the folder itself"
        raise WriteConflict(f"{original} was changed by another program while the edit was being made "
                            f"({shown}); nothing was written and the store is as that program left it. "
                            "Make sure Daycare's engine is stopped, then try again")


def swap_in(work: Path, original: Path, backup: Path) -> None:
    """Put the verified ``work`` folder at ``original``'s path, the old folder becoming ``backup``.

    Where the system can, one atomic exchange: a kill at any moment leaves the old or the new store at its
    path (after the exchange and before the rename below, the old store waits under the working copy's
    name: reported as a leftover, the store itself already new). Elsewhere two renames, with a moment in
    which no store folder exists; a failure of the second puts the old one back."""
    if exchange(work, original):
        try:
            os.replace(work, backup)
        except OSError:
            pass  # the store is new; the old copy stays under the working copy's name (a leftover)
        return
    os.replace(original, backup)  # same folder, same file system: both renames are atomic
    try:
        os.replace(work, original)
    except OSError:
        os.replace(backup, original)
        raise


def _verify(folder: Path, runtime) -> None:
    """The edited copy opens and answers (a copy of it: the verified folder itself is not touched again)."""
    from daycare_gui.stores.daycare.pg.database import PgDatabase
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer

    server = PgliteServer(folder, runtime)
    try:
        db = PgDatabase(server.url)
        try:
            db.scalar("SELECT count(*) FROM _migrations")
        finally:
            db.close()
    finally:
        server.close()


def _prune_backups(original: Path) -> None:
    backups = sorted(original.parent.glob(f"{BACKUP_PREFIX}*-{original.name}"))
    for old in backups[:-BACKUPS_KEPT]:
        shutil.rmtree(old, ignore_errors=True)
