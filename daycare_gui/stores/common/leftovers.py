"""Leftovers of interrupted writes: found, reported as problems, and removed once their writer is gone.

This is the catalogue of this application's own working files (every kind's writers make them), so it
names the writers that leave each; ``report_and_clean`` is what a kind calls when it opens.

Every writer in this project works on a copy beside its target and swaps it in at the end. A kill
(SIGKILL, power loss) between the two leaves that copy behind for ever: an upgrade's working database,
an atomic save's temporary file, a PGlite working copy or private read copy. Their names carry the
writer's pid, so the next run of the same operation can remove those whose process is gone and must
leave alone those of a process still running (it may be writing right now, in another window).

Names recognised (``<pid>`` is the writer's process id):

* ``.<db>.upgrade-<pid>-<ms>`` and its ``-wal``/``-shm``/``-journal`` (core.migrations.upgrade), and
  ``.<db>.prune-<pid>-<ms>`` the same way (stores.cianaparrot.prune; the next prune removes it)
* ``.<name>.<pid>-<random>.tmp`` (core.edit.atomic); the older ``.<name>.<random>.tmp`` carries no
  pid: it is reported when ``<name>`` is beside it, never removed automatically
* ``.daycare-gui-edit-<pid>-<ms>.<suffix>`` PGlite working copies (stores.daycare.pg.writes)
* ``<tmp>/daycare-gui-pglite-<pid>-*`` private read copies (stores.daycare.pg.pglite_copy; a small one in a
  RAM folder of this user's instead, stores.common.ram_folders: looked for there too)
* ``<tmp>/daycare-gui-<kind>-<pid>-*`` private snapshot copies of a SQLite database (Daycare's, AgentStack's,
  CianaParrot's) and AgentStack's FTS check folder
* the private folders (these two kinds) are named ``<prefix><pid>-t<start>-*`` and locked by their owner
  (stores.common.private_copies); :func:`sweep_private_copies` removes those of gone processes at every start
* ``.daycare-gui-backup-<ms>-<name>`` PGlite backups beyond the newest ``BACKUPS_KEPT`` (no pid: they are
  finished backups, old ones are removed by the next PGlite edit)

In the cache folder, search indexes of stores that are gone are this application's leftovers too: each build
of the shared index removes them (stores.common.index_prune; Daycare's former per-database index the same way).
``daycare-gui prune PATH --leftovers`` and the Storage page list all of these with their bytes, then remove
them, with backups beyond the newest of each file (stores.common.own_leftovers).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common import private_copies
from daycare_gui.stores.common.processes import process_exists
from daycare_gui.stores.common.wording import byte_size

UPGRADE = "upgrade working copy"
PRUNE = "prune working copy"
SAVE = "temporary file of a save"
PGLITE_EDIT = "PGlite working copy"
PGLITE_READ = "private PGlite read copy"
PGLITE_BACKUP = "PGlite backup beyond the kept ones"
SNAPSHOT = "private snapshot copy"

# Prefixes of the temporary folders other kinds read through (the pid follows the prefix).
SNAPSHOT_PREFIXES = ("daycare-gui-snapshot-", "daycare-gui-agentstack-", "daycare-gui-cianaparrot-",
                     "daycare-gui-fts-check-", "daycare-gui-demo-")  # (the last: the window's demo stores)
PGLITE_READ_PREFIX = "daycare-gui-pglite-"

_UPGRADE_RE = re.compile(r"^\.(?P<target>.+)\.upgrade-(?P<pid>\d+)-\d+(?:-wal|-shm|-journal)?$")
_PRUNE_RE = re.compile(r"^\.(?P<target>.+)\.prune-(?P<pid>\d+)-\d+(?:-wal|-shm|-journal)?$")
_SAVE_RE = re.compile(r"^\.(?P<target>.+)\.(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")
_OLD_SAVE_RE = re.compile(r"^\.(?P<target>.+)\.[A-Za-z0-9_]{8}\.tmp$")  # tempfile.mkstemp's 8 random chars
_PGLITE_EDIT_RE = re.compile(r"^\.daycare-gui-edit-(?P<pid>\d+)-\d+(?:\..*)?$")
# <pid>-t<start>-XXXXXXXX, or <pid>-XXXXXXXX as made before the start time was added (mkdtemp's part has no '-')
_OWNER = r"(?P<pid>\d+)-(?:t(?P<start>\d+)-)?[^-]*$"
_PGLITE_READ_RE = re.compile(r"^" + re.escape(PGLITE_READ_PREFIX) + _OWNER)
_SNAPSHOT_RE = re.compile(r"^(?:" + "|".join(re.escape(p) for p in SNAPSHOT_PREFIXES) + r")" + _OWNER)
_PGLITE_BACKUP_RE = re.compile(r"^\.daycare-gui-backup-(?P<ms>\d+)-(?P<target>.+)$")

# Folders never descended into when looking for leftovers across a store: data folders of a database
# engine and package trees hold many files and never leftovers of ours.
_SKIP_DIRS = {"node_modules", ".git"}
_MAX_ENTRIES = 200_000  # a walk of a store stops here rather than take minutes


def snapshot_prefix(prefix: str) -> str:
    """``tempfile.mkdtemp``'s prefix for a private folder: the pid and start time make it attributable."""
    assert prefix in SNAPSHOT_PREFIXES or prefix == PGLITE_READ_PREFIX, prefix
    return f"{prefix}{private_copies.owner_tag()}-"


