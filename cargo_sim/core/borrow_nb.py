"""Borrowed array views and raw state pointers, without reference counting.

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
import threading

from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import cfunc, types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
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


@intrinsic
def state_ptr_nb(typingctx, arr):
    """Raw pointer to an array's data (a pointer passes through unchanged).

    Kernels that call each other hundreds of times per game pass their state
    as a pointer: no reference counting at all, and no negative-index fix-up
    on every ``s[i]`` (numba wraps negative array indices; pointer indexing is
    plain address arithmetic). The caller keeps the owning array alive."""
    if isinstance(arr, types.CPointer):
        return arr(arr), lambda context, builder, sig, args: args[0]
    if not (isinstance(arr, types.Array) and arr.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen


@intrinsic
def keep_nb(typingctx, arr):
    """A use of ``arr`` that compiles to nothing: call it after the last use of a
    pointer (``state_ptr_nb``) to an array the same function created. numba frees an
    array after its variable's last use, and a pointer is not a use: without this,
    ``s = np.zeros(n); p = state_ptr_nb(s); f(p)`` may run f on freed memory (an
    allocation after the pointer was taken can reuse it; tests/core/test_pointers.py)."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        return context.get_dummy_value()

    return types.none(arr), codegen


@intrinsic
def state_array_nb(typingctx, ptr, n):
    """A 1-D array view of n items at a pointer (NULL memory-info: borrowed,
    see borrow_nb); an array passes through unchanged (n is ignored)."""
    if isinstance(ptr, types.Array):
        # the same array back: a new reference (numba releases what it returns)
        return ptr(ptr, n), lambda context, builder, sig, args: impl_ret_borrowed(
            context, builder, sig.return_type, args[0])
    if not (isinstance(ptr, types.CPointer) and isinstance(n, types.Integer)):
        return None
    arrty = types.Array(ptr.dtype, 1, "C")

    def codegen(context, builder, sig, args):
        data, count = args
        ary = context.make_array(arrty)(context, builder)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(
            context.get_data_type(ptr.dtype)))
        count = context.cast(builder, count, sig.args[1], types.intp)
        context.populate_array(ary, data=data,
                               shape=cgutils.pack_array(builder, [count]),
                               strides=cgutils.pack_array(builder, [itemsize]),
                               itemsize=itemsize, meminfo=None)
        return ary._getvalue()

    return arrty(ptr, n), codegen


@intrinsic
def addr_ptr_nb(typingctx, addr):
    """A pointer to the int64 words at an address (an int64: ``ptr_addr_nb``'s, or a
    numpy array's ``ctypes.data``). Whoever stored the address keeps the memory alive."""
    if not isinstance(addr, types.Integer):
        return None
    ptrty = types.CPointer(types.int64)

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.inttoptr(v, context.get_value_type(ptrty))

    return ptrty(addr), codegen


@intrinsic
def ptr_addr_nb(typingctx, arr):
    """The address of a C-contiguous array's data (or of a pointer) as an int64."""
    if isinstance(arr, types.CPointer):
        def codegen(context, builder, sig, args):
            from llvmlite import ir
            return builder.ptrtoint(args[0], ir.IntType(64))
        return types.int64(arr), codegen
    if not (isinstance(arr, types.Array) and arr.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        from llvmlite import ir
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        return builder.ptrtoint(data, ir.IntType(64))

    return types.int64(arr), codegen


@intrinsic
def call_int64_fn_nb(typingctx, addr, ptr, x, y, z):
    """Call the C function at address `addr` (an int64 from, e.g., a numba
    ``cfunc``'s ``.address``) as int64 f(int64 *ptr, int64 x, int64 y, int64 z).

    The address is data, not code: kernels that call rarely needed, costly code
    this way do not link (and re-optimise) it at each level of their call tree,
    and stay cacheable (an address frozen into compiled code would not be)."""
    if not (isinstance(addr, types.Integer) and isinstance(ptr, types.CPointer)
            and ptr.dtype == types.int64
            and all(isinstance(v, types.Integer) for v in (x, y, z))):
        return None
    sig = types.int64(addr, ptr, x, y, z)

    def codegen(context, builder, sig, args):
        from llvmlite import ir
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64.as_pointer(), i64, i64, i64])
        fn = builder.inttoptr(context.cast(builder, args[0], sig.args[0], types.int64),
                              fnty.as_pointer())
        vals = [context.cast(builder, v, t, types.int64) for v, t in zip(args[2:], sig.args[2:])]
        return builder.call(fn, [args[1]] + vals)

    return sig, codegen


