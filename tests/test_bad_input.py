"""The bad-input corpus: every public entry point answers hostile input with a clear, named error.

Each case is one line: ``C(id, call, error type, *needles)``; ``call`` gets the :class:`Files` of
prepared bad inputs; every needle (the argument, flag or file, and the offending value) must be in
the message. ``CLI(id, argv, *needles)`` runs the command line: exit status 2, one line on stderr,
no traceback. A case that a module's owner has still to fix carries ``todo="owner: what"``: it is
a strict xfail, so it fails (and must lose its ``todo``) as soon as the fix lands.

Adding a case: append one line to ``CASES`` or ``CLI_CASES`` (a new bad file: one ``cached_property``).
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xarray as xr

import streamtk
from streamtk import datasets as sds
from streamtk import io as sio
from streamtk._core.labels import as_label_array, check_unmasked, encode_labels
from streamtk.cli import main
from streamtk.drift.ddm import DDM
from streamtk.drift.scoring import match_detections, score_detections
from streamtk.evaluation.scores import auc_curves as _auc_curves
from streamtk.io import LogFormatError
from streamtk.io.atomic import atomic_open, atomic_path
from streamtk.runners.outofcore import evaluate_store
from streamtk.stats import friedman_test, mcnemar_counts, mcnemar_test, sign_test, wilcoxon_test

INT64_OVER = str(2**64 + 1)


class Files:
    """Bad (and a few good) inputs, made on first use in one temporary folder."""

    def __init__(self, root: Path):
        self.root = root

    def _path(self, name) -> Path:
        return self.root / name

    def _text(self, name, text) -> Path:
        p = self._path(name)
        p.write_text(text)
        return p

    @cached_property
    def log(self) -> xr.Dataset:
        rng = np.random.default_rng(0)
        n = 3000
        y = rng.integers(0, 3, n)
        return sio.make_log(y, np.where(rng.random((2, n)) < 0.7, y, 0), models=["a", "b"], weights=rng.random(n))

    @cached_property
    def csv(self) -> Path:
        return sio.write_csv(self.log, self._path("good.csv"))

    @cached_property
    def multilabel_nc(self) -> Path:
        y = np.random.default_rng(2).integers(0, 2, (40, 3))
        return sio.to_netcdf(sio.make_multilabel_log(y, 1 - y, models=["a"]), self._path("ml.nc"))

    @cached_property
    def multilabel_two(self) -> Path:
        return self._text("ml2.csv", "y_true:a,y_true:b,y_pred:m:a,y_pred:m:b\n0,1,0,1\n1,2,1,1\n")

    @cached_property
    def multilabel_half_row(self) -> Path:
        return self._text("mlhalf.csv", "y_true:a,y_true:b,y_pred:m:a,y_pred:m:b\n0,1,0,1\n1,,1,1\n")

    @cached_property
    def trunc_gz(self) -> Path:
        whole = sio.write_csv(self.log, self._path("whole.csv.gz")).read_bytes()
        p = self._path("trunc.csv.gz")
        p.write_bytes(whole[: len(whole) // 2])
        return p

    @cached_property
    def short_row(self) -> Path:
        return self._text("short.csv", "y_true,y_pred\n1,1\n2\n")

    @cached_property
    def bad_weight(self) -> Path:
        return self._text("badw.csv", "y_true,y_pred,weights\n1,1,0.5\n0,1,zero\n")

    @cached_property
    def neg_weight(self) -> Path:
        return self._text("negw.csv", "y_true,y_pred,weights\n1,1,0.5\n0,1,-1\n")

    @cached_property
    def no_y_true(self) -> Path:
        return self._text("noy.csv", "truth,y_pred\n1,1\n")

    @cached_property
    def empty_csv(self) -> Path:
        return self._text("empty.csv", "")

    @cached_property
    def dup_col(self) -> Path:
        return self._text("dup.csv", "y_true,y_pred,y_pred\n1,1,1\n")

    @cached_property
    def huge_label(self) -> Path:
        return self._text("huge.csv", f"y_true,y_pred\n1,1\n{INT64_OVER},1\n")

    @cached_property
    def rounded_label(self) -> Path:
        return self._text("rounded.csv", f"y_true,y_pred\n1.5,1\n{2**53 + 1},1\n")

    @cached_property
    def text_vs_numbers(self) -> Path:
        return self._text("kinds.csv", "y_true,y_pred\n1,a\n2,b\n")

    @cached_property
    def latin1(self) -> Path:
        p = self._path("latin1.csv")
        p.write_bytes("y_true,y_pred\n1,\xe9\n".encode("latin-1"))
        return p

    @cached_property
    def bad_quote(self) -> Path:
        return self._text("quote.csv", 'y_true,y_pred\n1,"a\n')

    @cached_property
    def parquet(self) -> Path:
        return sio.write_parquet(self.log, self._path("good.parquet"))

    @cached_property
    def flipped_parquet(self) -> Path:
        data = bytearray(self.parquet.read_bytes())
        data[len(data) // 3] ^= 0x10  # inside the weights column's pages
        p = self._path("flipped.parquet")
        p.write_bytes(bytes(data))
        return p

    @cached_property
    def not_parquet(self) -> Path:
        return self._text("not.parquet", "hello")

    @cached_property
    def text_weights_parquet(self) -> Path:
        import pyarrow as pa
        import pyarrow.parquet as pq

        p = self._path("textw.parquet")
        pq.write_table(pa.table({"y_true": [1, 0], "y_pred": [1, 1], "weights": ["a", "b"]}), p)
        return p

    @cached_property
    def neg_weight_parquet(self) -> Path:
        import pyarrow as pa
        import pyarrow.parquet as pq

        p = self._path("negw.parquet")
        pq.write_table(pa.table({"y_true": [1, 0, 1], "y_pred": [1, 1, 0], "weights": [1.0, 2.0, -3.0]}), p)
        return p

    @cached_property
    def npz(self) -> Path:
        return sio.write_npz(self.log, self._path("good.npz"))

    @cached_property
    def trunc_npz(self) -> Path:
        p = self._path("trunc.npz")
        p.write_bytes(self.npz.read_bytes()[:200])
        return p

    @cached_property
    def no_y_true_npz(self) -> Path:
        p = self._path("noy.npz")
        np.savez(p, y_pred=np.array([1, 2]))
        return p

    @cached_property
    def extra_npz(self) -> Path:
        p = self._path("extra.npz")
        np.savez(p, y_true=np.array([1, 2]), y_pred=np.array([1, 2]), junk=np.array([0]))
        return p

    @cached_property
    def bad_mask_npz(self) -> Path:
        p = self._path("mask.npz")
        np.savez(p, y_true=np.array(["a", "b"]), y_pred=np.array(["a", "b"]), y_true_missing=np.array([True]))
        return p

    @cached_property
    def nc(self) -> Path:
        return sio.to_netcdf(self.log, self._path("good.nc"))

    @cached_property
    def trunc_nc(self) -> Path:
        p = self._path("trunc.nc")
        p.write_bytes(self.nc.read_bytes()[:3000])
        return p

    @cached_property
    def damaged_nc(self) -> Path:
        """One byte of the weights' stored values flipped (their Fletcher-32 checksum catches it)."""
        data = bytearray(self.nc.read_bytes())
        at = bytes(data).find(self.log.weights.values[100:102].tobytes())
        data[at + 3] ^= 0x01
        p = self._path("damaged.nc")
        p.write_bytes(bytes(data))
        return p

    @cached_property
    def zarr_log(self) -> Path:
        log = self.log
        enc = {
            v: {"chunks": tuple(1000 if d == "time" else s for d, s in zip(log[v].dims, log[v].shape))}
            for v in log.data_vars
        }
        p = self._path("log.zarr")
        log.to_zarr(p, zarr_format=2, encoding=enc, write_empty_chunks=True)
        return p

    @cached_property
    def zarr_missing_chunk(self) -> Path:
        import shutil

        p = self._path("missing.zarr")
        shutil.copytree(self.zarr_log, p)
        (p / "y_true" / "1").unlink()
        return p

    @cached_property
    def incomplete_store(self) -> Path:
        out = self._path("incomplete.zarr")

        def stop(done, total):
            if done >= 1000:
                raise KeyboardInterrupt

        try:
            evaluate_store(self.zarr_log, out=out, chunk=500, classes=[0, 1, 2], windows=5, save_every=0, progress=stop)
        except KeyboardInterrupt:
            pass
        return out

    @cached_property
    def user_folder(self) -> Path:
        p = self._path("results")
        p.mkdir()
        (p / "notes.txt").write_text("mine")
        return p

    @cached_property
    def data_dir(self) -> Path:
        """A data directory with a truncated covertype.csv.gz and a wrong elec.csv."""
        d = self._path("data")
        (d / "covtype").mkdir(parents=True)
        whole = Path(os.environ.get("STREAMTK_DATA", "/nonexistent"), "covtype", "covtype.csv.gz")
        if whole.is_file():
            body = whole.read_bytes()[:5000]
        else:  # without the data: a gzip stream cut in half (varied rows, so that half the bytes is half the data)
            full = gzip.compress(("Elevation,x\n" + "".join(f"{i},{i * 7919 % 1013}\n" for i in range(20000))).encode())
            body = full[: len(full) // 2]
        (d / "covtype" / "covtype.csv.gz").write_bytes(body)
        (d / "elec2").mkdir()
        (d / "elec2" / "elec.csv").write_text("a,b\n1,2\n")
        (d / "poker").mkdir()
        (d / "poker" / "poker-lsn.labels").write_text("1\n2\nx\n")
        return d


@dataclass
class C:
    id: str
    call: Callable[[Files], Any]
    error: type
    needles: tuple = ()
    todo: str | None = None

    def __init__(self, id, call, error, *needles, todo=None):
        self.id, self.call, self.error, self.needles, self.todo = id, call, error, needles, todo


@dataclass
class CLI:
    id: str
    argv: list
    needles: tuple = field(default_factory=tuple)
    todo: str | None = None

    def __init__(self, id, argv, *needles, todo=None):
        self.id, self.argv, self.needles, self.todo = id, argv, needles, todo


ML = np.array([[0, 1], [1, 1], [0, 0], [1, 0]])
R = np.random.default_rng(1)
Y = np.array([0, 1, 1, 0, 1, 1])
P = np.array([0, 1, 0, 0, 1, 1])

# fmt: off
CASES = [
    # ----------------------------------------------------------------- io: readers
    C("read_csv truncated gz", lambda f: sio.read_csv(f.trunc_gz), LogFormatError, "trunc.csv.gz", "line", "truncated"),
    C("read_csv short row", lambda f: sio.read_csv(f.short_row), LogFormatError, "short.csv", "line 3", "column 2", "expected 2 fields"),
    C("read_csv non-numeric weight", lambda f: sio.read_csv(f.bad_weight), LogFormatError, "badw.csv", "line 3", "'weights'", "'zero'"),
    C("read_csv negative weight", lambda f: sio.read_csv(f.neg_weight), LogFormatError, "negw.csv", "line 3", "'weights'", "-1.0"),
    C("read_csv no y_true column", lambda f: sio.read_csv(f.no_y_true), LogFormatError, "noy.csv", "'y_true'", "truth"),
    C("read_csv empty file", lambda f: sio.read_csv(f.empty_csv), LogFormatError, "empty.csv", "empty"),
    C("read_csv duplicate column", lambda f: sio.read_csv(f.dup_col), LogFormatError, "dup.csv", "duplicate column name 'y_pred'"),
    C("read_csv label beyond 64 bits", lambda f: sio.read_csv(f.huge_label), LogFormatError, "huge.csv", "line 3", "'y_true'", INT64_OVER, "64 bits"),
    C("read_csv integer label float64 would round", lambda f: sio.read_csv(f.rounded_label), LogFormatError, "rounded.csv", "line 3", str(2**53 + 1), "rounded"),
    C("read_csv text vs number labels", lambda f: sio.read_csv(f.text_vs_numbers), LogFormatError, "kinds.csv", "'y_pred'", "text labels", "'y_true'"),
    C("read_csv not UTF-8", lambda f: sio.read_csv(f.latin1), LogFormatError, "latin1.csv", "UTF-8"),
    C("read_csv bad quoting", lambda f: sio.read_csv(f.bad_quote), LogFormatError, "quote.csv", "malformed CSV"),
    C("read_csv sep not one character", lambda f: sio.read_csv(f.csv, sep=";;"), ValueError, "sep", "';;'"),
    C("write_csv sep not one character", lambda f: sio.write_csv(f.log, f.root / "s.csv", sep=3), TypeError, "sep", "3"),
    C("read_parquet flipped bytes", lambda f: sio.read_parquet(f.flipped_parquet), LogFormatError, "flipped.parquet", "column", "'weights'"),
    C("read_parquet not parquet", lambda f: sio.read_parquet(f.not_parquet), LogFormatError, "not.parquet", "not a readable Parquet file"),
    C("read_parquet text weights", lambda f: sio.read_parquet(f.text_weights_parquet), LogFormatError, "textw.parquet", "'weights'", "numeric column expected", "string"),
    C("read_parquet negative weight", lambda f: sio.read_parquet(f.neg_weight_parquet), LogFormatError, "negw.parquet", "row 3", "'weights'", "-3.0"),
    C("read_npz truncated", lambda f: sio.read_npz(f.trunc_npz), LogFormatError, "trunc.npz", "not a readable .npz"),
    C("read_npz no y_true", lambda f: sio.read_npz(f.no_y_true_npz), LogFormatError, "noy.npz", "no array named 'y_true'"),
    C("read_npz unexpected array", lambda f: sio.read_npz(f.extra_npz), LogFormatError, "extra.npz", "unexpected arrays ['junk']"),
    C("read_npz mask of the wrong shape", lambda f: sio.read_npz(f.bad_mask_npz), LogFormatError, "mask.npz", "'y_true_missing'", "(1,)"),
    C("open_dataset truncated netCDF", lambda f: sio.open_dataset(f.trunc_nc), LogFormatError, "trunc.nc", "not a readable netCDF"),
    C("open_dataset netCDF checksum", lambda f: sio.open_dataset(f.damaged_nc), LogFormatError, "damaged.nc", "'weights'", "damaged"),
    C("open_dataset zarr missing chunk", lambda f: sio.open_dataset(f.zarr_missing_chunk), LogFormatError, "missing.zarr", "chunk 1", "instances 1001-2000", "'y_true'"),
    C("open_dataset incomplete store", lambda f: sio.open_dataset(f.incomplete_store), LogFormatError, "incomplete.zarr", "incomplete: 1000 of 3000", "resume=True"),
    C("open_dataset nothing there", lambda f: sio.open_dataset(f.root / "nowhere.nc"), FileNotFoundError, "nowhere.nc"),
    C("read_log unknown suffix", lambda f: sio.read_log(f.root / "x.xyz"), ValueError, "x.xyz", "format="),
    C("read_log bad format", lambda f: sio.read_log(f.csv, format="excel"), ValueError, "format must be one of", "'excel'"),
    C("read_log missing file", lambda f: sio.read_log(f.root / "gone.csv"), FileNotFoundError, "gone.csv"),
    # ----------------------------------------------------------------- io: make_log
    C("make_log text and numbers", lambda f: sio.make_log([1, "1"], [1, 1]), TypeError, "y_true", "int", "str", "'1'"),
    C("make_log y_pred shape", lambda f: sio.make_log([1, 0], [[1, 0, 1]]), ValueError, "y_pred", "(1, 3)"),
    C("make_log duplicate models", lambda f: sio.make_log([1, 0], [[1, 0], [0, 1]], models=["m", "m"]), ValueError, "models", "['m', 'm']"),
    C("make_log NaN weight", lambda f: sio.make_log([1, 0], [1, 0], weights=[1.0, np.nan]), ValueError, "weights", "nan", "(1,)"),
    C("make_log y_score shape", lambda f: sio.make_log([1, 0], [1, 0], y_score=np.ones((3, 2))), ValueError, "y_score", "(1, 3, 2)"),
    C("make_log label beyond 64 bits", lambda f: sio.make_log([2**64 + 1, 0], [0, 0]), ValueError, "y_true", INT64_OVER, "64 bits"),
    C("make_log y_true 2-D", lambda f: sio.make_log([[1, 0]], [1, 0]), ValueError, "y_true", "1-D", "(1, 2)"),
    C("make_log classes beside y_score", lambda f: sio.make_log([1, 0], [1, 0], y_score=np.ones((2, 3))), ValueError, "classes", "3 score columns"),
    # ----------------------------------------------------------------- io: writers
    C("write_csv missing folder", lambda f: sio.write_csv(f.log, f.root / "no" / "x.csv"), FileNotFoundError, "x.csv", "does not exist"),
    C("write_csv onto a folder", lambda f: sio.write_csv(f.log, f.user_folder), IsADirectoryError, "results", "folder"),
    C("write_csv weights per model refused", lambda f: sio.write_csv(f.log.assign(weights=(("model", "time"), np.ones((2, 3000)))), f.root / "w.csv"), ValueError, "weights", "('time',)"),
    C("to_zarr mode w- on existing", lambda f: sio.to_zarr(f.log, f.zarr_log, mode="w-"), FileExistsError, "log.zarr", "overwrite"),
    C("to_zarr bad mode", lambda f: sio.to_zarr(f.log, f.root / "m.zarr", mode="x"), ValueError, "mode", "'x'"),
    C("to_zarr append to nothing", lambda f: sio.to_zarr(f.log, f.root / "none.zarr", mode="a"), FileNotFoundError, "none.zarr", "mode='a'"),
    C("to_zarr replaces a user folder", lambda f: sio.to_zarr(f.log, f.user_folder), FileExistsError, "results", "not a zarr store"),
    C("to_netcdf bad engine", lambda f: sio.to_netcdf(f.log, f.root / "e.nc", engine="hdf9"), ValueError, "engine", "'hdf9'"),
    C("atomic_open read mode", lambda f: atomic_open(f.root / "a.txt", "r").__enter__(), ValueError, "mode", "'r'"),
    C("atomic_path no overwrite", lambda f: atomic_path(f.csv, overwrite=False).__enter__(), FileExistsError, "good.csv", "overwrite=True"),
    C("atomic_path bad path type", lambda f: atomic_path(3).__enter__(), TypeError, "path", "3"),
    # ----------------------------------------------------------------- labels (encode_labels, as_label_array)
    C("labels 1 and '1' in one list", lambda f: encode_labels([1, "1", 1]), TypeError, "y_true", "int", "str", "'1'"),
    C("labels 1.0 and 'a'", lambda f: encode_labels([1.0, "a"], [1, "a"]), TypeError, "y_true", "float", "str"),
    C("labels int y_true, str y_pred", lambda f: encode_labels(np.array([0, 1]), np.array(["0", "1"])), TypeError, "y_true", "y_pred", "int", "str"),
    C("labels bytes and str", lambda f: encode_labels(np.array([b"a", "b"], dtype=object)), TypeError, "y_true", "bytes", "str"),
    C("classes mix text and numbers", lambda f: encode_labels([1, 2], classes=[1, "2"]), TypeError, "classes", "int", "str"),
    C("classes duplicates", lambda f: encode_labels([1, 2], classes=[1, 2, 1.0]), ValueError, "classes", "duplicates"),
    C("classes a string", lambda f: encode_labels([1, 2], classes="ab"), TypeError, "classes", "'ab'"),
    C("classes missing value", lambda f: encode_labels([1, 2], classes=[1, None]), ValueError, "classes", "None"),
    C("labels beyond 64 bits", lambda f: encode_labels([2**64 + 1, 3]), ValueError, "y_true", INT64_OVER, "64 bits"),
    C("labels negative and above 2**63", lambda f: encode_labels(np.array([-1]), np.array([2**63 + 1], dtype=np.uint64)), ValueError, "y_true", "y_pred", "-1", str(2**63 + 1)),
    C("labels float beside huge int", lambda f: as_label_array([2**60 + 1, 0.5], "y_true"), ValueError, "y_true", str(2**60 + 1), "rounded"),
    C("labels ragged", lambda f: as_label_array([[1, 2], [1]], "y_pred"), ValueError, "y_pred", "rectangular"),
    C("labels a single string", lambda f: as_label_array("abc", "y_true"), TypeError, "y_true", "'abc'"),
    C("labels masked prediction", lambda f: as_label_array(np.ma.array([1, 2], mask=[0, 1]), "y_pred", allow_missing=False), ValueError, "y_pred", "masked", "(1,)"),
    C("labels masked weights", lambda f: check_unmasked(np.ma.array([1.0, 2.0], mask=[1, 0]), "weights"), ValueError, "weights", "masked", "(0,)"),
    C("labels unknown class", lambda f: encode_labels([0, 1], [0, 2], classes=[0, 1]), ValueError, "y_pred", "2", "[0, 1]"),
    C("labels every y_true missing", lambda f: encode_labels([None, None]), ValueError, "y_true", "no labels"),
    # ----------------------------------------------------------------- the core, through the label layer (lead-owned call sites)
    C("evaluate mixed list", lambda f: streamtk.evaluate([1, "1", 1], [1, "1", "1"]), TypeError, "y_true", "int", "str"),
    C("evaluate masked weights", lambda f: streamtk.evaluate(Y, P, weights=np.ma.array(np.ones(6), mask=[0, 0, 1, 0, 0, 0])), ValueError, "weights", "masked"),
    C("evaluate windows=2**64", lambda f: streamtk.evaluate(Y, P, windows=2**64), ValueError, "windows", str(2**64)),
    C("evaluate every=2**64", lambda f: streamtk.evaluate(Y, P, every=2**64), ValueError, "every", str(2**64)),
    C("evaluate fading=5e-324", lambda f: streamtk.evaluate(Y, P, fading=[5e-324]), ValueError, "fading", "5e-324", "1e-50"),
    C("auc_curves fading=5e-324", lambda f: streamtk.auc_curves([0, 1, 0, 1], [0.1, 0.9, 0.4, 0.3], fading=[5e-324]), ValueError, "fading", "5e-324"),
    C("evaluate weights=1e300", lambda f: streamtk.evaluate(Y, P, weights=[1, 1, 1e300, 1, 1, 1]), ValueError, "weights", "1e+300", "(2,)", "1e+150"),
    C("evaluate adwin max_buckets=10**9", lambda f: streamtk.evaluate(Y, P, adwin=[0.002], adwin_options={"max_buckets": 10**9}), ValueError, "adwin_options['max_buckets']", "1,000,000,000"),
    # ----------------------------------------------------------------- out of core
    C("evaluate_store out is the input", lambda f: evaluate_store(f.zarr_log, out=f.zarr_log, classes=[0, 1, 2]), ValueError, "out=", "log.zarr", "is the input log"),
    C("evaluate_store out named like a file", lambda f: evaluate_store(f.zarr_log, out=f.root / "curves.nc"), ValueError, "out", "curves.nc", "zarr"),
    C("evaluate_store out inside the input", lambda f: evaluate_store(f.zarr_log, out=f.zarr_log / "c.zarr", classes=[0, 1, 2]), ValueError, "c.zarr", "inside the input log"),
    C("evaluate_store existing out", lambda f: evaluate_store(f.zarr_log, out=f.user_folder, classes=[0, 1, 2]), FileExistsError, "results", "overwrite=True"),
    C("evaluate_store overwrite a user folder", lambda f: evaluate_store(f.zarr_log, out=f.user_folder, overwrite=True, classes=[0, 1, 2]), FileExistsError, "results", "not a zarr store"),
    C("evaluate_store resume and overwrite", lambda f: evaluate_store(f.zarr_log, out=f.root / "r.zarr", resume=True, overwrite=True), ValueError, "resume=True", "overwrite=True"),
    C("evaluate_store resume without out", lambda f: evaluate_store(f.zarr_log, resume=True), ValueError, "resume=True", "out="),
    C("evaluate_store chunk 0", lambda f: evaluate_store(f.zarr_log, chunk=0), ValueError, "chunk", "got 0"),
    C("evaluate_store out_chunk float", lambda f: evaluate_store(f.zarr_log, out_chunk=2.5), TypeError, "out_chunk", "2.5"),
    C("evaluate_store save_every negative", lambda f: evaluate_store(f.zarr_log, out=f.root / "s.zarr", save_every=-1), ValueError, "save_every", "-1"),
    C("evaluate_store overwrite not a bool", lambda f: evaluate_store(f.zarr_log, out=f.root / "s.zarr", overwrite="yes"), TypeError, "overwrite", "'yes'"),
    C("evaluate_store unknown variable", lambda f: evaluate_store(f.zarr_log, y_pred="preds"), ValueError, "'preds'", "y_pred"),
    C("evaluate_store detectors a list", lambda f: evaluate_store(f.zarr_log, classes=[0, 1, 2], detectors=[DDM(trace=False)]), TypeError, "detectors", "dict"),
    C("evaluate_store detector key with /", lambda f: evaluate_store(f.zarr_log, classes=[0, 1, 2], detectors={"a/b": DDM(trace=False)}), ValueError, "detectors", "'a/b'"),
    C("evaluate_store detector with trace", lambda f: evaluate_store(f.zarr_log, classes=[0, 1, 2], detectors={"d": DDM()}), ValueError, "detectors['d']", "trace=False"),
    C("evaluate_store source of a wrong type", lambda f: evaluate_store(42), TypeError, "source", "42"),
    C("evaluate_store out of a wrong type", lambda f: evaluate_store(f.zarr_log, out=42), TypeError, "out", "42"),
    C("evaluate_store missing chunk", lambda f: evaluate_store(f.zarr_missing_chunk, classes=[0, 1, 2]), LogFormatError, "missing.zarr", "'y_true'", "instances 1001-2000"),
    C("evaluate_store nothing there", lambda f: evaluate_store(f.root / "nowhere.zarr"), FileNotFoundError, "nowhere.zarr"),
    C("evaluate_store empty log", lambda f: evaluate_store(xr.Dataset({"y_true": ("time", []), "y_pred": ("time", [])})), ValueError, "empty"),
    C("evaluate_store 2-D y_true", lambda f: evaluate_store(xr.Dataset({"y_true": (("a", "time"), [[1]]), "y_pred": ("time", [1])})), ValueError, "y_true", "one-dimensional"),
    C("evaluate_store resume a complete store", lambda f: evaluate_store(f.zarr_log, out=_complete(f), resume=True, classes=[0, 1, 2], windows=5), ValueError, "done.zarr", "complete"),
    C("evaluate_store resume with other windows", lambda f: evaluate_store(f.zarr_log, out=f.incomplete_store, resume=True, chunk=500, classes=[0, 1, 2], windows=6 ), ValueError, "windows differs", "6"),
    # ----------------------------------------------------------------- datasets
    C("datasets unknown name", lambda f: sds.load("nope"), ValueError, "name", "'nope'"),
    C("datasets name not a string", lambda f: sds.load(3), TypeError, "name", "3"),
    C("datasets verify not a bool", lambda f: sds.load("poker", path=f.data_dir, verify="yes"), TypeError, "verify", "'yes'"),
    C("datasets path of a wrong type", lambda f: sds.load("poker", path=3), TypeError, "path", "3"),
    C("datasets not found", lambda f: _without_data_env(lambda: sds.load("ozone", path=f.root / "nowhere")), sds.DatasetNotFoundError, "ozone", "nowhere"),
    C("datasets checksum", lambda f: sds.load("covertype", path=f.data_dir), sds.ChecksumError, "covtype.csv.gz", "sha256"),
    C("datasets truncated gz", lambda f: sds.load("covertype", path=f.data_dir, verify=False), LogFormatError, "covtype.csv.gz", "truncated"),
    C("datasets labels of a truncated gz", lambda f: sds.load_labels("covertype", path=f.data_dir, verify=False), LogFormatError, "covtype.csv.gz", "truncated"),
    C("datasets wrong layout", lambda f: sds.load("electricity", path=f.data_dir, verify=False), LogFormatError, "elec.csv", "line 1", "'a'"),
    C("datasets bad label line", lambda f: sds.load("poker", path=f.data_dir, verify=False), ValueError, "poker-lsn.labels", "line 3", "'x'"),
    C("datasets fetch other dataset", lambda f: sds.fetch("poker"), ValueError, "name", "'poker'"),
    C("datasets fetch timeout", lambda f: sds.fetch("electricity", timeout=-1), ValueError, "timeout", "-1"),
    C("datasets fetch force", lambda f: sds.fetch("electricity", force="y"), TypeError, "force", "'y'"),
    # ----------------------------------------------------------------- stats
    C("sign_test no pairs", lambda f: sign_test([], []), ValueError, "x", "empty"),
    C("sign_test shapes", lambda f: sign_test([1, 2, 3], [1, 2]), ValueError, "x and y", "(3,)", "(2,)"),
    C("sign_test NaN", lambda f: sign_test([1, np.nan], [1, 2]), ValueError, "x", "nan"),
    C("sign_test alpha", lambda f: sign_test([1, 2], [2, 1], alpha=2), ValueError, "alpha", "2.0"),
    C("sign_test alternative", lambda f: sign_test([1, 2], [2, 1], alternative="bigger"), ValueError, "alternative", "'bigger'"),
    C("sign_test text", lambda f: sign_test(["a"], ["b"]), TypeError, "x", "<U1"),
    C("wilcoxon_test no pairs", lambda f: wilcoxon_test([], []), ValueError, "x", "empty"),
    C("wilcoxon_test zero_method", lambda f: wilcoxon_test([1, 2], [2, 1], zero_method="foo"), ValueError, "zero_method", "'foo'"),
    C("wilcoxon_test inf", lambda f: wilcoxon_test([np.inf, 1], [1, 2]), ValueError, "x", "inf"),
    C("mcnemar_test negative count", lambda f: mcnemar_test(-1, 3), ValueError, "a", "-1"),
    C("mcnemar_test correction", lambda f: mcnemar_test(1, 3, correction="yes"), TypeError, "correction", "'yes'"),
    C("mcnemar_counts shapes", lambda f: mcnemar_counts([0, 1], [0, 1, 1], [0, 1]), ValueError, "pred_a", "(3,)"),
    C("mcnemar_counts negative weight", lambda f: mcnemar_counts([0, 1], [0, 1], [1, 1], weights=[-1, 1]), ValueError, "weights", "-1"),
    C("friedman_test one classifier", lambda f: friedman_test(np.ones((3, 1))), ValueError, "scores", "(3, 1)"),
    C("friedman_test posthoc", lambda f: friedman_test(R.random((5, 3)), posthoc="tukey"), ValueError, "posthoc", "'tukey'"),
    # ----------------------------------------------------------------- drift scoring
    C("score_detections negative index", lambda f: score_detections([[-5, 10]], [50], n=100), ValueError, "detections", "-5"),
    C("score_detections index beyond n", lambda f: score_detections([[500]], [50], n=100), ValueError, "detections", "500"),
    C("match_detections negative index", lambda f: match_detections([-1, 3], [2], n=10), ValueError, "detections", "-1"),
    C("score_detections unsorted drifts", lambda f: score_detections([[10]], [50, 20], n=100), ValueError, "true_drifts", "[50, 20]"),
    C("score_detections drift beyond n", lambda f: score_detections([[10]], [500], n=100), ValueError, "true_drifts", "500"),
    C("score_detections max_delay", lambda f: score_detections([[10]], [50], n=100, max_delay=-1), ValueError, "max_delay", "-1"),
    C("score_detections float index", lambda f: score_detections([[10.5]], [5], n=100), TypeError, "detections[0]", "10.5"),
    # regression and prediction intervals (issue 33): NaN in y_true marks an instance without a target
    C("regression infinite target", lambda f: streamtk.regression_curves([1.0, np.inf, 2.0], [1.0, 1.0, 1.0]), ValueError, "y_true", "infinite", "(1,)"),
    C("regression NaN prediction", lambda f: streamtk.regression_curves([1.0, 2.0, 3.0], [1.0, np.nan, 1.0]), ValueError, "y_pred", "nan", "instance 1"),
    C("regression infinite prediction", lambda f: streamtk.regression_curves([1.0, 2.0, 3.0], [1.0, 2.0, -np.inf]), ValueError, "y_pred", "-inf", "instance 2"),
    C("regression string targets", lambda f: streamtk.regression_curves(["a", "b"], [1.0, 2.0]), TypeError, "y_true", "numeric", "<U1"),
    C("regression length mismatch", lambda f: streamtk.regression_curves([1.0, 2.0, 3.0], [1.0, 2.0]), ValueError, "y_pred", "2 instances", "3"),
    C("regression targets mismatch", lambda f: streamtk.regression_curves(np.ones((4, 2)), np.ones((4, 3))), ValueError, "y_pred", "3 targets", "2"),
    C("regression negative weight", lambda f: streamtk.regression_curves([1.0, 2.0], [1.0, 2.0], weights=[1.0, -1.0]), ValueError, "weights", "-1"),
    C("adjusted_r2 without n_features", lambda f: streamtk.regression_curves([1.0, 2.0, 3.0], [1.0, 2.0, 2.0], metrics=["adjusted_r2"]), ValueError, "adjusted_r2", "n_features", "None"),
    C("adjusted_r2 fewer instances than features", lambda f: streamtk.regression_curves(np.arange(5.0), np.arange(5.0), metrics=["adjusted_r2"], n_features=4), ValueError, "n_features=4", "5 evaluated"),
    C("adjusted_r2 window below features", lambda f: streamtk.regression_curves(np.arange(50.0), np.arange(50.0), metrics=["adjusted_r2"], n_features=4, windows=5), ValueError, "windows", "window=5", "got 4"),
    C("regression negative n_features", lambda f: streamtk.regression_curves([1.0, 2.0], [1.0, 2.0], n_features=-1), ValueError, "n_features", "-1"),
    C("regression unknown metric", lambda f: streamtk.regression_curves([1.0, 2.0], [1.0, 2.0], metrics=["accuracy"]), ValueError, "'accuracy'", "regression metric"),
    C("regression average with one target", lambda f: streamtk.regression_curves([1.0, 2.0], [1.0, 2.0], metrics=["average_mae"]), ValueError, "'average_mae'", "targets"),
    C("regression baseline fading", lambda f: streamtk.regression_baselines([1.0, 2.0], fading=1.5), ValueError, "fading", "1.5"),
    C("regression moa fading", lambda f: streamtk.regression_curves([1.0, 2.0], [1.0, 2.0], convention="moa", fading=0.9), ValueError, "fading", "moa"),
    C("intervals lower above upper", lambda f: streamtk.interval_curves([1.0, 2.0, 3.0], [0.0, 2.5, 2.0], [2.0, 2.4, 4.0]), ValueError, "lower", "upper", "instance 1", "2.5", "2.4"),
    C("intervals NaN upper", lambda f: streamtk.interval_curves([1.0, 2.0], [0.0, 1.0], [2.0, np.nan]), ValueError, "upper", "nan", "instance 1"),
    C("intervals infinite lower", lambda f: streamtk.interval_curves([1.0, 2.0], [-np.inf, 1.0], [2.0, 3.0]), ValueError, "lower", "-inf", "instance 0"),
    C("intervals lower without upper", lambda f: streamtk.interval_curves([1.0, 2.0], [0.0, 1.0]), ValueError, "lower=", "upper="),
    C("intervals crossing outer quantiles", lambda f: streamtk.interval_curves([1.0, 2.0], y_quantiles=[[0.0, 2.0], [3.0, 2.5]], quantiles=[0.1, 0.9]), ValueError, "y_quantiles", "0.1", "0.9", "instance 1", "3.0"),
    C("intervals quantile levels count", lambda f: streamtk.interval_curves([1.0, 2.0], y_quantiles=[[0.0, 2.0], [1.0, 2.5]], quantiles=[0.1, 0.5, 0.9]), ValueError, "quantiles", "3 levels", "2 quantile columns"),
    C("intervals unsorted quantiles", lambda f: streamtk.interval_curves([1.0, 2.0], y_quantiles=[[0.0, 2.0], [1.0, 2.5]], quantiles=[0.9, 0.1]), ValueError, "quantiles", "[0.9, 0.1]"),
    C("intervals alpha", lambda f: streamtk.interval_curves([1.0, 2.0], [0.0, 1.0], [2.0, 3.0], alpha=1.5), ValueError, "alpha", "1.5"),
    C("intervals multi-target", lambda f: streamtk.interval_curves(np.ones((3, 2)), np.zeros((3, 2)), np.ones((3, 2))), ValueError, "y_true", "one-dimensional"),
    # ----------------------------------------------------------------- multi-label and imbalanced families
    C("multilabel_curves y_true one column", lambda f: streamtk.multilabel_curves([0, 1, 1], [[0], [1], [1]]), ValueError, "y_true", "(n, q)", "(3,)"),
    C("multilabel_curves y_pred rows", lambda f: streamtk.multilabel_curves(ML, ML[:3]), ValueError, "y_pred", "(..., 4, 2)", "(3, 2)"),
    C("multilabel_curves y_pred labels", lambda f: streamtk.multilabel_curves(ML, np.ones((4, 3))), ValueError, "y_pred", "(4, 3)"),
    C("multilabel_curves value 2", lambda f: streamtk.multilabel_curves(ML * 2, ML), ValueError, "y_true", "0/1 or booleans", "got 2", "instance 0"),
    C("multilabel_curves value -1 of a label", lambda f: streamtk.multilabel_curves(ML, ML - 1, labels=["x", "y"]), ValueError, "y_pred", "-1", "label 'x'"),
    C("multilabel_curves text labels", lambda f: streamtk.multilabel_curves([["a", "b"]], [[0, 1]]), TypeError, "y_true", "0/1 or booleans", "dtype"),
    C("multilabel_curves half a row missing", lambda f: streamtk.multilabel_curves([[0, 1], [1, np.nan]], [[0, 1], [1, 0]]), ValueError, "y_true", "partly missing", "index"),
    C("multilabel_curves zero_division", lambda f: streamtk.multilabel_curves(ML, ML, zero_division=0.5), ValueError, "zero_division", "0.5"),
    C("multilabel_curves negative weight", lambda f: streamtk.multilabel_curves(ML, ML, weights=[1, -1.0, 1, 1]), ValueError, "weights", "-1.0"),
    C("make_multilabel_log value 2", lambda f: sio.make_multilabel_log([[0, 1], [2, 1]], ML[:2]), ValueError, "y_true", "2.0", "(1, 0)"),
    C("make_multilabel_log y_pred shape", lambda f: sio.make_multilabel_log(ML, ML[:, :1]), ValueError, "y_pred", "(1, 4, 2)", "(1, 4, 1)"),
    C("make_multilabel_log negative weight", lambda f: sio.make_multilabel_log(ML, ML, weights=[1, 1, -2, 1]), ValueError, "weights", "-2.0", "(2,)"),
    C("read_csv multilabel value 2", lambda f: sio.read_csv(f.multilabel_two), LogFormatError, "ml2.csv", "line 3", "'y_true:b'", "2.0"),
    C("read_csv multilabel half row", lambda f: sio.read_csv(f.multilabel_half_row), LogFormatError, "mlhalf.csv", "line 3", "'y_true:b'", "partly missing"),
    C("load_multilabel unknown stream", lambda f: sds.load_multilabel("nope"), ValueError, "'nope'", "electricity_rises"),
    C("auc_curves average_precision NaN score", lambda f: _auc_curves(Y, np.r_[0.1, 0.2, np.nan, 0.4, 0.5, 0.6], metrics=["average_precision"]), ValueError, "y_score", "NaN", "instance 2"),
    C("auc_curves sauc infinite score", lambda f: _auc_curves(Y, np.r_[0.1, np.inf, 0.3, 0.4, 0.5, 0.6], metrics=["sauc"]), ValueError, "y_score", "inf", "instance 1"),
    C("auc_curves pr_auc negative weight", lambda f: _auc_curves(Y, np.linspace(0, 1, 6), weights=-np.ones(6), metrics=["pr_auc"]), ValueError, "weights", "-1.0"),
    C("auc_curves pr_auc under MOA", lambda f: _auc_curves(Y, np.linspace(0, 1, 6), convention="moa", metrics=["pr_auc"]), ValueError, "convention='moa'", "'pr_auc'"),
    # ----------------------------------------------------------------- bands (interval=)
    C("evaluate interval 1", lambda f: streamtk.evaluate(Y, P, interval=1.0), ValueError, "interval", "(0, 1)", "1.0"),
    C("compare interval 0", lambda f: streamtk.compare(Y, P, P, interval=0), ValueError, "interval", "(0, 1)", "0"),
    C("loss_curves interval text", lambda f: streamtk.loss_curves(P.astype(float), interval="95%"), TypeError, "interval", "'95%'"),
    C("auc_curves interval nan", lambda f: streamtk.auc_curves(Y, P.astype(float), interval=float("nan")), ValueError, "interval", "nan"),
    C("evaluate unknown interval_method", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="wald"), ValueError, "interval_method", "'wald'", "'block_bootstrap'"),
    C("evaluate interval_method without interval", lambda f: streamtk.evaluate(Y, P, interval_method="bootstrap"), ValueError, "interval_method", "interval is None"),
    C("evaluate replicates below 10", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="bootstrap", replicates=5, seed=0), ValueError, "replicates", "at least 10", "5"),
    C("loss_curves replicates float", lambda f: streamtk.loss_curves(P.astype(float), interval=0.9, interval_method="bootstrap", replicates=50.5, seed=0), TypeError, "replicates", "50.5"),
    C("evaluate block_length 0", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="block_bootstrap", block_length=0, seed=0), ValueError, "block_length", "0"),
    C("evaluate block_length beyond the stream", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="block_bootstrap", block_length=7, seed=0), ValueError, "block_length", "6 instances", "7"),
    C("compare block_length beyond the stream", lambda f: streamtk.compare(Y, P, P, interval=0.9, interval_method="block_bootstrap", block_length=70, seed=0), ValueError, "block_length", "70"),
    C("evaluate block_length without blocks", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="bootstrap", block_length=3, seed=0), ValueError, "block_length", "'bootstrap'"),
    C("evaluate bootstrap without seed", lambda f: streamtk.evaluate(Y, P, interval=0.9, interval_method="bootstrap"), TypeError, "seed", "'bootstrap'"),
    C("evaluate sequence of kappa", lambda f: streamtk.evaluate(Y, P, metrics=["kappa"], interval=0.9, interval_method="sequence"), ValueError, "interval_method='sequence'", "'kappa'", "not such a mean"),
    C("evaluate sequence of adwin", lambda f: streamtk.evaluate(Y, P, metrics=["accuracy"], adwin=0.01, interval=0.9, interval_method="sequence"), ValueError, "interval_method='sequence'", "adwin=0.01"),
    C("evaluate analytic f1", lambda f: streamtk.evaluate(Y, P, metrics=["f1"], interval=0.9), ValueError, "interval_method='analytic'", "'f1'", "bootstrap"),
    C("evaluate sequence with weights", lambda f: streamtk.evaluate(Y, P, weights=np.array([1, 2, 1, 1, 1, 1.0]), metrics=["accuracy"], interval=0.9, interval_method="sequence"), ValueError, "interval_method='sequence'", "weight", "2.0"),
    C("loss_curves sequence outside [0, 1]", lambda f: streamtk.loss_curves(np.array([0, 2.0, 1]), interval=0.9, interval_method="sequence"), ValueError, "interval_method='sequence'", "[0, 1]", "2.0"),
    C("simulate_errors error 1", lambda f: streamtk.simulate_errors(10, 10, error=1.0), ValueError, "error", "(0, 1)", "1.0"),
    C("simulate_errors dependence 1", lambda f: streamtk.simulate_errors(10, 10, dependence=1.0), ValueError, "dependence", "1.0"),
]
# fmt: on

