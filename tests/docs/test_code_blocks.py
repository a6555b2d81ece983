"""Every Python code block of the docs runs: a page's blocks in order in one fresh process (see _blocks.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ._blocks import python_blocks, runner_input

PROJECT = Path(__file__).resolve().parents[2]
DOCS = PROJECT / "docs"
PAGES = sorted(DOCS.glob("**/*.md"))
RUNNER = Path(__file__).with_name("_blocks.py")


def _environment() -> dict[str, str]:
    """This environment without the copilot's settings and keys: the docs' code runs offline, on the demo model."""
    unset = ("COPILOT_", "OPENAI_", "ANTHROPIC_", "REDIS_URL", "REFLEX_REDIS_URL")
    environment = {name: value for name, value in os.environ.items() if not name.startswith(unset)}
    environment = {name: value for name, value in environment.items() if not name.endswith(("_API_KEY", "_TOKEN"))}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH", "")]))
    return environment


def test_the_docs_have_pages() -> None:
    assert len(PAGES) >= 10, f"docs/ holds {len(PAGES)} pages"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(DOCS)) for page in PAGES])
def test_the_code_blocks_of_a_page_run(page: Path, tmp_path: Path) -> None:
    blocks = python_blocks(page)
    if not blocks:
        pytest.skip("no Python code on this page")
    done = subprocess.run(
        [sys.executable, str(RUNNER)],
        input=runner_input(page, blocks),
        cwd=tmp_path,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{page.relative_to(PROJECT)}: its code blocks failed\n{done.stdout}\n{done.stderr}"
