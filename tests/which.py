"""Which tests test a module: `python -m tests.which core/_batch.py` (or `copilot_ui/core/_batch.py`, or
`copilot_ui.core._batch`) prints the test files that import a name the module defines, wherever they import it from
(the module itself, its package, or the top-level `copilot_ui`). A module no test imports from (a helper of its
package) is tested through the nearest modules that import it: their tests are printed, and those modules named.

The tests are organised by what a person or an app does, not by module: this finds a module's tests from its name.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
PACKAGE = CHECKOUT / "copilot_ui"
TESTS = CHECKOUT / "tests"
# Modules the tests run as processes rather than import: the rings that do.
RUN_BY = {"copilot_ui.copilot_ui": ("browser", "devmode", "load"), "copilot_ui.__main__": ("cli",)}


@dataclass(frozen=True)
class Found:
    """The test files of a module, and the modules they reach it through (none: they import from it)."""

    module: str
    tests: tuple[Path, ...]
    through: tuple[str, ...] = ()


def tests_of(module: str) -> Found:
    """The test files that test the module (a dotted name of copilot_ui): those that import from it, else those of
    the nearest modules that import it (its callers, their callers…)."""
    reached, nearest = {module}, {module}
    while nearest:
        tests = sorted({test for near in nearest for test in _tests_importing(near)})
        if tests:
            return Found(module, tuple(tests), tuple(sorted(nearest - {module})))
        nearest = {caller for caller in _modules() - reached if any(_imports_from(caller, near) for near in nearest)}
        reached |= nearest
    return Found(module, ())


def module_name(given: str) -> str:
    """The dotted name of the module a person names by its path (with or without `copilot_ui/`) or dotted name."""
    name = given.removesuffix(".py").removesuffix("__init__").replace("/", ".").strip(".")
    name = name if name.startswith("copilot_ui") else f"copilot_ui.{name}".rstrip(".")
    if name not in _modules():
        raise SystemExit(f"no module {given!r} in copilot_ui/ (e.g. core/_batch.py)")
    return name


def _tests_importing(module: str) -> set[Path]:
    rings = RUN_BY.get(module, ())
    return {test for test in _test_files() if _imports_from(test, module) or test.relative_to(TESTS).parts[0] in rings}


@cache
def _modules() -> frozenset[str]:
    return frozenset(_dotted(path) for path in PACKAGE.rglob("*.py") if "_migrations" not in path.parts)


@cache
def _test_files() -> tuple[Path, ...]:
    return tuple(sorted(path for path in TESTS.rglob("test_*.py")))


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(CHECKOUT).with_suffix("").parts).removesuffix(".__init__")


def _source(module: str) -> Path:
    path = CHECKOUT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@cache
def _defined(module: str) -> frozenset[str]:
    """The names the module defines at its top level."""
    names: set[str] = set()
    for node in _tree(_source(module)).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {target.id for target in targets if isinstance(target, ast.Name)}
    return frozenset(names)


def _imports_from(importer: str | Path, module: str) -> bool:
    """Whether the importer (a module of copilot_ui, or a test file) imports the module, or a name the module defines
    from it or from a package above it."""
    defined, last = _defined(module), module.rsplit(".", 1)[-1]
    for source, names in _imports(_source(importer) if isinstance(importer, str) else importer):
        if source == module or (f"{source}.{last}" == module and last in names):
            return True
        if module.startswith(f"{source}.") and names & defined:
            return True
    return False


@cache
def _imports(path: Path) -> tuple[tuple[str, frozenset[str]], ...]:
    """What the file imports: (the module imported from, the names); `import a.b` is ("a.b", no names)."""
    importer, found = _dotted(path), list[tuple[str, frozenset[str]]]()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(alias.name, frozenset[str]()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((_absolute(node, importer, path.name == "__init__.py"), frozenset(a.name for a in node.names)))
    return tuple(found)


def _absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module a `from ... import` names, made absolute."""
    if not node.level:
        return node.module or ""
    parts = importer.split(".") if is_package else importer.split(".")[:-1]
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print("usage: python -m tests.which core/_batch.py", file=sys.stderr)
        return 2
    found = tests_of(module_name(arguments[0]))
    if found.through:
        print(f"# no test imports from {found.module}; these test it through {', '.join(found.through)}")
    for test in found.tests:
        print(test.relative_to(CHECKOUT))
    return 0 if found.tests else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
