"""An app's own test suite, run by pytest in a process of its own, as its developer runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def run_suite(folder: Path, tests: dict[str, str]) -> str:
    """Write the suite's files into `folder` (a conftest.py loading the kit, as the testing guide says, and the given
    test files), run pytest there (copilot_ui importable from this checkout), and return what it printed."""
    (folder / "conftest.py").write_text('pytest_plugins = ["copilot_ui.testing"]\n')
    for name, source in tests.items():
        (folder / name).write_text(source)
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("COPILOT_")},
        "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]),
    }
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return run.stdout + run.stderr
