"""No module of daycare_gui imports itself back through others: each layer reads from below only, so a reader
(and a change) can start from a module without first knowing every module that leads back to it.

Every import counts: at module level, inside a function, under ``if TYPE_CHECKING`` (grimp, import-linter's
graph, sees them all). What is shared by two modules lives in a third that both import.
"""

import grimp


def _circles(graph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_modules_import_each_other():
    graph = grimp.build_graph("daycare_gui", cache_dir=None)
    assert len(graph.modules) > 100  # the graph really holds the package
    assert _circles(graph) == []


def test_a_circle_is_seen_through_a_function_level_import():
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.leaf"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a", line_number=40, line_contents="from pkg.a import x")
    graph.add_import(importer="pkg.a", imported="pkg.leaf")
    assert _circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
