#!/usr/bin/env bash
# What the test suite needs besides Python packages: the pinned PGlite release (Node.js), installed into
# .cache/pglite/ of this checkout from the lockfile the application itself installs from
# (daycare_gui/stores/daycare/pg/pglite_pin/) with `npm ci --ignore-scripts`: npm checks the tarball against
# the lockfile's sha512 and runs no install script. So that no test reaches the network. Needs node and npm
# on PATH (Debian: apt-get install nodejs npm). PostgreSQL's server binaries come from Debian's postgresql
# package.
set -euo pipefail
cd "$(dirname "$0")/.."
pin=daycare_gui/stores/daycare/pg/pglite_pin
dest=.cache/pglite
package="$dest/node_modules/@electric-sql/pglite"
# The application's own check (every file against the pinned release), when the venv is there to run it.
accepted() {
  [ -x .venv/bin/python ] || { [ -f "$package/package.json" ] && cmp -s "$pin/package-lock.json" "$dest/package-lock.json"; return; }
  .venv/bin/python -c 'import sys; from pathlib import Path
from daycare_gui.stores.daycare.pg.runtime import is_pinned_release
sys.exit(0 if is_pinned_release(Path(sys.argv[1])) else 1)' "$package"
}
if ! accepted; then
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$pin/package.json" "$pin/package-lock.json" "$dest/"
  (cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --silent >/dev/null)
  if ! accepted; then
    echo "install_test_deps.sh: the PGlite npm installed in $dest is not the pinned release" >&2
    exit 1
  fi
fi
echo "PGlite test runtime ready in $dest"
