"""The docs site builds with `mkdocs build --strict` and without a warning, and its API reference documents every
name of copilot_ui's top level."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import copilot_ui as cui

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    site = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=PROJECT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done, site


def test_the_docs_build_strictly_without_a_warning(built: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    done, site = built
    output = done.stdout + done.stderr
    warnings = [line for line in output.splitlines() if re.match(r"^\W*(WARNING|ERROR)\b", line)]
    assert done.returncode == 0 and not warnings, f"mkdocs build --strict:\n{output}"
    assert (site / "index.html").is_file()
    assert (site / "guides" / "frontend-tools" / "index.html").is_file()


def test_the_api_reference_documents_every_top_level_name(built: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    _, site = built
    anchors = set()
    for page in (site / "reference").glob("**/*.html"):
        anchors |= set(re.findall(r'id="(copilot_ui\.[\w.]+)"', page.read_text(encoding="utf-8")))
    # `cui.copilot` is the default Copilot: its class's page documents it.
    undocumented = [
        name
        for name in cui.__all__
        if not any(anchor.endswith(f".{'Copilot' if name == 'copilot' else name}") for anchor in anchors)
    ]
    assert not undocumented, f"the API reference does not document cui.{', cui.'.join(undocumented)}"
