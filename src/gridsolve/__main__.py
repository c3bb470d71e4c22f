"""``python -m gridsolve``: the command line."""

import sys

from gridsolve.cli import main

sys.exit(main())
