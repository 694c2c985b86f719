"""Reports of results: text tables (and, later, LaTeX / Markdown / HTML)."""

from .tables import comparison_table, detector_table, summary_table

__all__ = ["comparison_table", "detector_table", "summary_table"]