def private_folder(prefix: str, where: Path | None = None) -> private_copies.PrivateFolder:
    """A new private folder for a copy (``prefix``: one of ours), locked as this process's until removed; in
    the temporary folder, or in ``where`` (one of :func:`ram_folders.folders`, which the sweep looks in)."""
    return private_copies.PrivateFolder(snapshot_prefix(prefix), where)


def save_temp_prefix(target_name: str) -> str:
    """The prefix ``save_atomic`` gives ``tempfile.mkstemp``: the pid makes the file attributable."""
    return f".{target_name}.{os.getpid()}-"


@dataclass(frozen=True)
class Leftover:
    path: Path
    what: str
    size: int
    pid: int | None  # None: the name carries no pid (old save temp files, backups)
    alive: bool | None
    start: int | None = None  # a private folder's owner's start time, from its name

    @property
    def removable(self) -> bool:
        """Safe to delete: its writer is gone (or, for an old backup, it is surplus by the keep rule)."""
        if self.what == PGLITE_BACKUP:
            return True
        return self.pid is not None and self.alive is False

    def message(self, *, removed: bool = False) -> str:
        size = byte_size(self.size)
        if self.pid is None:
            owner = "no process id in its name"
        elif self.alive:
            owner = f"written by process {self.pid}, which is still running"
        else:
            owner = f"written by process {self.pid}, which is gone"
        if removed:
            fate = "removed"
        elif self.what == PGLITE_BACKUP:
            fate = "the next PGlite edit removes it"
        elif self.removable:
            fate = f"the next {_NEXT_RUN[self.what]} removes it"
        elif self.pid is None:
            fate = "remove it by hand once no save is running"
        else:
            fate = "left alone while that process runs"
        return f"leftover {self.what} ({size}), {owner}: {fate}"


