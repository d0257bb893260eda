"""``python -m sim.cli``: the same as the ``tablesim`` command."""

import sys

from . import main

sys.exit(main())
