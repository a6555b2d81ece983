"""The Reflex binding reads as layers: each of copilot_ui/state's layers imports only those below it, and no module
imports its way back to itself. The test reads the source (every import, those inside functions included; not those
under `if TYPE_CHECKING:`, which name a type for the reader and never run)."""

from __future__ import annotations

import ast
from pathlib import Path

import copilot_ui.state

STATE = Path(copilot_ui.state.__file__).parent
LAYERS = ["declarations", "view", "sink", "turns", ""]  # bottom to top; "" is the person's events (the folder itself)


def layer_of(module: str) -> int:
    """The layer of a module given by its path under copilot_ui/state ("turns/_thread_runs", "_copilot")."""
    first = module.split("/")[0]
    return LAYERS.index(first) if first in LAYERS[:-1] else len(LAYERS) - 1


def modules() -> dict[str, Path]:
    return {str(path.relative_to(STATE).with_suffix("")): path for path in STATE.rglob("*.py")}


def imports_of(module: str, path: Path) -> set[str]:
    """The modules of copilot_ui/state this module imports (relative imports, resolved to paths under the folder)."""
    package = list(Path(module).parent.parts)
    found = set()
    tree = ast.parse(path.read_text())
    type_only = _type_only(tree)
    for node in ast.walk(tree):
        if node in type_only or not isinstance(node, ast.ImportFrom) or node.level == 0 or node.level - 1 > len(package):
            continue  # absolute, or a package above copilot_ui.state (core, store...)
        base = package[: len(package) - (node.level - 1)]
        if node.module:
            targets = ["/".join([*base, *node.module.split(".")])]
        else:
            targets = ["/".join([*base, alias.name]) for alias in node.names]
        for target in targets:
            if target in MODULES:
                found.add(target)
            elif target + "/__init__" in MODULES:
                found.add(target + "/__init__")
    return found - {module}


def _type_only(tree: ast.Module) -> list[ast.stmt]:
    """The statements under `if TYPE_CHECKING:` at the top of a module."""
    guarded = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    return [statement for node in guarded for statement in node.body]


MODULES = modules()


def test_each_layer_imports_only_the_layers_below_it():
    upward = [
        f"{module} ({LAYERS[layer_of(module)] or 'the person' + chr(39) + 's events'}) imports {imported}"
        for module, path in MODULES.items()
        for imported in imports_of(module, path)
        if layer_of(imported) > layer_of(module)
    ]
    assert upward == []


def test_no_module_imports_its_way_back_to_itself():
    graph = {module: imports_of(module, path) for module, path in MODULES.items()}
    circles = []

    def visit(module: str, trail: list[str]) -> None:
        for imported in graph[module]:
            if imported in trail:
                circles.append(" → ".join([*trail[trail.index(imported) :], imported]))
            elif len(trail) < len(graph):
                visit(imported, [*trail, imported])

    for module in graph:
        visit(module, [module])
    assert sorted(set(circles)) == []


def test_the_check_sees_an_upward_import():
    assert layer_of("turns/_work") > layer_of("sink/_sink") > layer_of("view/_conversation") > layer_of("declarations/_copilot")
    assert "sink/_outgoing" in imports_of("sink/_sink", MODULES["sink/_sink"])
    assert "view/__init__" in imports_of("sink/_sink", MODULES["sink/_sink"])
    # A type named for the checker is no import: CopilotState's helpers name it, and it imports them
    assert "_tab" in imports_of("_copilot", MODULES["_copilot"])
    assert "_copilot" not in imports_of("_tab", MODULES["_tab"])
