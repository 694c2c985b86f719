"""Compile only what a call needs: the AUC family and the confusion family do not compile each other's kernels.

Each scenario runs in a fresh interpreter and lists the numba dispatchers that hold a compiled
(or cache-loaded) signature afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

_LIST = """
import importlib, json, pkgutil, numba
import streamtk._kernels as K
used = []
for info in pkgutil.walk_packages(K.__path__, "streamtk._kernels."):
    mod = importlib.import_module(info.name)
    for name, obj in vars(mod).items():
        if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.signatures and obj.__module__ == info.name:
            used.append(info.name + "." + name)
print(json.dumps(sorted(set(used))))
"""

SCENARIOS = {
    "auc_curves": (
        "from streamtk.evaluation.scores import auc_curves\n"
        "auc_curves([0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.9], windows=2, fading=0.9)\n"
    ),
    "auc_curves multi": (
        "from streamtk.evaluation.scores import auc_curves\n"
        "auc_curves([0, 1, 2, 1], [[.2, .3, .5], [.1, .8, .1], [.3, .3, .4], [.5, .4, .1]], classes=[0, 1, 2],"
        " windows=2, tumbling=3)\n"
    ),
    "evaluate": ("import streamtk\nstreamtk.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], windows=[2], fading=[0.9])\n"),
}


def _compiled(code: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code + _LIST], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_each_call_compiles_only_its_family(scenario):
    used = _compiled(SCENARIOS[scenario])
    auc = [u for u in used if u.startswith(("streamtk._kernels.auc.", "streamtk._kernels.fenwick."))]
    confusion = [u for u in used if u.startswith("streamtk._kernels.confusion.")]
    if scenario == "evaluate":
        assert confusion and not auc, used
    else:
        assert auc and not confusion, used
        assert not [u for u in used if "adwin" in u], used  # no adwin= asked
        if scenario == "auc_curves multi":  # class scores: the general kernel only
            assert not [
                u for u in auc if u.startswith(("streamtk._kernels.auc.binary", "streamtk._kernels.auc.offline"))
            ]
        else:  # binary scores on the fast path; a five-instance stream never takes the offline path
            assert "streamtk._kernels.auc.binary.run" in auc
            assert not [
                u for u in auc if u.startswith(("streamtk._kernels.auc.general.run", "streamtk._kernels.auc.offline"))
            ]
