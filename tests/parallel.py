"""`make test`: every test, in three pytest processes side by side (one process leaves the machine's cores waiting
on streamed replies).

Two processes share the browser ring's modules (`tests/browser`), run by pytest-xdist: each takes the next module when
it is done with one, and serves the app from build folders of its own (named after its xdist worker; servings whose
pages compile the same share one build, see `tests/browser/_shared_builds.py`); the third runs every other ring.
Every line they print is shown as it comes, after the name of its lane. A `--junitxml` in PYTEST_ADDOPTS (CI's) gets
the reports in one file. With arguments, this is `pytest` with them, in one process.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSER_RING = "tests/browser"
BROWSER_WORKERS = 2
JUNIT = re.compile(r"--junit-?xml(?:=|\s+)(\S+)")


@dataclass(frozen=True)
class Lane:
    """One pytest process (the browser lane's starts its xdist workers): its name and what it runs."""

    name: str
    arguments: list[str]


def lanes() -> list[Lane]:
    return [
        Lane("others", ["-m", "not browser or embedding"]),
        # (pytest-xdist: a worker that is done with a module takes the next, so that both end at about the same time)
        Lane("browser", ["-n", str(BROWSER_WORKERS), "--dist", "loadfile", BROWSER_RING]),
    ]


def main(arguments: list[str]) -> int:
    if arguments:
        return subprocess.call([sys.executable, "-m", "pytest", *arguments], cwd=ROOT)
    options = os.environ.get("PYTEST_ADDOPTS", "")
    report = JUNIT.search(options)
    options = JUNIT.sub("", options)
    started = time.monotonic()
    running: list[tuple[Lane, subprocess.Popen[str], threading.Thread]] = []
    for lane in lanes():
        own_report = [f"--junitxml={_lane_report(report.group(1), lane)}"] if report else []
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", *own_report, *lane.arguments],
            cwd=ROOT,
            env={**os.environ, "PYTEST_ADDOPTS": options},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        relay = threading.Thread(target=_relay, args=(lane.name, process), daemon=True)
        relay.start()
        running.append((lane, process, relay))
    codes: dict[str, int] = {}
    for lane, process, relay in running:
        codes[lane.name] = process.wait()
        relay.join()
    if report:
        _merge([_lane_report(report.group(1), lane) for lane, _, _ in running], Path(report.group(1)))
    minutes, seconds = divmod(round(time.monotonic() - started), 60)
    verdicts = ", ".join(f"{name} {'passed' if code == 0 else f'FAILED (exit {code})'}" for name, code in codes.items())
    print(f"make test: {verdicts}, in {minutes} min {seconds} s", flush=True)
    return max(codes.values())


def _relay(name: str, process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        sys.stdout.write(f"[{name}] {line}")
        sys.stdout.flush()


def _lane_report(path: str, lane: Lane) -> Path:
    report = Path(path)
    return report.with_name(f"{report.stem}.{lane.name.replace(' ', '-')}{report.suffix}")


def _merge(reports: list[Path], into: Path) -> None:
    """The lanes' JUnit reports as one: a <testsuites> of their suites (a lane that wrote none adds none)."""
    merged = ElementTree.Element("testsuites")
    for report in reports:
        if report.exists():
            root = ElementTree.parse(report).getroot()
            merged.extend([root] if root.tag == "testsuite" else list(root))
    into.parent.mkdir(parents=True, exist_ok=True)
    ElementTree.ElementTree(merged).write(into, encoding="utf-8", xml_declaration=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
