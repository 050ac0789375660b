"""Borrowed array views without reference counting.

numba reference-counts every array handed to a compiled function (an atomic
increment and decrement per array per call). The game kernels call each
other hundreds of times per game with the same state array, and that traffic
was most of their run time. ``borrow_nb(a)`` returns a view of ``a`` whose
memory-info pointer is NULL, which numba's refcount helpers skip. The caller
must keep ``a`` alive while the view is used -- numba frees a variable after
its LAST USE, so ``a`` must be used again after the last use of the view --
and must not let the view escape (return it or store it). The kernels only
borrow inside the function that owns the array.
"""
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrow_nb(typingctx, arr):
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        dst = context.make_array(sig.return_type)(context, builder)
        for name in ("nitems", "itemsize", "data", "shape", "strides", "parent"):
            setattr(dst, name, getattr(src, name))
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
        return dst._getvalue()

    return arr(arr), codegen
