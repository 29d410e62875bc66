"""Emitters: one module per kind of generated file, fed by `codegen.dest.library`."""
