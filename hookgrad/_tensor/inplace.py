"""Tensor's in-place methods (``add_``, ``fill_``, ``masked_fill_``, ``uniform_``...) and fills.

An in-place method computes its result with ops and makes ``self`` hold it, keeping ``self``'s
shape and dtype, and returns ``self``. As with ``x[i] = v`` (``ops.setitem``): on a tensor in a
graph (a non-leaf, or a constant combined with a value that requires grad, with grad mode on)
``self`` is rebound to the recorded result, so gradients flow through the update; otherwise
(leaves, Parameters included, or grad mode off) the values are written in place, unrecorded.
``set_`` is the exception: it makes ``self`` a view of another tensor's memory, any shape.
"""
import numpy as np

from .. import _dtype
from ..autograd import function as _function
from ..kernels import backend as _backend, half as _half
from .info import _replace_data
from .shaping import _constant, _embed_along, _scattered

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


def _inplace(x, y, name):
    """Make ``x`` hold ``y`` (cast to x's dtype) and return ``x``."""
    if tuple(y.shape) != x.shape:
        raise ValueError(f"Tensor.{name}: the result has shape {tuple(y.shape)}, which cannot be "
                         f"written into a tensor of shape {x.shape}")
    if y._node is not None and not (x._node is None and x.requires_grad):
        if y._data.dtype != x._data.dtype:
            y = _ops.cast(y, x.dtype)
        x._data, x._node, x._index, x.requires_grad = y._data, y._node, y._index, y.requires_grad
        return x
    return _ops.assign(x, y)


def _no_generator(generator, name):
    if generator is not None:
        raise ValueError(f"Tensor.{name}: generator objects are not available in hookgrad; "
                         f"pass generator=None and seed with ms.set_seed")


