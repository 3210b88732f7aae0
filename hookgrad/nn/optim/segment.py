"""How an optimizer lays out its work: segments of parameters, cut into cache-sized blocks.

A segment holds the parameters that share a dtype, a learning rate and a weight decay. Its
optimizer state (moments...) is one flat array per kind; each state Parameter is a view of its
slice. A step walks the segment block by block: a block covers about ``BLOCK`` values (several
small parameters, or a slice of a large one), so the handful of whole-array NumPy calls that
compute its update work on data that stays in cache, and a small network is a single block.
A large segment's blocks are shared between free cores in contiguous runs, each run with its
own scratch arrays. On a device (a GPU) a segment is one block and one run: its arrays are
the device's, and the kernels of one update are launched over all of it.
"""
import math

import numpy as np

from ...kernels import threads as _threads
from ...kernels.backend import array_module

BLOCK = 1 << 16     # values per block: gradient, scratch and state slices stay within L2


class Block:
    """A run of values of one segment: whole parameters, or one slice of a large parameter.

    ``pieces`` holds ``(i, param, a, b, whole, out)``: the parameter's position among the
    optimizer's parameters, the parameter, the range ``[a, b)`` of its flattened values, whether
    that is all of it, and the view of the scratch ``t`` that holds its update.
    """

    __slots__ = ('pieces', 'lo', 'hi', 'weight_decay', 'state', 'g', 't', 'centralize', 'mode')

    def __init__(self, pieces, lo, hi, weight_decay):
        self.pieces = pieces
        self.lo, self.hi = lo, hi
        self.weight_decay = weight_decay
        self.state = {}
        self.mode = None        # SGD: whether the block's 'stat' flags are all set, clear or mixed

    def gather(self, grads):
        """``self.g`` <- the block's gradient values, flattened and concatenated."""
        np.concatenate([grads[i] if whole else grads[i][a:b]
                        for i, _, a, b, whole, _ in self.pieces], axis=None, out=self.g)
        return self.g

    def gather_params(self, out):
        """``out`` <- the block's parameter values."""
        np.concatenate([p._data if whole else p._data.reshape(-1)[a:b]
                        for _, p, a, b, whole, _ in self.pieces], axis=None, out=out)
        return out

    def apply(self):
        """Subtract the update held in ``self.t`` from the parameters, in place."""
        for _, p, a, b, whole, out in self.pieces:
            x = p._data
            if not whole:                   # C-contiguous (``Segment.prepare``): a flat view
                x = x.reshape(-1)[a:b]      # writes through
            np.subtract(x, out, out=x)


