"""`python -m copilot_ui`, see copilot_ui/_cli.py."""

import sys

from ._cli import main

sys.exit(main())
