"""`python -m tests.which <module>` finds a module's tests from its name, and every module of copilot_ui has some."""

from __future__ import annotations

import subprocess
import sys

from tests import which


def test_every_module_is_reached_by_a_test() -> None:
    untested = [module for module in sorted(which._modules()) if not which.tests_of(module).tests]
    assert not untested, f"no test imports these modules, nor any module that imports them: {untested}"


def test_a_module_a_test_imports_from_lists_that_test() -> None:
    found = which.tests_of(which.module_name("core/_claims.py"))
    assert found.through == ()
    assert which.TESTS / "core" / "test_claims.py" in found.tests


def test_a_helper_lists_the_tests_of_the_modules_that_import_it() -> None:
    printed = _which("copilot_ui/state/sink/_silence.py")
    assert printed.returncode == 0
    first, *tests = printed.stdout.splitlines()
    assert first == "# no test imports from copilot_ui.state.sink._silence; these test it through copilot_ui.state.sink._sink"
    assert "tests/state/test_agent_silence.py" in tests


def test_the_served_apps_modules_list_the_rings_that_serve_it() -> None:
    assert "tests/browser/test_copilot_sidebar.py" in _which("demo/page.py").stdout.splitlines()


def test_a_name_that_is_no_module_says_so() -> None:
    printed = _which("core/_nothing.py")
    assert printed.returncode != 0
    assert "no module 'core/_nothing.py' in copilot_ui/" in printed.stderr


def _which(module: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.which", module], cwd=which.CHECKOUT, capture_output=True, text=True, check=False
    )
