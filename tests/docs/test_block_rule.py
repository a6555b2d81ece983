"""The docs' code-block rule, as a page writer meets it: blocks run in order as one script, a `# not run:` block is
only compiled, `# app: <module>` blocks are fragments of an app module, and a failure names the page and its line."""

from __future__ import annotations

from pathlib import Path

from ._blocks import run_page

FENCE = "```"


def page(tmp_path: Path, *blocks: tuple[str, str]) -> Path:
    """A page of these (language, code) blocks, with prose between them."""
    parts = ["# A page", ""]
    for language, code in blocks:
        parts += ["Some prose.", "", f"{FENCE}{language}", code.strip("\n"), FENCE, ""]
    written = tmp_path / "page.md"
    written.write_text("\n".join(parts), encoding="utf-8")
    return written


def test_blocks_run_in_order_as_one_script(tmp_path: Path):
    done = run_page(page(tmp_path, ("python", "total = 2"), ("python", "total *= 21\nprint('total', total)")), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "total 42\n"


def test_a_failing_block_names_the_page_and_its_line(tmp_path: Path):
    written = page(tmp_path, ("python", "x = 1"), ("python", "x = 1\nraise ValueError('the docs lie')"))
    line = written.read_text().splitlines().index("raise ValueError('the docs lie')") + 1
    done = run_page(written, tmp_path)
    assert done.returncode != 0
    assert f'File "{written}", line {line}' in done.stderr
    assert "ValueError: the docs lie" in done.stderr


def test_a_block_marked_not_run_is_only_compiled(tmp_path: Path):
    needs_a_server = "# not run: it needs a running server\nimport no_such_module"
    assert run_page(page(tmp_path, ("python", needs_a_server)), tmp_path).returncode == 0
    broken = "# not run: it needs a running server\nawait no_such_call()"
    assert "SyntaxError" in run_page(page(tmp_path, ("python", broken)), tmp_path).stderr


def test_blocks_in_other_languages_are_not_run(tmp_path: Path):
    done = run_page(page(tmp_path, ("bash", "exit 1"), ("toml", "[nonsense"), ("python", "print('ran')")), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ran\n"


def test_app_fragments_make_a_module_later_blocks_import(tmp_path: Path):
    first = "# app: shop\nimport reflex as rx\n\n\nclass CartState(rx.State):\n    items: int = 0"
    second = "# app: shop\ndef count(state: CartState) -> int:\n    return state.items"
    third = "import shop\n\nassert shop.count.__annotations__['state'] is shop.CartState\nprint('imported')"
    done = run_page(page(tmp_path, ("python", first), ("python", second), ("python", third)), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("imported\n")


def test_an_app_fragment_of_the_demo_runs_in_its_module(tmp_path: Path):
    fragment = "# app: copilot_ui.copilot_ui\nassert DashboardState.get_fields()['theme'].default == 'light'"
    done = run_page(page(tmp_path, ("python", fragment)), tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
