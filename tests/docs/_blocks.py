"""The docs' Python code blocks: found in a page, and run the way the docs' rule says.

All ```python blocks of one page run in order, in one fresh Python process, as one script (like the
cells of a notebook): cwd a temporary folder, the checkout on sys.path, no server, no model, no network. The
process is forked from one that has imported Reflex, the copilot and pydantic-ai and nothing else (`_Forks`), as a
page that imports them first would find them, without paying for those imports again on every page.
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
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
import types
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NoReturn

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
    """Run the page's Python blocks in a fresh process in `cwd`, offline: the checkout on sys.path, and none of the
    copilot's settings or keys in the environment. Killed after `timeout` seconds."""
    request = {"page": str(page), "blocks": [asdict(block) for block in python_blocks(page)]}
    return _FORKS.run(request, cwd, timeout)


class _Forks:
    """A process that has imported what pages import (this module, as a script, with `--forks`), forking one child per
    page; its stdin takes a request per line, its stdout says each child's exit code."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def run(self, request: dict[str, Any], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
        with self._lock, tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder) / "out", Path(folder) / "err"
            line = json.dumps({**request, "cwd": str(cwd), "out": str(out), "err": str(err), "timeout": timeout})
            process = self._started()
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(line + "\n")
            process.stdin.flush()
            answer = next((told for told in process.stdout if told.startswith(_EXITED)), None)
            if answer is None:
                self._process = None
                raise RuntimeError(f"the process that forks the pages' processes died (exit {process.wait()})")
            code = int(answer.removeprefix(_EXITED))
            return subprocess.CompletedProcess(
                [sys.executable, __file__], code, out.read_text(errors="replace"), err.read_text(errors="replace")
            )

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [sys.executable, __file__, "--forks"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=tempfile.gettempdir(),
                env=_offline(),
                text=True,
            )
        return self._process


_FORKS = _Forks()
_EXITED = "exited "  # the line of the forking process that gives a child's exit code
PRELOADED = ("reflex", "copilot_ui.state", "copilot_ui.components", "pydantic_ai")


def _fork_pages() -> None:
    """The forking process: for each request on stdin, a child runs the page (`_run`), its output in the files named."""
    for module in PRELOADED:
        importlib.import_module(module)
    for line in sys.stdin:
        request = json.loads(line)
        child = os.fork()
        if child == 0:
            _child(request)
        _, status = os.waitpid(child, 0)
        print(f"{_EXITED}{os.waitstatus_to_exitcode(status)}", flush=True)


def _child(request: dict[str, Any]) -> NoReturn:
    code = 0
    try:
        signal.alarm(max(1, int(request["timeout"])))  # (its default action ends the child)
        os.chdir(request["cwd"])
        for fd, path, mode in ((0, os.devnull, os.O_RDONLY), (1, request["out"], _WRITE), (2, request["err"], _WRITE)):
            os.dup2(os.open(path, mode), fd)
        sys.stdin, sys.argv = open(os.devnull), [__file__]  # noqa: SIM115 (the child's, until it exits)
        _run(request)
    except SystemExit as exited:  # as a script ends on it: its code, or its message and 1
        code = exited.code if isinstance(exited.code, int) else 0 if exited.code is None else 1
        if not isinstance(exited.code, int | None):
            print(exited.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


_WRITE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


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
    _fork_pages()
