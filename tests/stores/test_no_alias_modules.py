"""Each module has one name: no module stands in for another (``sys.modules[__name__] = …``) and no
module is only imports of another's names, so a reader finds the code where it is imported from and a
patch through one name cannot miss the code behind another."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "daycare_gui"


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_replaces_itself_in_sys_modules():
    aliases = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Subscript) and ast.unparse(t.value) == "sys.modules" for t in node.targets
            ):
                aliases.append(str(path.relative_to(PACKAGE.parent)))
    assert aliases == []


def test_no_module_outside_a_package_init_is_only_imports():
    # a package's __init__ may gather its submodules' names; any other module that only imports is an alias
    only_imports = []
    for path in _modules():
        if path.name == "__init__.py":
            continue
        body = ast.parse(path.read_text(encoding="utf-8")).body
        code = [n for n in body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
        if code and all(isinstance(n, (ast.Import, ast.ImportFrom)) or _is_all(n) for n in code):
            only_imports.append(str(path.relative_to(PACKAGE.parent)))
    assert only_imports == []
    assert len(_modules()) > 100  # the walk really found the package


def _is_all(node) -> bool:
    return isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["__all__"]
