"""The exceptions copilot_ui raises for an app's developer, under one base:

CopilotUIError
 └── DeclarationError   a declaration the app made is wrong (an option, a name, a card for no tool)
"""

from __future__ import annotations

from collections.abc import Iterable


class CopilotUIError(Exception):
    """Something copilot_ui cannot do as the app asked; the message says what to change."""


# Also a TypeError and a ValueError: what Python and the earlier checks raised for a wrong option, so an app's
# `except TypeError` / `except ValueError` still catches it.
class DeclarationError(CopilotUIError, TypeError, ValueError):
    """A declaration is wrong, found when the app is imported or its page is built: the message names the
    declaration, the option, the value given, what the option takes and the close matches there are."""

    def __init__(self, where: str, problem: str, *, takes: str = "", close: Iterable[str] = ()) -> None:
        self.where = where
        self.problem = problem
        self.takes = takes
        self.close = tuple(close)
        hint = " or ".join(self.close)
        message = f"{where}: {problem}" + (f"; {takes}" if takes else "") + (f". Did you mean {hint}?" if hint else ".")
        super().__init__(message)
