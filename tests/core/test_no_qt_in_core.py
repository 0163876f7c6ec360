"""The storage core must stay free of Qt: it is used by the CLI and by tests without a display."""

import importlib
import pkgutil
import subprocess
import sys

import daycare_gui.core as core


def test_importing_every_core_module_pulls_in_no_qt():
    names = [m.name for m in pkgutil.walk_packages(core.__path__, prefix="daycare_gui.core.")]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6') or m.startswith('daycare_gui.ui'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core modules imported Qt/UI modules: {out.stdout.strip()}"
    assert len(names) > 3  # the walk really found the core's modules


def test_import_linter_contract_holds():
    # import-linter checks static imports too (an import inside a function body would escape the test above).
    importlib.import_module("importlinter")
    out = subprocess.run(["lint-imports"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
