"""An app pays at start only for the clients it uses: MCP's and OpenAI's cost every start (`make run`, each hot reload,
each worker) about a second and half a second, so the app that names no MCP server and no model on an
OpenAI-compatible server does not import them."""

from __future__ import annotations

import json
import os

from tests._processes import python_prints

CLIENTS = ("fastmcp", "mcp", "openai")

REPORT_CLIENTS = """
import json, sys
{code}
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}} & set({clients!r}))))
"""


def clients_after(code: str) -> list[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("COPILOT_")}
    return json.loads(python_prints(REPORT_CLIENTS.format(code=code, clients=CLIENTS), environment))


def test_the_demo_app_on_the_demo_model_imports_neither_client():
    assert clients_after("import copilot_ui.copilot_ui") == []


def test_an_app_that_names_an_mcp_server_and_a_compatible_model_gets_both():
    code = (
        "import copilot_ui as cui\n"
        "cui.mcp_server('notes', command='notes-server')\n"
        "cui.compatible_model('llama3.1', 'http://127.0.0.1:11434/v1')"
    )
    assert clients_after(code) == ["fastmcp", "mcp", "openai"]
