#!/usr/bin/env bash
# What the test suite needs besides Python packages: the pinned PGlite release (Node.js), installed into
# .cache/pglite/ of this checkout, so that no test reaches the network. Needs node and npm on PATH
# (Debian: apt-get install nodejs npm). PostgreSQL's server binaries come from Debian's postgresql package.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/pglite
mkdir -p "$dest"
[ -f "$dest/package.json" ] || echo '{"name": "daycare-gui-test-pglite", "private": true}' > "$dest/package.json"
if [ ! -f "$dest/node_modules/@electric-sql/pglite/package.json" ]; then
  npm install --silent --no-audit --no-fund --save-exact --prefix "$dest" \
    @electric-sql/pglite@0.3.15 >/dev/null
fi
echo "PGlite test runtime ready in $dest"
