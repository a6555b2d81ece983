"""A second built-in agent for the browser tests on OpenAI's wire (COPILOT_EXTRA_MODULES): the app's default agent
speaks OpenAI's Responses API (COPILOT_MODEL=openai:gpt-4o), this one its Chat Completions API, at the same base URL."""

from __future__ import annotations

import copilot_ui as cui
from copilot_ui.server import builtin_agent

CHAT_COMPLETIONS = "chat-completions"

cui.copilot.agents.register(builtin_agent("openai-chat:gpt-4o", agent_id=CHAT_COMPLETIONS, description="Chat Completions"))
