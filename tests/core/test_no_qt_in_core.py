"""Every store kind (Daycare's readers, writers and migrations among them) stays free of Qt: the CLI and
the tests use them without a display."""

import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import daycare_gui.stores as core

REPO = Path(__file__).resolve().parents[2]


def test_importing_every_core_module_pulls_in_no_qt():
    names = [m.name for m in pkgutil.walk_packages(core.__path__, prefix="daycare_gui.stores.")]
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
    # Through this interpreter, not `lint-imports` from PATH: the README runs `.venv/bin/python -m pytest`
    # without activating the venv, so its scripts folder is not on PATH. (importlinter.cli has no __main__
    # guard, so `-m importlinter.cli` would exit 0 without checking anything.)
    importlib.import_module("importlinter")
    run = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    out = subprocess.run([sys.executable, "-c", run, "--no-cache"], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r"Contracts: [1-9]\d* kept, 0 broken", out.stdout), out.stdout  # the contracts really ran
