"""copilot_ui's exceptions share one base and one module: `except CopilotUIError` catches what copilot_ui raises, and
`from copilot_ui.errors import ...` finds each of them.

Every module of the package is imported, except those whose import does something: the demo app and its parts
(they declare tools on the default copilot), `__main__` (runs the command line) and the store's Alembic scripts.
Those are read instead: they define no exception.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import copilot_ui
from copilot_ui import errors
from copilot_ui.errors import CopilotUIError

PACKAGE = Path(copilot_ui.__file__).parent
NOT_IMPORTED = ("copilot_ui.copilot_ui", "copilot_ui.demo", "copilot_ui.__main__", "copilot_ui.store._migrations")


def _skipped(name: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in NOT_IMPORTED)


def exceptions_defined() -> dict[str, type[BaseException]]:
    """Every exception class defined in an importable module of copilot_ui, by its qualified name."""
    found: dict[str, type[BaseException]] = {}
    modules = [copilot_ui.__name__] + [
        info.name for info in pkgutil.walk_packages(copilot_ui.__path__, "copilot_ui.", onerror=lambda _: None)
    ]
    for name in modules:
        if _skipped(name):
            continue
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = value
    return found


def test_every_exception_of_copilot_ui_is_a_copilot_ui_error_found_in_copilot_ui_errors():
    found = exceptions_defined()
    public = {name: value for name, value in found.items() if not value.__name__.startswith("_")}
    assert len(public) >= 20, f"copilot_ui's exceptions were not found: {sorted(public)}"
    assert [name for name, value in public.items() if not issubclass(value, CopilotUIError)] == []
    assert [name for name, value in public.items() if getattr(errors, value.__name__, None) is not value] == []


def test_modules_not_imported_define_no_exception():
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if not _skipped(name):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base) for base in node.bases]
                assert not any(base.endswith(("Error", "Exception")) for base in bases), f"{name}.{node.name}({bases})"


def test_an_exception_that_was_a_builtin_one_still_is():
    assert issubclass(errors.ThreadNotFound, LookupError)
    assert issubclass(errors.ThreadExists, ValueError)
    assert issubclass(errors.ThreadBusy, RuntimeError)
    assert issubclass(errors.AnswerInvalid, ValueError)
    assert issubclass(errors.DeclarationError, TypeError) and issubclass(errors.DeclarationError, ValueError)
