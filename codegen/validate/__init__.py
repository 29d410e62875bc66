"""Checks that report every mistake of a native_functions.yaml at once.

Each check reads the model and adds diagnostics; none raises.  The per-entry checks
run on the entries as written; the file checks run after autogen and grouping.
"""

from codegen.validate.entry_checks import check_entry
from codegen.validate.file_checks import check_file, remove_duplicates
from codegen.validate.schema_checks import check_schema

__all__ = ["check_entry", "check_file", "check_schema", "remove_duplicates"]
