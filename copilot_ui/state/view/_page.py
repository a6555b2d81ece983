"""The fixed ids of the copilot's parts on the page, which its scripts and events reach (one copilot per page)."""

COMPOSER_INPUT_ID = "cui-message"  # the message box: focused after a decision, refilled with what Stop handed back
