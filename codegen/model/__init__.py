"""The data model of native_functions.yaml: schemas, entries, groups, autogen."""
