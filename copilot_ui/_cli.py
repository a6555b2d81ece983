"""`python -m copilot_ui`: tools for people debugging an agent server.

python -m copilot_ui replay FILE   verify and apply a recorded stream, print the thread
"""

from __future__ import annotations

import argparse
import json
import sys

from .protocol import ProtocolError, replay


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m copilot_ui", description="copilot_ui tools")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_command = commands.add_parser(
        "replay",
        help="verify and apply a recorded AG-UI stream; print the resulting thread as JSON",
        description="Verify and apply a recorded AG-UI stream (.jsonl: one event a line; .sse: as sent) "
        'to an empty thread and print {"messages": [...], "state": {...}} as camelCase AG-UI JSON.',
    )
    replay_command.add_argument("file", help="a .jsonl or .sse recording")
    args = parser.parse_args(argv)
    return _replay(args.file)


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
