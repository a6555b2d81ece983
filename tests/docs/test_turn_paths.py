"""The contributors' page "How a turn runs" (docs/reference/how-a-turn-runs.md) stays true to the code: every function
it names exists where it says, each of the three paths lists its steps, and what it counts of a path (its files, its
returns, how often it enters a file) is what its steps make."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import re
from collections import Counter
from pathlib import Path

import pytest

from ._blocks import CHECKOUT

PAGE = CHECKOUT / "docs" / "reference" / "how-a-turn-runs.md"
PATHS = (
    "Enter in the message box → the agent's first words",
    "A frontend tool call → its result → the follow-up run",
    "Approve in the dialog → the tool runs once → the follow-up",
)
# `copilot_ui.core._loop:RunLoop.send` (module : qualified name) or `copilot_ui/components/cui_text.jsx:append`.
REFERENCE = re.compile(r"`(copilot_ui(?:\.\w+)*):(\w+(?:\.\w+)*)`|`(copilot_ui/[\w/]+\.jsx):(\w+)`")
STEP = re.compile(r"^\d+\. (`[^`]+`)", re.MULTILINE)  # a numbered step at the list's top level: its function first
COUNTED = re.compile(r"passes through \*\*(\d+) files\*\* and returns \*\*(\d+) times\*\*")
# Steps a remote agent takes instead of the numbered steps above them (`HttpAgent` in place of the built-in agent).
INSTEAD = re.compile(r"^    - (`[^`]+`)", re.MULTILINE)
REPLACED = re.compile(r"these instead of the (\w+) steps above")  # how many of those numbered steps
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5}
# The demo app: importing it makes its rx.App, and a process holds one (the testing kit's may be it), so it is read.
APP_MODULE = "copilot_ui.copilot_ui"
ENTERED = re.compile(r"`([\w/]+\.(?:py|jsx))` (\d+) times")  # a file of copilot_ui/ and how often the path enters it


def page_text() -> str:
    return PAGE.read_text(encoding="utf-8")


def references(text: str) -> list[tuple[str, str]]:
    """Every (file or module, name) the text names in the fixed form, in order."""
    return [(match[1] or match[3], match[2] or match[4]) for match in REFERENCE.finditer(text)]


def problem(where: str, name: str) -> str | None:
    """Why the reference does not hold (None when it does)."""
    if where.endswith(".jsx"):
        source = CHECKOUT / where
        if not source.is_file():
            return "no such file"
        definition = rf"\b(?:function\s+{name}\s*\(|(?:const|let|var)\s+{name}\s*=)"
        return None if re.search(definition, source.read_text(encoding="utf-8")) else f"no function or const {name}"
    if where == APP_MODULE:
        tree = ast.parse(source_of(where).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        return None if name in defined else f"{name!r} not defined at the top of {source_of(where).name}"
    try:
        found: object = importlib.import_module(where)
    except ImportError as error:
        return f"the module does not import ({error})"
    for part in name.split("."):
        if not hasattr(found, part):
            return f"{part!r} not found"
        found = getattr(found, part)
    code = getattr(found, "fn", found)  # a Reflex event handler holds its function in `fn`
    if inspect.isfunction(code) or inspect.isclass(code):
        defined = f"{code.__module__}:{code.__qualname__}"
        if defined != f"{where}:{name}":
            return f"it is defined as {defined}"  # the page must name where a reader finds the code
    return None


def file_of(reference: str) -> str:
    """The file of the checkout a step's reference is in."""
    (where, _), *_ = references(reference)
    if where.endswith(".jsx"):
        return where
    return str(source_of(where).relative_to(CHECKOUT))


def source_of(module: str) -> Path:
    """The module's file, found without importing the module itself."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, f"no module {module}"
    return Path(spec.origin).resolve()


def section(text: str, heading: str) -> str:
    """The text under the `## <heading>` of the page, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match is not None, f"{PAGE.name} has no section '## {heading}'"
    return match[1]


def walk(steps: list[str]) -> tuple[int, int]:
    """The files a path passes through, and how often it comes back to one it had left."""
    files = [file_of(step) for step in steps]
    returns = sum(1 for i in range(1, len(files)) if files[i] != files[i - 1] and files[i] in files[:i])
    return len(set(files)), returns


def entries(steps: list[str]) -> Counter[str]:
    """How often the path enters each file (from another, or at its start)."""
    files = [file_of(step) for step in steps]
    return Counter(file for i, file in enumerate(files) if i == 0 or files[i - 1] != file)


def test_every_function_the_page_names_exists() -> None:
    named = references(page_text())
    assert len(named) >= 30, f"{PAGE.name} names {len(named)} functions in the form `module:name`"
    wrong = [f"{where}:{name}: {why}" for where, name in dict.fromkeys(named) if (why := problem(where, name)) is not None]
    assert not wrong, f"{PAGE.name} names functions that are not in the code:\n" + "\n".join(wrong)


@pytest.mark.parametrize("heading", PATHS)
def test_each_path_lists_its_steps(heading: str) -> None:
    steps = STEP.findall(section(page_text(), heading))
    assert steps, f"the path '{heading}' lists no step (a numbered line that starts with `module:name`)"
    assert all(references(step) for step in steps), f"a step of '{heading}' does not start with a function"


@pytest.mark.parametrize("heading", PATHS)
def test_each_path_counts_the_files_and_returns_of_its_steps(heading: str) -> None:
    text = section(page_text(), heading)
    counted = COUNTED.search(text)
    assert counted is not None, f"the path '{heading}' does not say how many files it passes through"
    stated = int(counted[1]), int(counted[2])
    steps = STEP.findall(text)
    alternative = INSTEAD.search(text)
    if alternative is not None:  # the path with the other agent is counted too, in a second such sentence
        last = len(STEP.findall(text[: alternative.start()]))
        replaced = REPLACED.search(text)
        assert replaced is not None, f"'{heading}' does not say how many steps the other agent's replace"
        other = walk([*steps[: last - NUMBERS[replaced[1]]], *INSTEAD.findall(text), *steps[last:]])
        said = [(int(files), int(returns)) for files, returns in COUNTED.findall(text)[1:2]]
        assert said == [other], f"'{heading}' with the other agent: its steps make {other}, the page says {said}"
    walked = walk(steps)
    assert stated == walked, f"'{heading}' says {stated[0]} files and {stated[1]} returns; its steps make {walked}"
    entered = entries(steps)
    wrong = [
        f"{name}: {times} times stated, {entered[f'copilot_ui/{name}']} made"
        for name, times in ENTERED.findall(text)
        if entered[f"copilot_ui/{name}"] != int(times)
    ]
    assert not wrong, f"'{heading}' counts entries its steps do not make:\n" + "\n".join(wrong)
