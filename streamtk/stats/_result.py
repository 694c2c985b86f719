"""``to_dataset()`` and a readable repr for the results of the vectorised paired tests (Sign, Wilcoxon, McNemar)."""

from __future__ import annotations

from dataclasses import fields

import numpy as np

__all__ = ["ArrayResult"]


class ArrayResult:
    """Mixin for frozen dataclasses whose array fields all have the shape of the tested slices."""

    _title = "test"

    def _arrays(self):
        stat = np.asarray(self.statistic)
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, (np.ndarray, np.generic)):  # numpy scalars too (a 0-d test's fields)
                out[f.name] = np.broadcast_to(np.asarray(v), stat.shape)
        return out, {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if not isinstance(getattr(self, f.name), (np.ndarray, np.generic))
        }

    def to_dataset(self, dims=None):
        """Every array field as a variable on ``dims`` (default ``dim_0, dim_1, ...``), options as attrs."""
        import xarray as xr

        from .._labelled import base_attrs

        arrays, options = self._arrays()
        ndim = np.ndim(self.statistic)
        dims = (
            tuple(f"dim_{i}" for i in range(ndim))
            if dims is None
            else ((dims,) if isinstance(dims, str) else tuple(dims))
        )
        if len(dims) != ndim:
            raise ValueError(
                f"dims must name {ndim} dimension(s) for results of shape {np.shape(self.statistic)}, got {dims!r}"
            )
        return xr.Dataset({k: (dims, np.array(v)) for k, v in arrays.items()}, attrs=base_attrs(self._title, **options))

    def __repr__(self) -> str:
        arrays, options = self._arrays()
        opts = ", ".join(f"{k}={v!r}" for k, v in options.items())
        head = f"{type(self).__name__}: {self._title} ({opts})"
        shape = np.shape(self.statistic)
        if shape == ():
            return head + "\n" + "\n".join(f"  {k:<16} {np.asarray(v).item()!r}" for k, v in arrays.items())
        rej = np.asarray(arrays.get("reject", np.zeros(shape, dtype=bool)))
        return (
            f"{head}\n  {int(np.prod(shape))} tests of shape {shape}; {int(rej.sum())} reject; "
            f"fields: {', '.join(arrays)} (to_dataset() labels them)"
        )
