"""The docs' Python code blocks: found in a page, and run the way the docs' rule says.

All ```python blocks of one page run in order, in one fresh Python process, as one script (like the
cells of a notebook): cwd a temporary folder, the checkout on sys.path, no server, no model, no network.
A block whose first line is `# not run: <reason>` is only compiled (code that needs a running server,
a browser or a model key). A block whose first line is `# app: <module>` is a fragment of that app
module and runs in its namespace: a module the checkout has (`copilot_ui.copilot_ui`, the demo) is
imported first; any other is made by the page's blocks that name it (the first makes it, each adds to
it), so that later blocks can `import <module>`. Blocks in other languages are not run.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
import types
from dataclasses import asdict, dataclass
from pathlib import Path

NOT_RUN = re.compile(r"#\s*not run:\s*\S")
APP = re.compile(r"#\s*app:\s*([\w.]+)\s*$")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_PYTHON = {"python", "py"}
CHECKOUT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Block:
    """One fenced Python block of a page."""

    line: int  # the line of its first line of code in the page (1-based)
    code: str
    run: bool  # False: only compiled (`# not run: <reason>`)
    app: str | None  # the app module whose namespace it runs in (`# app: <module>`)


def python_blocks(page: Path) -> list[Block]:
    """The page's ```python blocks, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, index = [], 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        index += 1
        if opening is None:
            continue
        indent, fence = opening["indent"], opening["fence"]
        language = (opening["info"].split() or [""])[0].lstrip(".{").lower()
        body, start = [], index
        while index < len(lines) and not re.match(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", lines[index]):
            line = lines[index]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1  # the closing fence
        if language in _PYTHON:
            code = "\n".join(body) + "\n"
            first = body[0].strip() if body else ""
            app = APP.match(first)
            blocks.append(Block(start + 1, code, run=not NOT_RUN.match(first), app=app[1] if app else None))
    return blocks


def run_page(page: Path, cwd: Path, *, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the page's Python blocks in a fresh process (this module, as a script) in `cwd`, offline: the checkout on
    sys.path, and none of the copilot's settings or keys in the environment."""
    request = json.dumps({"page": str(page), "blocks": [asdict(block) for block in python_blocks(page)]})
    return subprocess.run(
        [sys.executable, __file__], input=request, cwd=cwd, env=_offline(), capture_output=True, text=True, timeout=timeout
    )


def _offline() -> dict[str, str]:
    """This environment without the copilot's settings and the keys of providers and agents."""
    unset = ("COPILOT_", "OPENAI_", "ANTHROPIC_", "REDIS_URL", "REFLEX_REDIS_URL")
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(unset) and not name.endswith(("_API_KEY", "_TOKEN"))
    }
    return {**kept, "PYTHONPATH": os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH", "")]))}


def _run(request: dict) -> None:
    """Run a page's blocks in order in one fresh __main__ module; tracebacks name the page and its lines."""
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    made: set[str] = set()  # app modules the page's own blocks make
    for block in request["blocks"]:
        # Line numbers in a traceback are the page's own: the code is padded to where it starts.
        code = compile("\n" * (block["line"] - 1) + block["code"], request["page"], "exec", dont_inherit=True)
        if not block["run"]:
            continue
        namespace = main.__dict__
        if block["app"]:
            namespace = vars(_app_module(block["app"], made))
        exec(code, namespace)


def _app_module(name: str, made: set[str]) -> types.ModuleType:
    """The app module a fragment belongs to: the checkout's, imported; else the one the page's fragments make."""
    if name not in made:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name is None or not name.startswith(missing.name):
                raise  # the module exists and fails to import: that is the page's error
        made.add(name)
        parent = None
        for depth, part in enumerate(name.split(".")):
            path = ".".join(name.split(".")[: depth + 1])
            module = sys.modules.get(path)
            if module is None:
                module = sys.modules[path] = types.ModuleType(path)
                module.__path__ = []  # a package, as far as importing its children goes
                if parent is not None:
                    setattr(parent, part, module)
            parent = module
    return sys.modules[name]


if __name__ == "__main__":
    _run(json.loads(sys.stdin.read()))
