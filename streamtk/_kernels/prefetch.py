"""Software prefetch for numba kernels (``llvm.prefetch``).

Kernels that walk a large array at positions known in advance (the Fenwick walks of
the exact AUC on ``R ~ n`` ranks, :func:`streamtk._kernels.fenwick.prefetch`) are limited by
dependent cache misses: the out-of-order core only sees one or two instances ahead.
Issuing a prefetch for the cache lines an instance ``D`` steps later will touch lets
the misses of many instances overlap. numba has no prefetch builtin, so
:func:`prefetch_read` and :func:`prefetch_write` are ``numba.extending.intrinsic``\\ s
that emit ``llvm.prefetch`` (``prefetcht0`` / ``prefetchw`` on x86-64). A prefetch is
only a hint: it never faults (the address may even lie outside the array) and never
changes a result.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _prefetch_codegen(rw):
    def codegen(context, builder, signature, args):
        aty, ity = signature.args
        ary = context.make_array(aty)(context, builder, args[0])
        idx = context.cast(builder, args[1], ity, types.intp)
        stride0 = cgutils.unpack_tuple(builder, ary.strides, aty.ndim)[0]
        base = builder.ptrtoint(ary.data, cgutils.intp_t)
        i8p = ir.IntType(8).as_pointer()
        ptr = builder.inttoptr(builder.add(base, builder.mul(idx, stride0)), i8p)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        # opaque pointers (llvmlite >= 0.44 / LLVM >= 15): the overload is named .p0
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # (address, rw, locality 3 = keep in all cache levels, cache type 1 = data)
        builder.call(fn, [ptr, i32(rw), i32(3), i32(1)])
        return context.get_dummy_value()

    return codegen


def _prefetch_typer(rw):
    def typer(typingctx, arr, i):
        if not isinstance(arr, types.Array) or arr.ndim < 1 or not isinstance(i, types.Integer):
            return None
        return types.void(arr, i), _prefetch_codegen(rw)

    return typer


#: ``prefetch_read(a, i)``: prefetch the cache line of ``a[i, ...]`` for reading.
prefetch_read = intrinsic(_prefetch_typer(0))
prefetch_read.__doc__ = "Prefetch the cache line holding ``a[i, ...]`` (first axis) for reading."
#: ``prefetch_write(a, i)``: prefetch the cache line of ``a[i, ...]`` with intent to write.
prefetch_write = intrinsic(_prefetch_typer(1))
prefetch_write.__doc__ = "Prefetch the cache line holding ``a[i, ...]`` (first axis) with intent to write."
