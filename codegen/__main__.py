"""`python3 -m codegen ...`: see codegen/cli.py."""

from codegen.cli import exit_with, main

exit_with(main())