# fmt: off
CLI_CASES = [
    CLI("multilabel log as classification", ["evaluate", "{multilabel_nc}", "--task", "classification"], "--task classification", "ml.nc", "multilabel"),
    CLI("multilabel zero division", ["evaluate", "{multilabel_nc}", "--zero-division", "0.5"], "zero_division", "'0.5'"),
    CLI("multilabel value 2 in a table", ["evaluate", "{multilabel_two}"], "ml2.csv", "line 3", "'y_true:b'", "2.0"),
    CLI("truncated .csv.gz", ["evaluate", "{trunc_gz}"], "trunc.csv.gz", "line", "truncated"),
    CLI("missing zarr chunk", ["evaluate", "{zarr_missing_chunk}"], "missing.zarr", "chunk 1", "'y_true'"),
    CLI("damaged parquet", ["evaluate", "{flipped_parquet}"], "flipped.parquet", "'weights'"),
    CLI("checksum of netCDF", ["evaluate", "{damaged_nc}"], "damaged.nc", "'weights'"),
    CLI("incomplete store as input", ["plot", "{incomplete_store}", "-o", "{root}/p.png"], "incomplete.zarr", "incomplete"),
    CLI("missing log", ["evaluate", "{root}/gone.csv"], "gone.csv"),
    CLI("window 0", ["evaluate", "{csv}", "--window", "0"], "--window", "0"),
    CLI("window beyond 64 bits", ["evaluate", "{csv}", "--window", str(2**64)], "--window", str(2**64)),
    CLI("every beyond 64 bits", ["evaluate", "{csv}", "--every", str(2**70)], "--every", str(2**70)),
    CLI("empty metrics", ["evaluate", "{csv}", "--metrics", ""], "--metrics", "''"),
    CLI("metrics only commas", ["evaluate", "{csv}", "--metrics", ",,"], "--metrics", "',,'"),
    CLI("unknown metric", ["evaluate", "{csv}", "--metrics", "nope"], "'nope'"),
    CLI("fading above 1", ["evaluate", "{csv}", "--fading", "2"], "--fading", "2.0"),
    CLI("fading NaN", ["evaluate", "{csv}", "--fading", "nan"], "--fading", "nan"),
    CLI("adwin delta above 1", ["evaluate", "{csv}", "--adwin", "3"], "--adwin", "3.0"),
    CLI("empty output name", ["evaluate", "{csv}", "-o", ""], "--output", "''"),
    CLI("output folder missing", ["evaluate", "{csv}", "-o", "{root}/no/c.nc"], "c.nc", "does not exist"),
    CLI("drift adwin delta", ["drift", "{csv}", "--adwin-delta", "5"], "--adwin-delta", "5.0"),
    CLI("drift ph delta", ["drift", "{csv}", "--ph-delta", "-5"], "--ph-delta", "-5.0"),
    CLI("drift unknown model", ["drift", "{csv}", "--model", "zz"], "--model", "zz"),
    CLI("compare a model with itself", ["compare", "{csv}", "--models", "a", "a"], "--models", "'a'"),
    CLI("compare unknown model", ["compare", "{csv}", "--models", "a", "zz"], "zz"),
    CLI("demo n beyond 64 bits", ["demo", "--n", str(2**64), "-o", "{root}"], "--n", str(2**64)),
]
# fmt: on


