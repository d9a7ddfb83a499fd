from __future__ import annotations

import sys

from .agent import main

sys.exit(main())
