"""Scripts that regenerate the specification papers' figures and tables with streamtk.

``python -m paper_figures.make_all [--quick] [--out DIR] [--data DIR]`` (or
:func:`paper_figures.make_all.main`) runs every script and writes ``REPORT.md``; see README.md.
"""
