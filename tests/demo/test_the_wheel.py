"""The installed package is the library, not the demo: the wheel pip builds from this checkout holds none of the demo
dashboard's parts (its app module, copilot_ui/demo) and none of its words, so the demo model in someone else's app
cannot advertise the dashboard. (The project's description, README.md, goes into the wheel's METADATA as the
package's documentation; it is not the package's code.)"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from copilot_ui.demo import script

CHECKOUT = Path(__file__).resolve().parents[2]
DEMO_WORDS = (*script.PHRASES, script.QUESTION, *script.LAUNCH_STEPS, *script.PLAN_STEPS, "Report draft", "Acme sales")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel of this checkout, as `pip install path/to/copilot_ui` builds it."""
    folder = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--no-deps", "--quiet", "-w", str(folder), str(CHECKOUT)], check=True, timeout=300)
    [built] = folder.glob("copilot_ui-*.whl")
    return zipfile.ZipFile(built)


def package_files(wheel: zipfile.ZipFile) -> list[str]:
    return [name for name in wheel.namelist() if name.startswith("copilot_ui/")]


def test_the_wheel_holds_the_library_and_not_the_demo_app(wheel: zipfile.ZipFile):
    files = package_files(wheel)

    assert "copilot_ui/server/_demo.py" in files  # the demo model is the library's
    assert "copilot_ui/testing/__init__.py" in files
    assert [name for name in files if name.startswith("copilot_ui/demo/") or name == "copilot_ui/copilot_ui.py"] == []


def test_no_file_of_the_package_says_a_word_of_the_demo_dashboard(wheel: zipfile.ZipFile):
    said = {
        (name, words)
        for name in package_files(wheel)
        for words in DEMO_WORDS
        if words.lower() in wheel.read(name).decode("utf-8", errors="replace").lower()
    }

    assert said == set()


def test_the_check_finds_the_dashboards_words_where_they_are():
    demo_script = (CHECKOUT / "copilot_ui" / "demo" / "script.py").read_text().lower()

    assert all(words.lower() in demo_script for words in script.PHRASES)
