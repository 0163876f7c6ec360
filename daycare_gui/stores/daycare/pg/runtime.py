"""PGlite under Node.js: find ``node`` and the PGlite packages, install the pinned release on first use.

A native PostgreSQL cannot read a PGlite folder (a 32-bit WebAssembly build's data directory); only PGlite
can, and PGlite writes into the folder it opens. So the application copies the folder and serves the copy
with a small Node sidecar (``sidecar.mjs`` beside this module: PGlite behind its own PostgreSQL wire
server on a unix socket; it needs no package but PGlite).

Which PGlite: the one the user's Daycare install ships, when found (the version that wrote the data),
else the pinned release installed once into the application's cache folder with npm.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.api import CannotOpen

PGLITE_VERSION = "0.3.15"  # what Daycare 7c3c466c writes with; 0.4 opens another database, 0.5 is PG 18
SIDECAR = Path(__file__).resolve().with_name("sidecar.mjs")  # shipped as package data


class PgliteUnavailable(CannotOpen):
    """PGlite cannot run here; the message says in one sentence what to install."""


@dataclass(frozen=True)
class PgliteRuntime:
    node: str
    pglite_modules: Path  # a node_modules folder with @electric-sql/pglite
    pglite_version: str
    source: str  # "Daycare install at …" or "cache"


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


def _version_of(modules: Path, package: str) -> str | None:
    try:
        return json.loads((modules / package / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        return None


def _daycare_installs(root: Path | None) -> list[Path]:
    """node_modules folders a Daycare install may have: beside its root, and npm's global folder."""
    out = []
    env = os.environ.get("DAYCARE_GUI_DAYCARE_MODULES", "").strip()
    if env:
        out.append(Path(env))
    if root is not None:
        out += [root / "node_modules", root.parent / "node_modules"]
    for prefix in ("/usr/local/lib/node_modules", "/usr/lib/node_modules",
                   str(Path.home() / ".npm-global/lib/node_modules")):
        out.append(Path(prefix) / "daycare" / "node_modules")
    return out


def find_runtime(store_root: Path | None = None) -> PgliteRuntime | None:
    """The runtime if everything is already here, else None (``install`` makes it)."""
    node = find_node()
    cache = cache_dir() / "node_modules"
    for modules in _daycare_installs(store_root):
        version = _version_of(modules, "@electric-sql/pglite")
        if version and version.startswith("0.3."):  # a Daycare install's own PGlite: nothing to download
            return PgliteRuntime(node, modules, version, f"Daycare install at {modules}")
    if _version_of(cache, "@electric-sql/pglite") == PGLITE_VERSION:
        return PgliteRuntime(node, cache, PGLITE_VERSION, "cache")
    return None


def install(progress=None, cancelled=lambda: False) -> PgliteRuntime:
    """Install the pinned PGlite into the cache folder with npm (once)."""
    node = find_node()
    npm = shutil.which("npm")
    if not npm:
        raise PgliteUnavailable("Reading a PGlite store needs npm to install PGlite once; install npm "
                                "(Debian/Ubuntu: apt-get install npm) and open the store again.")
    target = cache_dir()
    # npm installs into a staging folder beside the cache, renamed into place only when complete: a
    # cancelled or failed install leaves no half-filled cache that would look installed next time.
    staging = target.with_name(f"{target.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    (staging / "package.json").write_text('{"name": "daycare-gui-pglite", "private": true}\n')
    if progress:
        progress(0, 0, f"Installing PGlite {PGLITE_VERSION} (once, into {target})…")
    try:
        proc = subprocess.Popen(
            [npm, "install", "--no-audit", "--no-fund", "--save-exact", "--prefix", str(staging),
             f"@electric-sql/pglite@{PGLITE_VERSION}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
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
    modules = target / "node_modules"
    return PgliteRuntime(node, modules, PGLITE_VERSION, "cache")


def _kill_group(proc: subprocess.Popen) -> None:
    """npm runs its work in child processes: stop them all, not only npm itself."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        proc.kill()
    proc.wait(5)


def ensure_runtime(store_root: Path | None = None, progress=None, cancelled=lambda: False) -> PgliteRuntime:
    return find_runtime(store_root) or install(progress, cancelled)