_NEXT_RUN = {UPGRADE: "upgrade", PRUNE: "prune", SAVE: "save in this folder", PGLITE_EDIT: "PGlite edit",
             PGLITE_READ: "start of daycare-gui", SNAPSHOT: "start of daycare-gui"}


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists. Unsure answers count as alive: nothing of a live writer
    may be removed."""
    return process_exists(pid) is not False


def size_on_disk(path: Path) -> int:
    """A file's bytes, or a folder's files' bytes summed (links counted as links, never followed); 0 when
    it is gone or unreadable."""
    try:
        if path.is_symlink() or not path.is_dir():
            return path.lstat().st_size
        return folder_bytes(path)
    except OSError:
        return 0


def folder_bytes(folder, most: int | None = None) -> int:
    """The bytes of the files in ``folder`` (as listed: links counted as links, never followed), or ``most + 1``
    as soon as they pass ``most``: a large folder need not be walked to tell that it is large. Never raises."""
    total = 0
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
            if most is not None and total > most:
                return most + 1
    return total


def _make(path: Path, what: str, pid: int | None) -> Leftover:
    return Leftover(path, what, size_on_disk(path), pid, None if pid is None else pid_alive(pid))


def _names(folder: Path) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def in_folder(folder: str | os.PathLike, *, backups_kept: int = 3) -> list[Leftover]:
    """The leftovers directly inside ``folder`` (upgrade copies, save temp files, PGlite copies, surplus
    PGlite backups). Never raises: an unreadable folder has none we can see."""
    folder = Path(folder)
    names = _names(folder)
    present = set(names)
    found: list[Leftover] = []
    backups: dict[str, list[str]] = {}
    for name in names:
        path = folder / name
        if m := _UPGRADE_RE.match(name):
            found.append(_make(path, UPGRADE, int(m["pid"])))
        elif m := _PRUNE_RE.match(name):
            found.append(_make(path, PRUNE, int(m["pid"])))
        elif m := _SAVE_RE.match(name):
            found.append(_make(path, SAVE, int(m["pid"])))
        elif (m := _OLD_SAVE_RE.match(name)) and m["target"] in present:
            found.append(_make(path, SAVE, None))
        elif m := _PGLITE_EDIT_RE.match(name):
            found.append(_make(path, PGLITE_EDIT, int(m["pid"])))
        elif m := _PGLITE_BACKUP_RE.match(name):
            backups.setdefault(m["target"], []).append(name)
    for group in backups.values():
        group.sort(key=lambda n: int(_PGLITE_BACKUP_RE.match(n)["ms"]))
        found.extend(_make(folder / n, PGLITE_BACKUP, None) for n in group[:-backups_kept] if backups_kept >= 0)
    return found


def _private_folders(tmp_dir, pattern: re.Pattern) -> list[tuple[Path, int, int | None]]:
    """(path, pid, start) of the folders of ours whose name matches ``pattern``, in ``tmp_dir`` or, when it is
    None, in the temporary folder and the RAM folders a small copy may go to (stores.common.ram_folders: a
    crash must not leave a copy there for ever): real folders of this user, never a symbolic link or
    another user's."""
    if tmp_dir is not None:
        places = [Path(tmp_dir)]
    else:
        import tempfile

        from daycare_gui.stores.common import ram_folders

        places = list({os.path.realpath(p): Path(p) for p in (tempfile.gettempdir(), *ram_folders.folders())}.values())
    found = []
    for folder in places:
        for name in _names(folder):
            if (m := pattern.match(name)) and private_copies.is_ours(folder / name):
                found.append((folder / name, int(m["pid"]), int(m["start"]) if m["start"] else None))
    return found


def _private(tmp_dir, pattern: re.Pattern, what: str, gone_only: bool) -> list[Leftover]:
    found = []
    for path, pid, start in _private_folders(tmp_dir, pattern):
        alive = private_copies.owner_alive(path, pid, start)
        if not (gone_only and alive):  # (a live one's size is not walked for nothing: ~1,100 files)
            found.append(Leftover(path, what, size_on_disk(path), pid, alive, start))
    return found


def read_copies(tmp_dir: str | os.PathLike | None = None, *, gone_only: bool = False) -> list[Leftover]:
    """Private PGlite read copies in the temporary folder and the RAM folders (every app instance shares
    them); ``gone_only``: not those whose owner is known to run."""
    return _private(tmp_dir, _PGLITE_READ_RE, PGLITE_READ, gone_only)


