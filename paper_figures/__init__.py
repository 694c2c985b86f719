"""Every figure and table of the five seed papers, regenerated with streamtk, each with an honest verdict.

``python -m paper_figures.make_all [--quick] [--out DIR] [--data DIR]`` (from a source checkout),
``streamtk figures`` or ``python -m streamtk.paper_figures.make_all`` (after ``pip install``), or
:func:`make_all.main` run every script and write ``REPORT.md``; see README.md for the inventory, the
producers of the logs (MOA through capymoa, else river) and the verdicts.
"""
