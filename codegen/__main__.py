"""`python3 -m codegen ...`: see codegen/cli.py."""

import sys

from codegen.cli import main

sys.exit(main())
