"""`python -m bench` (what `make bench` runs)."""

import sys

from .cli import main

sys.exit(main())
