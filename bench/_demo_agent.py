"""The demo app's own agent (the built-in agent on the demo model, with the demo's backend tools and shared state)
served over AG-UI in a process of its own: `python -m bench._demo_agent --port N`.

`bench.load --remote-agent` points the app at it (COPILOT_AGENT_URL), to measure what the app's worker
spends on a remote agent's stream, and what the agent's own process spends beside it.
"""

from __future__ import annotations

import argparse

import uvicorn

from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import agent_from_environment, agui_app


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench._demo_agent", description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    agent = agent_from_environment("default", tools=demo_backend_tools(), state_type=AgentReport, demo_script=DASHBOARD)
    uvicorn.run(agui_app(agent), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
