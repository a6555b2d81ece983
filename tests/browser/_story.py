"""The story the story agent of tests/browser/_app_extras.py tells, for the tests that read it (which must not import
the app extras: they declare tools on the process's copilot)."""

STORY = (
    "Once upon a time a lighthouse keeper counted the ships that passed his rock. Each night he wrote their names "
    "in a blue book, and each morning he read them to the gulls. One winter a ship came by with no name at all, "
    "and the keeper, who had never left his rock, rowed out to ask it where it was going. It was going nowhere, "
    "it said, and it had all the time in the world."
)
STORY_WORD_SECONDS = 0.1  # a word every 100 ms: the story takes about 7 s to tell
