"""The top-level names an app uses are seen by IDEs and type checkers (an `if TYPE_CHECKING:` import of each) while
they still load on first use at run time: `import copilot_ui` imports neither Reflex nor the agents' libraries."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import copilot_ui

INIT = Path(copilot_ui.__file__)


def _names_seen_by_checkers() -> set[str]:
    tree = ast.parse(INIT.read_text())
    blocks = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    names: set[str] = set()
    for block in blocks:
        for node in ast.walk(block):
            if isinstance(node, ast.ImportFrom):
                names |= {alias.asname or alias.name for alias in node.names}
            elif isinstance(node, ast.Assign):
                names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def test_every_exported_name_is_imported_for_type_checkers():
    assert set(copilot_ui.__all__) == _names_seen_by_checkers()


def test_all_names_exactly_what_loads_on_first_use():
    loaded = set(copilot_ui._PUBLIC) | set(copilot_ui._DECLARATIONS)
    assert sorted(copilot_ui.__all__) == sorted(loaded)
    assert len(copilot_ui.__all__) == len(set(copilot_ui.__all__))


def test_importing_the_package_loads_no_name_until_it_is_used():
    code = "import sys, copilot_ui; print(sorted(m for m in ('reflex', 'pydantic_ai', 'copilot_ui.state') if m in sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
