"""The docs' Python code blocks: found in a page, and run the way the docs' rule says.

All ```python blocks of one page run in order, in one fresh Python process, as one script (like the
cells of a notebook): cwd a temporary folder, the checkout on sys.path, no server, no model, no network.
A block whose first line is `# not run: <reason>` is only compiled (code that needs a running server,
a browser or a model key). A block whose first line is `# app: <module>` is a fragment of that app
module: it runs in the module's namespace, once the module is imported. Blocks in other languages
are not run.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

NOT_RUN = re.compile(r"#\s*not run:\s*\S")
APP = re.compile(r"#\s*app:\s*([\w.]+)\s*$")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_PYTHON = {"python", "py"}


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


def runner_input(page: Path, blocks: list[Block]) -> str:
    """What the runner (this module, run as a script) reads on stdin."""
    return json.dumps({"page": str(page), "blocks": [asdict(block) for block in blocks]})


def _run(request: dict) -> None:
    """Run a page's blocks in order in one fresh __main__ module; tracebacks name the page and its lines."""
    import importlib
    import types

    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    for block in request["blocks"]:
        # Line numbers in a traceback are the page's own: the code is padded to where it starts.
        code = compile("\n" * (block["line"] - 1) + block["code"], request["page"], "exec", dont_inherit=True)
        if not block["run"]:
            continue
        namespace = vars(importlib.import_module(block["app"])) if block["app"] else main.__dict__
        exec(code, namespace)


if __name__ == "__main__":
    _run(json.loads(sys.stdin.read()))
