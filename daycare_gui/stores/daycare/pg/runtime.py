"""PGlite under Node.js: find ``node`` and a PGlite we trust, install the pinned release on first use.

A native PostgreSQL cannot read a PGlite folder (a 32-bit WebAssembly build's data directory); only PGlite
can, and PGlite writes into the folder it opens. So the application copies the folder and serves the copy
with a small Node sidecar (``sidecar.mjs`` beside this module: PGlite behind its own PostgreSQL wire
server on a unix socket; it needs no package but PGlite).

Which PGlite. A store is untrusted input, so code is never taken from a store's folder or its parents
(a ``node_modules`` planted beside a store would otherwise run as soon as the store is opened, even by
``inspect``). PGlite comes from, in this order:

* ``DAYCARE_GUI_DAYCARE_MODULES``, a ``node_modules`` folder the user names explicitly (say, the Daycare
  install that wrote the store): used as it is, if its PGlite is of the 0.3 line. The user chose it.
* the ``daycare`` program on PATH: its package's own ``node_modules``, only if that PGlite is the pinned
  release file for file (``PACKAGE_TREE_SHA256``), which saves installing it.
* the cache folder (``DAYCARE_GUI_PGLITE_DIR``, else the user's cache folder): the pinned release,
  installed once from the committed lockfile in ``pglite_pin/`` with ``npm ci --ignore-scripts`` (npm checks
  the tarball's sha512 against the lockfile; no install script runs) and checked file for file against
  ``PACKAGE_TREE_SHA256`` after the install and again before every use. A cache that does not match is
  not used; the pinned release is installed again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.api import CannotOpen

PGLITE_VERSION = "0.3.15"  # what Daycare 7c3c466c writes with; 0.4 opens another database, 0.5 is PG 18
SIDECAR = Path(__file__).resolve().with_name("sidecar.mjs")  # shipped as package data
PIN = Path(__file__).resolve().with_name("pglite_pin")  # package.json + package-lock.json (package data)
PACKAGE = Path("node_modules", "@electric-sql", "pglite")  # where npm puts it, under a prefix
ENTRY = Path("dist", "index.js")  # the module the sidecar imports (the package's ESM entry in the 0.3 line)
# The files of @electric-sql/pglite 0.3.15 as the lockfile's tarball (sha512-Cj++n1Me…) unpacks them:
# SHA-256 of the sorted lines "<path>\0<SHA-256 of its bytes>\n", one per file, paths relative to the
# package folder (see package_tree_sha256). Computed from the tarball itself and from an npm ci install of
# it (the same value). Hashing every file (21 MB) before each use costs about 0.1 s against the seconds a
# copy and a Node start take, and trusts nothing written in the cache folder: a record kept there could be
# rewritten with the files it vouches for.
PACKAGE_TREE_SHA256 = "d5ba53463cd2e60b70d55c9a7954540e5d39bece93d4023a842c4dc152b722bb"


class PgliteUnavailable(CannotOpen):
    """PGlite cannot run here; the message says in one sentence what to install."""


@dataclass(frozen=True)
class PgliteRuntime:
    node: str
    package: Path  # the @electric-sql/pglite folder
    pglite_version: str
    source: str  # "cache", "Daycare install at …" or "DAYCARE_GUI_DAYCARE_MODULES (…)"

    @property
    def entry(self) -> Path:
        """The file the sidecar imports, by its absolute path: nothing is looked up by package name (a
        name lookup walks up the folders for any node_modules it finds)."""
        return self.package / ENTRY


def cache_dir() -> Path:
    env = os.environ.get("DAYCARE_GUI_PGLITE_DIR", "").strip()
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("daycare-gui")) / f"pglite-{PGLITE_VERSION}"


def find_node() -> str:
    node = os.environ.get("DAYCARE_GUI_NODE") or shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise PgliteUnavailable(
            "Reading a PGlite store needs Node.js (18 or newer), which was not found: install it "
            "(Debian/Ubuntu: apt-get install nodejs npm) and open the store again.")
    return node


def _version_of(package: Path) -> str | None:
    try:
        return json.loads((package / "package.json").read_text()).get("version")
    except (OSError, ValueError, AttributeError):
        return None


def package_tree_sha256(package: Path) -> str | None:
    """The digest ``PACKAGE_TREE_SHA256`` pins, of the folder as it is now; None when it holds anything but
    folders and regular files (a symbolic link could point anywhere) or cannot be read."""
    lines: list[str] = []

    def walk(folder: Path, rel: str) -> bool:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return False
        for entry in entries:
            path = f"{rel}{entry.name}"
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:  # gone meanwhile: not the release as pinned
                return False
            if stat.S_ISDIR(st.st_mode):
                if not walk(Path(entry.path), f"{path}/"):
                    return False
            elif stat.S_ISREG(st.st_mode):
                digest = _file_sha256(entry.path)
                if digest is None:
                    return False
                lines.append(f"{path}\0{digest}\n")
            else:
                return False
        return True

    if not walk(package, ""):
        return None
    total = hashlib.sha256()
    for line in sorted(lines):
        total.update(line.encode())
    return total.hexdigest()


def _file_sha256(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))  # a file swapped for a link: refused
    except OSError:
        return None
    digest = hashlib.sha256()
    with os.fdopen(fd, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_pinned_release(package: Path) -> bool:
    return (_version_of(package) == PGLITE_VERSION and (package / ENTRY).is_file()
            and package_tree_sha256(package) == PACKAGE_TREE_SHA256)


def _explicit_modules(node: str) -> PgliteRuntime | None:
    """``DAYCARE_GUI_DAYCARE_MODULES``: a node_modules folder the user named; any PGlite of the 0.3 line."""
    env = os.environ.get("DAYCARE_GUI_DAYCARE_MODULES", "").strip()
    if not env:
        return None
    package = Path(env).expanduser() / "@electric-sql" / "pglite"
    version = _version_of(package)
    if version and version.startswith("0.3.") and (package / ENTRY).is_file():
        return PgliteRuntime(node, package, version, f"DAYCARE_GUI_DAYCARE_MODULES ({package})")
    return None


def _daycare_program_packages() -> list[Path]:
    """PGlite folders of the Daycare install whose ``daycare`` program is on PATH: from the program's real
    path up to its package (package.json named "daycare"), then its own node_modules or the one it sits in.
    Never a store's folder: only what PATH names."""
    program = shutil.which("daycare")
    if not program:
        return []
    folder = Path(os.path.realpath(program)).parent
    for _ in range(6):
        try:
            name = json.loads((folder / "package.json").read_text()).get("name")
        except (OSError, ValueError, AttributeError):
            name = None
        if name == "daycare":
            out = [folder / "node_modules" / "@electric-sql" / "pglite"]
            if folder.parent.name == "node_modules":  # hoisted beside it by npm
                out.append(folder.parent / "@electric-sql" / "pglite")
            return out
        if folder.parent == folder:
            break
        folder = folder.parent
    return []


