"""Loaded by every Python process of an app `python -m bench.load --profile` serves (this folder is first on its
PYTHONPATH): bench/_layers.py samples the workers it forks and bench/_timeline.py times their messages, when
LOAD_PROFILE_DIR names where they write."""

import os

if os.environ.get("LOAD_PROFILE_DIR"):
    from bench import _layers, _timeline

    _layers.start(os.environ["LOAD_PROFILE_DIR"])
    _timeline.start(os.environ["LOAD_PROFILE_DIR"])
