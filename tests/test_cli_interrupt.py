"""Ctrl-C in the command line: exit status 130, "interrupted" on stderr, no traceback, no output file.

The subprocess test sends a real SIGINT once the progress bar is up, with an empty kernel cache:
numba then compiles the kernels, and an interrupt raised inside its compiler used to be swallowed
(the run went on and printed its table), or to end in ``RuntimeError: no compiled object yet`` or a
segmentation fault. The in-process tests pin the two mechanisms: an interrupt that a library
swallows is raised again at the next chunk, and one that arrives while numba compiles is raised
when the compilation ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from streamtk.cli import main

ROOT = Path(__file__).resolve().parents[1]
MAIN_THREAD = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(), reason="signals are delivered to the main thread only"
)


def _write_log(path, n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.8, y, 1 - y)
    with open(path, "w") as fh:
        fh.write("y_true,y_pred\n")
        np.savetxt(fh, np.column_stack([y, pred]), fmt="%d", delimiter=",")


def _leftovers(folder, name):
    return sorted(p.name for p in Path(folder).iterdir() if name in p.name)


@pytest.mark.slow
def test_sigint_while_the_kernels_compile_exits_130_without_output(tmp_path):
    log = tmp_path / "run.csv"
    _write_log(log, 300_000)
    out = tmp_path / "curves.nc"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(STREAMTK_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(ROOT), NUMBA_NUM_THREADS="1")  # cold cache
    cmd = [sys.executable, "-m", "streamtk", "evaluate", str(log), "--every", "1", "--progress", "-o", str(out)]
    err = bytearray()
    bar_up = threading.Event()
    with subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:

        def read_stderr():
            while chunk := os.read(proc.stderr.fileno(), 4096):
                err.extend(chunk)
                if b"evaluate:" in err:
                    bar_up.set()
            bar_up.set()

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        try:
            assert bar_up.wait(timeout=240), "the progress bar never appeared"
            for _ in range(400):  # Ctrl-C, again and again (as users do) until it stops; generous bound
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(timeout=0.5)  # the kernel being compiled is finished first
                    break
                except subprocess.TimeoutExpired:
                    pass
            stdout = proc.stdout.read().decode()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            reader.join(timeout=10)
    text = err.decode(errors="replace")
    assert proc.returncode == 130, (proc.returncode, text[-2000:], stdout[-500:])
    assert "streamtk evaluate: interrupted" in text
    assert "Traceback" not in text and "Error" not in text, text[-2000:]
    assert "accuracy" not in stdout, stdout  # no result table
    assert _leftovers(tmp_path, "curves") == []  # neither the file nor a temporary


@MAIN_THREAD
def test_an_interrupt_a_library_swallowed_stops_at_the_next_chunk(tmp_path, monkeypatch, capsys):
    from streamtk.evaluation.curves import Evaluator

    log = tmp_path / "run.csv"
    _write_log(log, 3000)
    update = Evaluator.update

    def swallowing_update(self, *args, **kwargs):
        try:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C arrives inside a library ...
        except KeyboardInterrupt:
            pass  # ... which swallows it (as an exception in a __del__ or a C callback is)
        return update(self, *args, **kwargs)

    monkeypatch.setattr(Evaluator, "update", swallowing_update)
    out = tmp_path / "curves.nc"
    before = signal.getsignal(signal.SIGINT)
    rc = main(["evaluate", str(log), "--chunk-size", "1000", "-o", str(out)])
    captured = capsys.readouterr()
    assert rc == 130 and captured.err.strip() == "streamtk evaluate: interrupted", captured
    assert "accuracy" not in captured.out
    assert _leftovers(tmp_path, "curves") == []
    assert signal.getsignal(signal.SIGINT) is before  # restored after the command


@MAIN_THREAD
def test_an_interrupt_during_a_numba_compilation_is_raised_when_it_ends():
    from numba.core.compiler_lock import global_compiler_lock

    from streamtk.cli import _interrupt

    with pytest.raises(KeyboardInterrupt):
        with _interrupt.catching():
            with global_compiler_lock:  # as numba holds it while it compiles
                signal.raise_signal(signal.SIGINT)
                time.sleep(0.2)  # not raised in here: LLVM's state would be left broken
                left_compiler = True
            time.sleep(5)  # raised here, once the lock is released
    assert left_compiler


def test_sigint_while_streamtk_is_imported_exits_130_without_a_traceback(tmp_path):
    # numba and xarray take about a second to import: a Ctrl-C then used to print a KeyboardInterrupt
    # traceback of the import machinery and exit -2
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    probe = [sys.executable, "-X", "importtime", "-c", "import streamtk"]
    took = subprocess.run(probe, cwd=tmp_path, env=env, capture_output=True, text=True)
    total = max(int(line.split("|")[1]) for line in took.stderr.splitlines() if "| streamtk" in line) / 1e6
    cmd = [sys.executable, "-m", "streamtk", "evaluate", "--help"]
    with subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        time.sleep(min(0.3, total / 3))  # well inside the import (its cumulative time measured above)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    text = err.decode(errors="replace")
    assert proc.returncode == 130, (proc.returncode, text[-2000:])
    assert "streamtk evaluate: interrupted" in text
    assert "Traceback" not in text, text[-2000:]
    assert b"usage" not in out  # stopped before the command ran


def test_importing_streamtk_as_a_library_keeps_python_s_interrupt_handler():
    code = "import signal, streamtk; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    assert r.stdout.strip() == "True", r.stderr
