"""Package layout beyond pyproject.toml: the figure scripts of the top-level ``paper_figures/`` folder are
installed as ``streamtk.paper_figures`` (with their Java loop source and README), so that ``streamtk figures``
works after a regular ``pip install .``. Everything else is configured in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["streamtk", "streamtk.*"]) + ["streamtk.paper_figures"],
    package_dir={"streamtk.paper_figures": "paper_figures"},
    package_data={"streamtk.paper_figures": ["java/*.java", "README.md"]},
)
