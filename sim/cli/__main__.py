"""``python -m sim.cli``: the same as the ``tablesim`` command."""

import sys

from . import main

if __name__ == "__main__":  # importing this module (e.g. to check that it imports) runs nothing
    sys.exit(main())
