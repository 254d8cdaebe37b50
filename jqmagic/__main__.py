"""``python -m jqmagic`` runs the command line."""

import sys

from jqmagic.cli import main

sys.exit(main())
