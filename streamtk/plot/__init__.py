"""Plotting: every function takes ``ax=None``, returns its artists and imports matplotlib lazily."""
