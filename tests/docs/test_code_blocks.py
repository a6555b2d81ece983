"""Every Python code block of the docs runs: a page's blocks in order in one fresh process (the rule: _blocks.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._blocks import CHECKOUT, python_blocks, run_page

DOCS = CHECKOUT / "docs"
PAGES = sorted(DOCS.glob("**/*.md"))


def test_the_docs_have_pages() -> None:
    assert len(PAGES) >= 10, f"docs/ holds {len(PAGES)} pages"


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(DOCS)) for page in PAGES])
def test_the_code_blocks_of_a_page_run(page: Path, tmp_path: Path) -> None:
    if not python_blocks(page):
        pytest.skip("no Python code on this page")
    done = run_page(page, tmp_path)
    assert done.returncode == 0, f"{page.relative_to(CHECKOUT)}: its code blocks failed\n{done.stdout}\n{done.stderr}"
