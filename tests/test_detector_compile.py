"""Compile only what a call needs: detectors and ADWIN are compiled when asked for, and only their specialisation.

Each check runs in a fresh interpreter (this test session has compiled everything already) and reads
which kernel entry points got a compiled (or cache-loaded) signature.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_PROBE = r"""
import json, sys, numpy as np
y = np.random.default_rng(0).integers(0, 2, 400)
p = np.where(np.random.default_rng(1).random(400) < 0.8, y, 1 - y)
err = (y != p).astype(float)
exec(sys.argv[1])
from streamtk._kernels import adwin as A
from streamtk._kernels.detectors import ddm as KD, eddm as KE, page_hinkley as KP
entry = {"adwin_run": A.adwin_run, "adwin_run_one": A.adwin_run_one, "adwin_update": A.adwin_update,
         "page_hinkley": KP.run, "ddm": KD.run, "eddm": KE.run}
print(json.dumps({k: [[str(t) for t in sig] for sig in f.signatures] for k, f in entry.items()}))
"""


def _compiled(code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _PROBE, code], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_evaluate_compiles_no_detector_and_no_adwin():
    sigs = _compiled("import streamtk; streamtk.evaluate(y, p, windows=[100], fading=[0.99])")
    assert all(not v for v in sigs.values()), sigs


@pytest.mark.slow
def test_a_detector_compiles_only_itself():
    sigs = _compiled("from streamtk.drift import ddm; ddm(err)")
    assert len(sigs["ddm"]) == 1 and not any(sigs[k] for k in sigs if k != "ddm"), sigs
    sigs = _compiled("from streamtk.drift import adwin; adwin(err)")
    assert sigs["adwin_run_one"] and not any(sigs[k] for k in ("page_hinkley", "ddm", "eddm", "adwin_update")), sigs
    assert not sigs["adwin_run"], sigs  # one stream: the loop kernel alone, not the driver over leads
    sigs = _compiled("from streamtk.drift import adwin; adwin(np.stack([err, err]))")
    assert sigs["adwin_run"] and not any(sigs[k] for k in ("page_hinkley", "ddm", "eddm", "adwin_update")), sigs


@pytest.mark.slow
def test_a_single_page_hinkley_setting_compiles_no_lanes():
    # the lanes' arguments are None: numba drops the lane code from this specialisation
    sigs = _compiled("from streamtk.drift import page_hinkley; page_hinkley(err, fading=0.99)")
    (sig,) = sigs["page_hinkley"]
    assert sig[7] == sig[8] == "none" and not sigs["ddm"], sig
    sigs = _compiled("from streamtk.drift import page_hinkley; page_hinkley(err, windows=[5, 6, 7, 8], delta=[0, 0.1])")
    (sig,) = sigs["page_hinkley"]
    assert sig[7] != "none" and sig[8] == "none", sig  # the x-lanes, and only them
