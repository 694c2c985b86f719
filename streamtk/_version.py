"""Single source of the package version (also recorded in every output's attrs)."""

__version__ = "0.1.0"