@intrinsic
def float_bits_nb(typingctx, x):
    """The 64 bits of a float64 as an int64 (to keep floats exactly in an int64 state)."""
    if not isinstance(x, types.Float):
        return None

    def codegen(context, builder, sig, args):
        from llvmlite import ir
        v = context.cast(builder, args[0], sig.args[0], types.float64)
        return builder.bitcast(v, ir.IntType(64))

    return types.int64(x), codegen


@intrinsic
def bits_float_nb(typingctx, b):
    """Inverse of float_bits_nb."""
    if not isinstance(b, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        from llvmlite import ir
        v = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.bitcast(v, ir.DoubleType())

    return types.float64(b), codegen


@intrinsic
def popcount_nb(typingctx, x):
    """The number of set bits of an integer (one instruction: LLVM's ctpop), as int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], sig.args[0], types.uint64)
        return builder.ctpop(v)

    return types.int64(x), codegen


# the C signature call_int64_fn_nb calls: int64 f(int64 *ptr, int64 x, int64 y, int64 z)
INT64_FN_SIG = types.int64(types.CPointer(types.int64), types.int64, types.int64, types.int64)


class LazyAddress:
    """``address()``: the address of ``fn`` compiled as a numba ``cfunc`` of
    INT64_FN_SIG with ``cache=True``, compiled (or loaded from the cache) on
    first use, once per process. The address is valid in this process only."""

    def __init__(self, fn):
        self.fn = fn
        self.compiled = None
        self.lock = threading.Lock()

    def __call__(self) -> int:
        with self.lock:
            if self.compiled is None:
                self.compiled = cfunc(INT64_FN_SIG, cache=True)(self.fn)
            return self.compiled.address


def function_at(fntype):
    """An intrinsic ``f(jit_addr, c_addr)`` -> a first-class function of type
    ``fntype`` (a ``types.FunctionType``) made from two addresses (``decide_addresses``).

    Handing a compiled function from Python to a kernel as an argument makes numba
    look it up (a dispatcher and two LLVM symbol look-ups) at every call: hundreds of
    µs, more than a whole game. A kernel that takes the addresses as int64 words and
    makes the function itself calls the same code without that cost."""
    from numba.experimental.function_type import FunctionModel  # noqa: F401 (registers the model)

    @intrinsic
    def function_at_nb(typingctx, jit_addr, c_addr):
        if not (isinstance(jit_addr, types.Integer) and isinstance(c_addr, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            voidptr = context.get_value_type(types.voidptr)
            fn = cgutils.create_struct_proxy(fntype)(context, builder)
            fn.jit_addr = builder.inttoptr(context.cast(builder, args[0], sig.args[0], types.int64),
                                           voidptr)
            fn.c_addr = builder.inttoptr(context.cast(builder, args[1], sig.args[1], types.int64),
                                         voidptr)
            fn.py_addr = cgutils.get_null_value(voidptr)
            return fn._getvalue()

        return fntype(jit_addr, c_addr), codegen

    return function_at_nb


_ADDRESSES: dict = {}


def decide_addresses(fn, sig) -> tuple[int, int]:
    """(numba-convention address, C wrapper address) of a compiled function for a
    signature (compiled, or loaded from the cache, if needed), looked up once per
    process: what ``function_at`` turns back into a function inside a kernel."""
    # keyed by the signature's id: hashing a numba Signature costs ~1.2 us, paid by
    # every playout or bot answer of a fresh clone; the entry keeps sig alive, so
    # its id is not reused
    key = (fn, id(sig))
    out = _ADDRESSES.get(key)
    if out is None:
        # numba's own look-ups for a first-class function argument (its unboxing)
        from numba.experimental.function_type import _get_jit_address, _get_wrapper_address
        out = _ADDRESSES[key] = (_get_jit_address(fn, sig), _get_wrapper_address(fn, sig), sig)
    return out[0], out[1]