class InplaceMethods:
    """In-place forms of ops (trailing ``_``), random fills and fills."""

    __slots__ = ()

    # ----------------------------------------------------------------- arithmetic
    def add_(self, other, *, alpha=1):
        """``self += alpha * other``; returns self."""
        return _inplace(self, _ops.add(self, _scaled(other, alpha)), 'add_')

    def sub_(self, other, *, alpha=1):
        """``self -= alpha * other``; returns self."""
        return _inplace(self, _ops.sub(self, _scaled(other, alpha)), 'sub_')

    def mul_(self, other):
        return _inplace(self, _ops.mul(self, other), 'mul_')

    def div_(self, other, *, rounding_mode=None):
        return _inplace(self, _ops.div(self, other, rounding_mode=rounding_mode), 'div_')

    def floor_divide_(self, other):
        return _inplace(self, _ops.floor_divide(self, other), 'floor_divide_')

    def remainder_(self, other):
        return _inplace(self, _ops.remainder(self, other), 'remainder_')

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return _inplace(self, _ops.addmm(self, mat1, mat2, beta=beta, alpha=alpha), 'addmm_')

    def clamp_(self, min=None, max=None):
        return _inplace(self, _ops.clamp(self, min, max), 'clamp_')

    def exp_(self):
        return _inplace(self, _ops.exp(self), 'exp_')

    def log_(self):
        return _inplace(self, _ops.log(self), 'log_')

    def floor_(self):
        return _inplace(self, _ops.floor(self), 'floor_')

    def sigmoid_(self):
        return _inplace(self, _ops.sigmoid(self), 'sigmoid_')

    def tanh_(self):
        return _inplace(self, _ops.tanh(self), 'tanh_')

    def sign_(self):
        return _inplace(self, _ops.sign(self), 'sign_')

    def erfinv_(self):
        return _inplace(self, self.erfinv(), 'erfinv_')

    # ----------------------------------------------------------------- writes
    def fill(self, value):
        """A new tensor of this shape and dtype filled with ``value``."""
        return _ops.full_like(self, value)

    fills = fill

    def fill_(self, value):
        """Fill with ``value`` (a number or a 0-d Tensor); returns self."""
        if hasattr(value, '_data'):
            return _inplace(self, _ops.broadcast_to(_ops.cast(value, self.dtype), self.shape),
                            'fill_')
        return _ops.assign(self, value)

    def zero_(self):
        """Fill with zeros; returns self."""
        return _ops.assign(self, 0)

    def copy_(self, src, non_blocking=False):
        """Copy ``src`` (broadcast to this shape, cast to this dtype) into self; returns self."""
        return _inplace(self, _ops.broadcast_to(_ops.cast(src, self.dtype), self.shape), 'copy_')

    def assign_value(self, value):
        """Replace the values (and shape) with a copy of ``value``'s; returns self."""
        if not hasattr(value, '_data'):
            raise TypeError(f"Tensor.assign_value: value must be a Tensor, got "
                            f"{type(value).__name__}")
        _function.effect(_replace_data, self, value)
        return self

    def masked_fill_(self, mask, value):
        return _inplace(self, _ops.masked_fill(self, mask, value), 'masked_fill_')

    def masked_scatter_(self, mask, source):
        return _inplace(self, self.masked_scatter(mask, source), 'masked_scatter_')

    def index_fill_(self, dim, index, value):
        return _inplace(self, _ops.index_fill(self, dim, index, value), 'index_fill_')

    def index_add_(self, dim, index, source, *, alpha=1):
        return _inplace(self, self.index_add(dim, index, source, alpha=alpha), 'index_add_')

    def index_copy_(self, dim, index, tensor):
        """Write the slices of ``tensor`` at ``index`` along ``dim``; returns self."""
        positions = index if hasattr(index, '_data') else np.asarray(index).reshape(-1).tolist()
        return _inplace(self, _embed_along(self, tensor, dim, positions), 'index_copy_')

    def scatter_(self, dim, index, src=None, *, reduce=None, value=None):
        """Write (``reduce`` None), add (``'add'``) or multiply (``'multiply'``) ``src`` (a
        Tensor, or a number given as ``src`` or ``value``) at ``index`` along ``dim``; returns
        self."""
        y = _scattered(self, dim, index, value if src is None else src, reduce, 'scatter_')
        return _inplace(self, y, 'scatter_')

    def scatter_add_(self, dim, index, src):
        return _inplace(self, _ops.tensor_scatter_elements(self, index, src, dim, 'add'),
                        'scatter_add_')

    def put_(self, index, source, accumulate=False):
        """Write (or add, with ``accumulate``) ``source`` at flat positions ``index``."""
        flat = _ops.reshape(self, (-1,))
        idx = _ops.expand_dims(_ops.reshape(index, (-1,)), -1)
        src = _ops.cast(_ops.reshape(source, (-1,)), self.dtype)
        y = (_ops.tensor_scatter_add if accumulate else _ops.tensor_scatter_update)(flat, idx, src)
        return _inplace(self, _ops.reshape(y, self.shape), 'put_')

    def index_put(self, indices, values, accumulate=False):
        """A copy with ``values`` written (or added) at ``self[indices]``, ``indices`` a tuple of
        index Tensors (one per leading dimension)."""
        shape = np.broadcast_shapes(*(tuple(i.shape) for i in indices))
        idx = _ops.stack([_ops.broadcast_to(i, shape) for i in indices], -1)
        target = idx.shape[:-1] + self.shape[len(indices):]
        values = _ops.broadcast_to(_ops.cast(values, self.dtype), target)
        op = _ops.tensor_scatter_add if accumulate else _ops.tensor_scatter_update
        return op(self, idx, values)

    def index_put_(self, indices, values, accumulate=False):
        return _inplace(self, self.index_put(indices, values, accumulate), 'index_put_')

    def fill_diagonal(self, fill_value, wrap=False):
        """A copy with the main diagonal set to ``fill_value`` (for tall matrices, ``wrap``
        restarts the diagonal every ``ncols + 1`` rows)."""
        if self.ndim < 2:
            raise ValueError(f"Tensor.fill_diagonal: the tensor must have rank >= 2, got shape "
                             f"{self.shape}")
        if self.ndim > 2 and len(set(self.shape)) != 1:
            raise ValueError(f"Tensor.fill_diagonal: all dimensions must be equal for rank > 2, "
                             f"got shape {self.shape}")
        mask = np.zeros(self.shape, np.bool_)
        if self.ndim == 2:
            rows, cols = self.shape
            step = cols + 1
            end = rows * cols if wrap else min(rows, cols) * cols
            mask.reshape(-1)[:end:step] = True
        else:
            mask[(np.arange(self.shape[0]),) * self.ndim] = True
        return _ops.masked_fill(self, _constant(mask, self), fill_value)

    def fill_diagonal_(self, fill_value, wrap=False):
        return _inplace(self, self.fill_diagonal(fill_value, wrap), 'fill_diagonal_')

    # ----------------------------------------------------------------- random fills
    def uniform_(self, from_=0, to=1, *, generator=None):
        """Fill with draws from U[from_, to); returns self."""
        _no_generator(generator, 'uniform_')
        return _ops.assign(self, _uniform(self, from_, to))

    def uniform(self, from_=0.0, to=1.0, generator=None):
        """A new tensor of this shape and dtype with draws from U[from_, to)."""
        _no_generator(generator, 'uniform')
        return _uniform(self, from_, to)

    def normal_(self, mean=0, std=1, *, generator=None):
        """Fill with draws from N(mean, std**2); returns self."""
        _no_generator(generator, 'normal_')
        z = _ops.randn_like(self, dtype=_float_of(self))
        return _ops.assign(self, _ops.add(_ops.mul(z, std), mean))

    def log_normal(self, mean=1.0, std=2.0):
        """A new tensor with draws of ``exp(N(mean, std**2))``."""
        z = _ops.randn_like(self, dtype=_float_of(self))
        return _ops.exp(_ops.add(_ops.mul(z, std), mean))

    def exponential_(self, lambd=1, *, generator=None):
        """Fill with draws from the exponential distribution of rate ``lambd``; returns self."""
        _no_generator(generator, 'exponential_')
        u = _ops.rand_like(self, dtype=_float_of(self))
        return _ops.assign(self, _ops.div(_ops.neg(_ops.log1p(_ops.neg(u))), lambd))

    def cauchy(self, median=0.0, sigma=1.0):
        """A new tensor with draws from the Cauchy distribution."""
        u = _ops.rand_like(self, dtype=_float_of(self))
        return _ops.add(_ops.mul(_ops.tan(_ops.mul(_ops.sub(u, 0.5), np.pi)), sigma), median)

    def random_(self, from_=0, to=None, *, generator=None):
        """Fill with integers drawn from [from_, to) (to: the dtype's limit when None)."""
        _no_generator(generator, 'random_')
        if to is None:
            dt = self._data.dtype
            to = (int(np.iinfo(dt).max) + 1 if dt.kind in 'iu'
                  else 2 ** (_half.finfo(dt).nmant + 1) if dt.kind in 'fV' else 2)
        if to <= from_:
            raise ValueError(f"Tensor.random_: from_ must be less than to, got {from_} and {to}")
        draws = _ops.randint_like(self, from_, to, dtype=_dtype.int64)
        return _ops.assign(self, draws)

    def bernoulli(self, *, generator=None):
        """0/1 draws with the probabilities held in this tensor."""
        _no_generator(generator, 'bernoulli')
        u = _ops.rand_like(self, dtype=_float_of(self))
        return _ops.cast(_ops.lt(u, self), self.dtype)

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 0/1 draws that are 1 with probability ``p``; returns self."""
        _no_generator(generator, 'bernoulli_')
        u = _ops.rand_like(self, dtype=_float_of(self))
        return _ops.assign(self, _ops.lt(u, p))

    def multinomial(self, num_samples, replacement=True, seed=None):
        return _ops.multinomial(self, num_samples, replacement, seed)

    # ----------------------------------------------------------------- storage
    def set_(self, source=None, storage_offset=0, size=None, stride=None):
        """Make this tensor a view of ``source``'s memory and return it: all of it with
        ``source`` alone, else ``size`` elements ``stride`` apart (in elements) from
        ``storage_offset`` on; empty without ``source``. Writes to either tensor show in the
        other. It is not recorded: gradients do not flow through it, and a tensor computed by
        recorded ops becomes a constant."""
        if source is None:
            if storage_offset != 0 or size is not None or stride is not None:
                raise TypeError("Tensor.set_: storage_offset, size and stride need a source")
            view = _backend.array_module(self._data).empty((0,), self._data.dtype)
        elif not hasattr(source, '_data'):
            raise TypeError(f"Tensor.set_: source must be a Tensor, got "
                            f"{type(source).__name__}")
        elif source._data.dtype != self._data.dtype:
            raise RuntimeError(f"Tensor.set_: cannot make a {self.dtype} tensor a view of a "
                               f"{source.dtype} tensor")
        elif size is None and stride is None and storage_offset == 0:
            view = source._data
        elif size is None or stride is None:
            raise TypeError("Tensor.set_: give source, storage_offset, size and stride together")
        else:
            view = _strided_view(source._data, storage_offset, size, stride)
        _function.effect(_share_data, self, view)
        return self


def _strided_view(a, offset, size, stride):
    """The view of contiguous array ``a``'s memory that ``set_`` describes, checked to lie in
    it."""
    size, stride = tuple(int(d) for d in size), tuple(int(d) for d in stride)
    if len(size) != len(stride) or min(size + stride + (offset,), default=0) < 0:
        raise ValueError(f"Tensor.set_: size {size} and stride {stride} must be non-negative "
                         f"and of one length, storage_offset {offset} non-negative")
    if not a.flags.c_contiguous:
        raise ValueError("Tensor.set_: source must be contiguous to be viewed with a stride")
    last = offset + sum((n - 1) * k for n, k in zip(size, stride)) if min(size, default=1) else -1
    if last >= a.size:
        raise ValueError(f"Tensor.set_: the view reaches element {last}, past the {a.size} "
                         f"elements of source")
    flat = a.reshape(-1)
    xp = _backend.array_module(a)
    return xp.lib.stride_tricks.as_strided(flat[offset:], size,
                                           tuple(k * a.itemsize for k in stride))


def _share_data(x, array):
    """x holds ``array``; a result of recorded ops becomes a constant, its graph no longer
    describing its values."""
    if x._node is not None:
        x._node, x._index, x.requires_grad = None, 0, False
    x._data = array


def _scaled(other, alpha):
    return other if alpha == 1 else _ops.mul(other, alpha)


def _float_of(x):
    return x.dtype if x._data.dtype.kind in 'fV' else _dtype.float32


def _uniform(x, low, high):
    u = _ops.rand_like(x, dtype=_float_of(x))
    return _ops.add(_ops.mul(u, high - low), low)