def find_runtime() -> PgliteRuntime | None:
    """The runtime if a trusted PGlite is already here, else None (``install`` makes it)."""
    node = find_node()
    explicit = _explicit_modules(node)
    if explicit is not None:
        return explicit
    for package in _daycare_program_packages():
        if is_pinned_release(package):  # the same files as the pinned release: nothing to download
            return PgliteRuntime(node, package, PGLITE_VERSION, f"Daycare install at {package}")
    cached = cache_dir() / PACKAGE
    if is_pinned_release(cached):
        return PgliteRuntime(node, cached, PGLITE_VERSION, "cache")
    return None


def install(progress=None, cancelled=lambda: False) -> PgliteRuntime:
    """Install the pinned PGlite into the cache folder from the committed lockfile (``npm ci``)."""
    node = find_node()
    npm = shutil.which("npm")
    if not npm:
        raise PgliteUnavailable("Reading a PGlite store needs npm to install PGlite once; install npm "
                                "(Debian/Ubuntu: apt-get install npm) and open the store again.")
    target = cache_dir()
    # npm installs into a staging folder beside the cache, renamed into place only when complete and
    # checked: a cancelled or failed install leaves no half-filled cache that would look installed.
    staging = target.with_name(f"{target.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PIN / name, staging / name)
    if progress:
        progress(0, 0, f"Installing PGlite {PGLITE_VERSION} (once, into {target})…")
    try:
        # ci: exactly the lockfile, the tarball checked against its sha512; --ignore-scripts: nothing runs.
        _run_npm([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", str(staging)],
                 staging, cancelled)
        if not is_pinned_release(staging / PACKAGE):
            raise PgliteUnavailable(f"npm installed a PGlite {PGLITE_VERSION} whose files are not those of the "
                                    "pinned release; it is not used (check npm's registry settings)")
        target.mkdir(parents=True, exist_ok=True)
        for item in staging.iterdir():  # only what npm made: the cache folder may be the user's choice
            old = target / item.name
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            os.replace(item, old)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if progress:
        progress(1, 1, "PGlite installed")
    return PgliteRuntime(node, target / PACKAGE, PGLITE_VERSION, "cache")


def _run_npm(argv: list[str], cwd: Path, cancelled) -> None:
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True)
    reader.start()
    while proc.poll() is None:
        if cancelled():
            _kill_group(proc)
            from daycare_gui.stores.common.opening import OpenCancelled

            raise OpenCancelled("cancelled while installing PGlite")
        try:
            proc.wait(0.2)
        except subprocess.TimeoutExpired:
            pass
    reader.join(5)
    if proc.returncode != 0:
        last = "".join(output).strip().splitlines()[-1:] or ["npm failed"]
        raise PgliteUnavailable(f"Installing PGlite {PGLITE_VERSION} with npm failed: {last[0]}")


def _kill_group(proc: subprocess.Popen) -> None:
    """npm runs its work in child processes: stop them all, not only npm itself."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        proc.kill()
    proc.wait(5)


def ensure_runtime(*, progress=None, cancelled=lambda: False) -> PgliteRuntime:
    """A trusted PGlite, installed first when there is none. It takes no store path on purpose: where a
    store lies never decides which code runs."""
    return find_runtime() or install(progress, cancelled)
