#!/usr/bin/env bash
# CI packaging check: build the PyInstaller one-folder bundle, start it once offscreen with
# --self-test, and validate the .desktop file and AppStream metainfo when the validators exist.
# Needs the project venv (.ci/run creates it first; override with VENV=/path/to/venv).
# Takes about a minute here (pip + ~35 s build); the bundle is ~190 MB in build/dist/daycare-gui/.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${VENV:-.venv}"
BUNDLE=build/dist/daycare-gui
started=$SECONDS

if [ ! -x "$VENV/bin/python" ]; then
  echo "packaging/check.sh: no venv at $VENV (create it with the README's install command)" >&2
  exit 2
fi

echo "== desktop integration files"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate packaging/daycare-gui.desktop
  echo "desktop-file-validate: ok"
else
  echo "desktop-file-validate not installed (apt-get install desktop-file-utils); skipped"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net packaging/io.github.daycare_gui.metainfo.xml
else
  echo "appstreamcli not installed (apt-get install appstream); skipped"
fi

echo "== PyInstaller build"
"$VENV/bin/pip" install -q pyinstaller
"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath build/dist --workpath build/work packaging/daycare-gui.spec

echo "== bundle smoke test"
out=$(QT_QPA_PLATFORM=offscreen timeout 120 "$BUNDLE/daycare-gui" --self-test 2>&1) || {
  echo "$out" >&2
  echo "packaging/check.sh: the bundle failed its self-test" >&2
  exit 1
}
if ! grep -q "^self-test ok" <<<"$out"; then
  echo "$out" >&2
  echo "packaging/check.sh: the bundle exited 0 but did not report 'self-test ok'" >&2
  exit 1
fi
grep "^self-test ok" <<<"$out"
"$BUNDLE/daycare-gui" --version

echo "packaging check passed in $((SECONDS - started)) s; bundle $(du -sh "$BUNDLE" | cut -f1) in $BUNDLE"