class Segment:
    """Parameters sharing dtype, learning-rate slot and weight decay, and their blocks."""

    __slots__ = ('index', 'params', 'shapes', 'sizes', 'size', 'dtype', 'slot', 'weight_decay',
                 'gc_flags', 'split', 'split_params', 'blocks', 'scratch_runs', 'state', 'xp',
                 'flat', 'flat_views')

    def __init__(self, index, params, slot, weight_decay, gc_flags, limit=BLOCK):
        self.index = tuple(index)
        self.params = tuple(params)
        self.shapes = tuple(p.shape for p in params)
        self.sizes = tuple(math.prod(s) for s in self.shapes)
        self.size = sum(self.sizes)
        self.dtype = params[0]._data.dtype
        self.slot = slot
        self.weight_decay = weight_decay
        # MindSpore centralizes gradients of rank >= 2 whose second dimension is a multiple of 16
        self.gc_flags = tuple(flag and len(s) >= 2 and s[1] % 16 == 0
                              for flag, s in zip(gc_flags, self.shapes))
        self.state = {}
        self.flat = self.flat_views = None
        self.xp = xp = array_module(params[0]._data)
        if xp is not np:
            limit = self.size or 1          # a device: one block
        runs = _runs(self.sizes, self.gc_flags, limit)
        self.split = tuple(sorted({self.index[k] for _, _, run in runs
                                   for k, _, _, whole in run if not whole}))
        self.split_params = tuple(self.params[self.index.index(i)] for i in self.split)
        width = max(hi - lo for lo, hi, _ in runs)
        # one pair of scratch arrays per core, each serving a contiguous run of blocks; threads
        # take whole runs (``scratch_runs``: their first blocks), so no two share one
        sets = min(len(runs), _threads.cores() if xp is np else 1)
        scratch = [(xp.empty(width, self.dtype), xp.empty(width, self.dtype))
                   for _ in range(sets)]
        self.scratch_runs = [len(runs) * i // sets for i in range(sets + 1)]
        self.blocks = tuple(self._block(lo, hi, run, *scratch[_run_of(k, self.scratch_runs)])
                            for k, (lo, hi, run) in enumerate(runs))

    def _block(self, lo, hi, run, g, t):
        block = Block(None, lo, hi, self.weight_decay)
        block.g, block.t = g[:hi - lo], t[:hi - lo]
        pieces, centralize, offset = [], [], 0
        for k, a, b, whole in run:
            shape = self.shapes[k] if whole else (b - a,)
            out = block.t[offset:offset + b - a].reshape(shape)
            pieces.append((self.index[k], self.params[k], a, b, whole, out))
            if whole and self.gc_flags[k]:
                view = block.g[offset:offset + b - a].reshape(shape)
                centralize.append((view, tuple(range(1, len(shape)))))
            offset += b - a
        block.pieces = tuple(pieces)
        block.centralize = tuple(centralize)
        return block

    def views(self, flat):
        """One view of ``flat`` (this segment's values) per parameter, shaped like it."""
        out, offset = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            out.append(flat[offset:offset + size].reshape(shape))
            offset += size
        return out

    def flat_params(self):
        """The parameters' values as one flat array, each parameter's data a view of its slice
        (a fused update on a device then writes them all in one kernel). A parameter whose
        data was replaced since (``set_data``, a checkpoint load) is copied back in first."""
        if self.flat is None:
            self.flat = self.xp.empty(self.size, self.dtype)
            self.flat_views = self.views(self.flat)
            for view, p in zip(self.flat_views, self.params):
                view[...] = p._data
                p._data = view
        else:
            for view, p in zip(self.flat_views, self.params):
                if p._data is not view:
                    if p._data.shape != view.shape:
                        raise ValueError(f"Parameter '{p.name}' changed shape from "
                                         f"{view.shape} to {p._data.shape} after its optimizer "
                                         f"was made; make the optimizer again")
                    view[...] = p._data
                    p._data = view
        return self.flat

    def add_state(self, name, flat):
        self.state[name] = flat
        for block in self.blocks:
            block.state[name] = flat[block.lo:block.hi]

    def prepare(self, grads):
        """Make the gradients of split parameters flat (contiguous) for slicing, and their
        values contiguous and writeable, so that all their blocks, on whichever thread, write
        through one array."""
        if not self.split:
            return
        for i, p in zip(self.split, self.split_params):
            grads[i] = np.ascontiguousarray(grads[i]).reshape(-1)
            flags = p._data.flags
            if not (flags.c_contiguous and getattr(flags, 'writeable', True)):
                p._data = self.xp.array(p._data, order='C')


def _run_of(k, starts):
    """The run of blocks (``starts``: their first blocks, then the count) holding block k."""
    return max(i for i, start in enumerate(starts[:-1]) if start <= k)


def _runs(sizes, gc_flags, limit):
    """``(lo, hi, [(k, a, b, whole)...])`` per block, in order; parameters to centralize stay
    whole (their mean spans the whole gradient)."""
    runs, run, lo, offset = [], [], 0, 0
    for k, (size, gc) in enumerate(zip(sizes, gc_flags)):
        if size > limit and not gc:
            if run:
                runs.append((lo, offset, run))
                run = []
            for a in range(0, size, limit):
                b = min(a + limit, size)
                runs.append((offset + a, offset + b, [(k, a, b, False)]))
            offset += size
            lo = offset
            continue
        if run and offset + size - lo > limit:
            runs.append((lo, offset, run))
            run, lo = [], offset
        run.append((k, 0, size, True))
        offset += size
    if run:
        runs.append((lo, offset, run))
    return runs