def snapshot_copies(tmp_dir: str | os.PathLike | None = None, *, gone_only: bool = False) -> list[Leftover]:
    """Private snapshot folders of SQLite databases (Daycare's, AgentStack's, CianaParrot's) in the
    temporary folder; ``gone_only``: not those whose owner is known to run."""
    return _private(tmp_dir, _SNAPSHOT_RE, SNAPSHOT, gone_only)


def sweep_private_copies(tmp_dir: str | os.PathLike | None = None) -> list[Path]:
    """Remove the private copies of every kind whose process is gone; run at every start, whatever is
    opened, so a killed instance's copy of a user's data does not wait for the next opening of its kind.
    Those of processes still running are theirs and stay. Never raises; returns what it removed."""
    removed = []
    for pattern in (_PGLITE_READ_RE, _SNAPSHOT_RE):
        for path, pid, start in _private_folders(tmp_dir, pattern):
            if private_copies.remove_if_abandoned(path, pid, start):
                removed.append(path)
    from daycare_gui.stores.common.kept import prune_kept

    prune_kept()  # what repeated commands kept of stores that are gone (not copies: not in what is returned)
    return removed


def in_tree(root: str | os.PathLike) -> list[Leftover]:
    """Leftovers anywhere under ``root`` (bounded walk; engine data folders skipped)."""
    root = Path(root)
    if not root.is_dir():
        return []
    found: list[Leftover] = []
    seen = 0
    for dirpath, dirs, names in os.walk(root):
        seen += len(dirs) + len(names)
        folder = Path(dirpath)
        here = in_folder(folder)
        found.extend(here)
        taken = {lo.path.name for lo in here}
        # Never descend into leftovers themselves, PGlite data folders or package trees.
        dirs[:] = [d for d in dirs if d not in taken and d not in _SKIP_DIRS
                   and not (folder / d / "PG_VERSION").exists()]
        if seen > _MAX_ENTRIES:
            break
    return found


def remove(leftover: Leftover) -> bool:
    """Delete a removable leftover; re-checks the pid just before. Returns whether it is gone."""
    if not leftover.removable:
        return False
    if leftover.pid is not None and leftover.what in (PGLITE_READ, SNAPSHOT):
        return private_copies.remove_if_abandoned(leftover.path, leftover.pid, leftover.start)
    if leftover.pid is not None and pid_alive(leftover.pid):
        return False
    path = leftover.path
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


def clean(leftovers, *, only: tuple[str, ...] | None = None) -> list[Leftover]:
    """Remove the removable ones (of the kinds in ``only``); returns those removed."""
    return [lo for lo in leftovers if (only is None or lo.what in only) and remove(lo)]


def report(problems, leftovers, removed=()) -> None:
    """Add one warning per leftover to a ProblemLog (those in ``removed`` say so)."""
    gone = {lo.path for lo in removed}
    for lo in leftovers:
        problems.add(lo.path, lo.message(removed=lo.path in gone), severity="warning")


def report_and_clean(problems, folders: Iterable[Path | None], *, snapshots: bool = False) -> list[Leftover]:
    """Report the leftovers directly inside ``folders`` (each once) and, with ``snapshots``, remove the
    private snapshot copies whose process is gone. Never raises; returns what it found."""
    found: list[Leftover] = []
    seen: set[Path] = set()
    for folder in folders:
        if folder is None:
            continue
        folder = Path(folder)
        if folder in seen or not folder.is_dir():
            continue
        seen.add(folder)
        found += in_folder(folder)
    removed: list[Leftover] = []
    if snapshots:  # only those of processes that are gone: a live one is being read right now
        removed = clean(copies := [c for c in snapshot_copies(gone_only=True) if c.alive is False])
        found += copies
    report(problems, found, removed)
    return found
