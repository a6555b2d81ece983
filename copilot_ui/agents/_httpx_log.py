"""httpx's own request log, without the credentials an agent's URL may hold.

httpx logs every request's URL at INFO ("HTTP Request: POST http://user:password@host/run?key=…").
For the URLs of agents, the filter installed here puts the credential-free form in its place; the
requests of everything else that uses httpx are logged as httpx logs them.
"""

from __future__ import annotations

import logging

import httpx

from ._urls import logged_url


class AgentURLFilter(logging.Filter):
    """Replaces an agent's URL among a log record's arguments with its credential-free form."""

    def __init__(self) -> None:
        super().__init__()
        self._logged: dict[str, str] = {}  # the URL as httpx writes it -> as the log keeps it

    def hide(self, url: str) -> None:
        """Log this URL credential-free from now on."""
        try:
            written = str(httpx.URL(url))
        except (httpx.InvalidURL, TypeError):  # httpx refuses it too: it is never requested, never logged
            return
        if written not in self._logged:
            self._logged[written] = logged_url(url)

    def filter(self, record: logging.LogRecord) -> bool:
        if self._logged and isinstance(record.args, tuple):
            record.args = tuple(self._logged.get(str(arg), arg) if isinstance(arg, httpx.URL) else arg for arg in record.args)
        return True


_FILTER = AgentURLFilter()
logging.getLogger("httpx").addFilter(_FILTER)


def hide_in_httpx_log(url: str) -> None:
    """httpx will log requests to this URL without its user, password or query values."""
    _FILTER.hide(url)
