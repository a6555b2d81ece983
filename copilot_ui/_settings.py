"""The copilot's settings in the environment, by name, and a warning for one whose name is misspelt.

A misspelt setting is not read, so it fails open: `COPILOT_MODLE=openai:gpt-4o` leaves the app on the demo model.
Other tools share the prefix (GitHub Copilot's CLI reads COPILOT_GITHUB_TOKEN, COPILOT_ALLOW_ALL…), so only a name
close to one of the copilot's own is taken for a misspelling.
"""

from __future__ import annotations

import difflib
import logging
import os
from collections.abc import Mapping

logger = logging.getLogger("copilot_ui")

SETTINGS = (
    "COPILOT_AGENT_ENDPOINT_MAX_BYTES",
    "COPILOT_AGENT_ENDPOINT_ORIGINS",
    "COPILOT_AGENT_ENDPOINT_TOKEN",
    "COPILOT_AGENT_HEADERS",
    "COPILOT_AGENT_URL",
    "COPILOT_API_KEY",
    "COPILOT_BASE_URL",
    "COPILOT_CLOSED_TAB_SECONDS",
    "COPILOT_DEV_CONSOLE",
    "COPILOT_EXTRA_MODULES",
    "COPILOT_HOME",
    "COPILOT_MAX_TOKENS",
    "COPILOT_MCP_SERVERS",
    "COPILOT_MODEL",
    "COPILOT_MODEL_RETRIES",
    "COPILOT_MODEL_TIMEOUT",
    "COPILOT_RETENTION_DAYS",
    "COPILOT_SECRET",
    "COPILOT_STORE_URL",
    "COPILOT_SYSTEM_PROMPT",
    "COPILOT_TEMPERATURE",
)
_warned: set[str] = set()


def misspelt_settings(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """Each variable set that is no setting of the copilot's but close to one (case aside: the names are read in
    upper case), and that one."""
    misspelt = {}
    for name in environ:
        if name in SETTINGS or not name.upper().startswith("COP"):
            continue
        close = difflib.get_close_matches(name.upper(), SETTINGS, n=1, cutoff=0.85)
        if close:
            misspelt[name] = close[0]
    return misspelt


def warn_of_misspelt_settings(environ: Mapping[str, str] = os.environ) -> None:
    """Log, once a process, each setting whose name is misspelt (it is not read)."""
    for name, meant in misspelt_settings(environ).items():
        if name not in _warned:
            _warned.add(name)
            logger.warning("%s is set, but the copilot has no such setting and does not read it. Did you mean %s?", name, meant)
