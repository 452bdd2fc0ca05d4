"""``python -m cassino.cli``: the ``cassino`` command without its console script (tests start servers so)."""

from __future__ import annotations

import sys

from . import main

sys.exit(main())
