"""No two classes of copilot_ui share a name: a reader (or an IDE's search) finds one thing by it.

The source files are read, not imported: the demo app and its parts declare tools when imported.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import copilot_ui

PACKAGE = Path(copilot_ui.__file__).parent


def classes_by_name() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_every_class_name_is_defined_once():
    found = classes_by_name()
    assert len(found) > 100, "the package's classes were not found"
    twice = {name: places for name, places in found.items() if len(places) > 1}
    assert twice == {}, "class names defined more than once: " + "; ".join(
        f"{name} in {', '.join(places)}" for name, places in sorted(twice.items())
    )
