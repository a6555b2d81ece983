"""What of an agent's URL is shown where: its host to the person, a credential-free URL to the server log.

A URL may hold credentials (a user and password, a key in its query) and its path may say more
than a person needs; errors reach people, so they name only the host.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ._secrets import MARKER


def agent_host(url: str) -> str:
    """The host of a URL, with its port when the URL names one: `agent.example.com`, `127.0.0.1:8123`."""
    try:
        parts = urlsplit(url if "//" in url else f"//{url}")  # "localhost:8000/run" is a host too
        host, port = parts.hostname, parts.port
    except ValueError:
        return "(an invalid URL)"
    if not host:
        return "(a URL without a host)"
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return host if port is None else f"{host}:{port}"


def logged_url(url: str) -> str:
    """The URL as the server log keeps it: no user or password, and every query value replaced."""
    try:
        parts = urlsplit(url if "//" in url else f"//{url}")
    except ValueError:
        return "(an invalid URL)"
    host = agent_host(url)
    if host.startswith("("):
        return host
    query = urlencode([(name, MARKER) for name, _ in parse_qsl(parts.query, keep_blank_values=True)], safe="[]")
    logged = urlunsplit((parts.scheme, host, parts.path, query, ""))
    return logged.removeprefix("//")
