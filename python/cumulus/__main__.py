import sys

from cumulus.cli import main

sys.exit(main())