def _without_data_env(call):
    """Run ``call`` with $STREAMTK_DATA and the cache pointing nowhere (so a dataset is not found)."""
    saved = {k: os.environ.pop(k, None) for k in ("STREAMTK_DATA", "STREAMTK_CACHE")}
    os.environ["STREAMTK_CACHE"] = "/nonexistent/streamtk-cache"
    try:
        return call()
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None)
            if v is not None:
                os.environ[k] = v


def _complete(f: Files) -> Path:
    out = f.root / "done.zarr"
    if not out.exists():
        evaluate_store(f.zarr_log, out=out, classes=[0, 1, 2], windows=5)
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return Files(tmp_path_factory.mktemp("bad"))


def _param(case):
    marks = [pytest.mark.xfail(strict=True, reason=case.todo)] if case.todo else []
    return pytest.param(case, id=case.id, marks=marks)


def test_the_corpus_is_large_enough():
    assert len(CASES) + len(CLI_CASES) >= 150
    assert len({c.id for c in CASES}) == len(CASES) and len({c.id for c in CLI_CASES}) == len(CLI_CASES)


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_bad_input_is_a_named_error(case, files):
    with pytest.raises(case.error) as info:
        case.call(files)
    message = str(info.value)
    missing = [n for n in case.needles if n not in message]
    assert not missing, f"{missing} not in: {message}"


@pytest.mark.parametrize("case", [_param(c) for c in CLI_CASES])
def test_cli_bad_input_is_one_line_with_exit_2(case, files, capsys):
    argv = [a.format(**{k: getattr(files, k) for k in _placeholders(a)}) for a in case.argv]
    rc = main(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, (rc, err)
    missing = [n for n in case.needles if n not in lines[0]]
    assert not missing, f"{missing} not in: {lines[0]}"


def _placeholders(text: str) -> list:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(text) if name]
