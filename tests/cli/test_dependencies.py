"""The declared runtime dependencies are exactly what the code imports, and CI tests the declared Qt floor."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# distribution → the top-level modules it provides
PROVIDES = {
    "pyside6-essentials": {"PySide6", "shiboken6"},
    "sqlalchemy": {"sqlalchemy"},
    "markdown-it-py": {"markdown_it"},
    "pyyaml": {"yaml"},
    "ruamel.yaml": {"ruamel"},
    "croniter": {"croniter"},
    "cron-descriptor": {"cron_descriptor"},
    "platformdirs": {"platformdirs"},
    "psycopg": {"psycopg"},
    "msgpack": {"msgpack"},
    "genai-prices": {"genai_prices"},
}


def _declared() -> dict[str, str]:
    """{distribution (lower case): its requirement} from [project].dependencies."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    requirements = re.findall(r'^\s*"([^"]+)"', block, re.M)
    return {re.match(r"[A-Za-z0-9_.\-]+", r).group(0).lower(): r for r in requirements}


def _imported() -> set[str]:
    modules: set[str] = set()
    for path in (REPO / "daycare_gui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    return {m for m in modules if m not in sys.stdlib_module_names and m != "daycare_gui"}


def test_every_declared_dependency_is_imported_and_every_import_declared():
    declared = _declared()
    assert set(declared) <= set(PROVIDES), f"unknown distributions: {set(declared) - set(PROVIDES)}"
    provided = set().union(*(PROVIDES[d] for d in declared))
    imported = _imported()
    assert imported <= provided, f"imported but not declared: {imported - provided}"
    unused = {d for d in declared if not PROVIDES[d] & imported}
    assert not unused, f"declared but never imported: {unused}"


def test_no_module_of_pyside6_addons_is_used():
    # QtCharts & co. live in PySide6-Addons, which is not a dependency.
    essentials = {"QtCore", "QtGui", "QtWidgets", "QtTest", "QtSvg", "QtSvgWidgets", "QtNetwork",
                  "QtOpenGL", "QtOpenGLWidgets", "QtPrintSupport", "QtSql", "QtXml", "QtConcurrent", "QtDBus"}
    used = set()
    for path in (REPO / "daycare_gui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "PySide6":
                used |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PySide6."):
                used.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                used |= {a.name.split(".")[1] for a in node.names if a.name.startswith("PySide6.")}
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.fullmatch(r"PySide6\.Qt\w+", node.value):  # imported by name (importlib)
                used.add(node.value.split(".")[1])
    assert "QtWidgets" in used and used <= essentials, used - essentials


def test_ci_installs_the_declared_qt_floor():
    floor = re.search(r"PySide6-Essentials>=([\d.]+)", _declared()["pyside6-essentials"]).group(1)
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert f"PySide6-Essentials=={floor}" in ci
