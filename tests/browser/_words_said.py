"""What the trip planner of tests/browser/_words_app.py and its agent say: imported by the tests, which must not import
the app itself (it wraps every label of the process's copilot in ⟦…⟧)."""

LONG_TITLE = "Reiseassistent für lange Wochenenden am Meer"
LONG_MODEL = "openai-responses:gpt-4o-mini-2024-07-18-reisebuero-feinabgestimmt"
REPLY = "Kyoto is lovely in spring."
FAILURE = "Das Reisebüro antwortet nicht."
QUESTION = "How many nights in Kyoto?"
FOLLOW_UP = "Noted, thank you."  # the reply once a call has its result
LONG_REPLY = "Kyoto " * 5000
TASK_PROMPT = "cancel"
