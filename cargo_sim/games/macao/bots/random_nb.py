"""Macao's `random` bot: a uniformly random legal answer, from the seat's own stream."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ....core.borrow_nb import state_ptr_nb
from ....core.layout import M_BOT_RNG
from ....core.rng_nb import rand_below_at_nb
from ..engine_nb import legal_nb
from ..enums import MAX_LEGAL


@intrinsic
def legal_buffer_nb(typingctx):
    """MAX_LEGAL int64 words on the calling kernel's stack, as a raw pointer: the answers
    of one decision without a heap allocation (an allocation and its free were about a
    fifth of random games' time; docs/performance.md, Macao). Valid until the caller
    returns; never returned or stored."""
    def codegen(context, builder, sig, args):
        return cgutils.alloca_once(builder, context.get_value_type(types.int64),
                                   size=context.get_constant(types.intp, MAX_LEGAL))
    return types.CPointer(types.int64)(), codegen


@njit(cache=True)
def random_at_nb(kind, s, seat, at):
    """A uniformly random legal answer drawn from the stream in word ``at``."""
    out = legal_buffer_nb()
    n = legal_nb(state_ptr_nb(s), out)
    if n == 0:
        return -1
    return out[rand_below_at_nb(s, at, n)]


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    return random_at_nb(kind, s, seat, M_BOT_RNG)
