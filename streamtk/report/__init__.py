"""Reports of results: text tables, and paper tables of many-models comparisons (LaTeX, Markdown, HTML)."""

from .comparison_report import write_report
from .paper_tables import TABLE_FORMATS, results_table, write_table
from .tables import comparison_table, detector_table, summary_table

__all__ = [
    "TABLE_FORMATS",
    "comparison_table",
    "detector_table",
    "results_table",
    "summary_table",
    "write_report",
    "write_table",
]
