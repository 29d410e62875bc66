"""Selective builds: which operators a library keeps (see selector.py)."""
