"""Where a turn runs (the fourth layer of the Reflex binding): the turn of a tab's thread in this process, or on
another worker over Redis; keeping the thread in the store; what a turn's tools reach of the tab. The person's
tab is reached only through a `Tab` (`_tab.py`), which the top layer implements."""

from . import _at_exit as at_exit
from . import _remote as remote
from . import _thread_runs as thread_runs
from ._browser_answers import deliver as deliver_browser_answer
from ._browser_answers import without_browser
from ._cluster import cluster, worker
from ._keeping import KEPT_EVERY, Keeper, cut_off, load, resumed, saving, written
from ._session_states import SessionStates
from ._tab import Refused, Tab
from ._work import Decide, Edit, Regenerate, Request, Retry, SendMessage, page_context, work

__all__ = [
    "KEPT_EVERY",
    "Decide",
    "Edit",
    "Keeper",
    "Refused",
    "Regenerate",
    "Request",
    "Retry",
    "SendMessage",
    "SessionStates",
    "Tab",
    "at_exit",
    "cluster",
    "cut_off",
    "deliver_browser_answer",
    "load",
    "page_context",
    "remote",
    "resumed",
    "saving",
    "thread_runs",
    "without_browser",
    "work",
    "worker",
    "written",
]
