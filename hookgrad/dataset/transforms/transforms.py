"""General data transforms (MindSpore's ``mindspore.dataset.transforms``).

Each transform is a callable object: called eagerly on NumPy arrays (``OneHot(3)(labels)``) or
given to ``Dataset.map(operations=[...])``, which calls it with the input columns' arrays as
positional arguments. A tuple return is several columns. Random transforms draw from
``dataset.engine.row_generator()`` (hookgrad's global generator outside ``Dataset.map``, a
per-row generator seeded from it inside), so ``ms.set_seed`` makes them repeat.
"""
import enum

import numpy as np

from ... import _dtype
from ..engine import row_generator
from . import _checks

__all__ = ['TensorOperation', 'PyTensorOperation', 'Compose', 'Concatenate', 'Duplicate',
           'Fill', 'Mask', 'OneHot', 'PadEnd', 'RandomApply', 'RandomChoice', 'RandomOrder',
           'Relational', 'Slice', 'TypeCast', 'Unique']

_SCALAR_TYPES = (str, float, bool, int, bytes)


class TensorOperation:
    """Base class of the transforms: ``op(*arrays)`` applies ``_apply`` to NumPy arrays.

    Subclasses with one input column set ``_one_to_one``; ``_apply`` receives the arrays and
    returns an array or a tuple of arrays (several output columns).
    """

    _one_to_one = True

    def __call__(self, *inputs):
        if self._one_to_one and len(inputs) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        return self._apply(*(self._to_array(x) for x in inputs))

    @staticmethod
    def _to_array(x):
        return x if isinstance(x, np.ndarray) else np.asarray(x)

    def _apply(self, *arrays):
        raise NotImplementedError


class PyTensorOperation(TensorOperation):
    """Base class of the transforms MindSpore implements in Python (they pass PIL images on)."""


def _apply_all(ops, args):
    """Run ``ops`` in order, a tuple result feeding several arguments to the next one."""
    for op in ops:
        out = op(*args)
        args = out if isinstance(out, tuple) else (out,)
    return args[0] if len(args) == 1 else args


class Compose(TensorOperation):
    """Apply a list of transforms in order, as one transform.

    Args:
        transforms: a non-empty list of transforms or Python callables.

    Raises:
        TypeError: if ``transforms`` is not a list of callables. ValueError: if it is empty.
    """

    _one_to_one = False

    def __init__(self, transforms):
        self.transforms = _checks.transform_list(transforms)

    def __call__(self, *inputs):
        return _apply_all(self.transforms, inputs)


class Concatenate(TensorOperation):
    """Join 1-D inputs, with optional arrays before (``prepend``) and after (``append``).

    Args:
        axis: the axis to join along; only 0 (or -1) is supported, as in MindSpore.
        prepend, append: 1-D NumPy arrays of the input's dtype, or None.
    """

    _one_to_one = False

    def __init__(self, axis=0, prepend=None, append=None):
        _checks.type_check(axis, (int,), 'axis')
        if axis not in (0, -1):
            raise ValueError("only 1D concatenation supported.")
        for name, arr in (('prepend', prepend), ('append', append)):
            if arr is not None:
                _checks.type_check(arr, (np.ndarray,), name)
                if arr.ndim != 1:
                    raise ValueError(f"can only {name} 1D arrays.")
        self.axis, self.prepend, self.append = axis, prepend, append

    def _apply(self, *arrays):
        parts = []
        for name, arr in (('prepend', self.prepend), ('append', self.append)):
            if arr is not None and arr.dtype != arrays[0].dtype and \
                    not (arr.dtype.kind == 'U' and arrays[0].dtype.kind == 'U'):
                raise RuntimeError(f"Concatenate: input datatype does not match the {name} "
                                   f"datatype, got input datatype: {arrays[0].dtype}, {name} "
                                   f"datatype:{arr.dtype}")
        for x in arrays:
            if x.ndim != 1:
                raise RuntimeError(f"Concatenate: only 1D input supported, got rank of input: "
                                   f"{x.ndim}")
            if x.dtype != arrays[0].dtype:
                raise RuntimeError("Concatenate: inconsistent datatype of input.")
        if self.prepend is not None:
            parts.append(self.prepend)
        parts.extend(arrays)
        if self.append is not None:
            parts.append(self.append)
        return np.concatenate(parts)


class Duplicate(TensorOperation):
    """Return the input and a copy of it: two columns."""

    _one_to_one = False

    def _apply(self, *arrays):
        if len(arrays) != 1:
            raise RuntimeError(f"Duplicate: only supports transform one column each time, got "
                               f"column num: {len(arrays)}, check 'input_columns' when call "
                               f"this operator.")
        return arrays[0], arrays[0].copy()


class Fill(TensorOperation):
    """An array of the input's shape and dtype filled with ``fill_value``."""

    def __init__(self, fill_value):
        _checks.type_check(fill_value, _SCALAR_TYPES, 'fill_value')
        self.fill_value = fill_value

    def _apply(self, x):
        is_text = x.dtype.kind in 'US'
        if is_text != isinstance(self.fill_value, (str, bytes)):
            kind = 'string' if isinstance(self.fill_value, (str, bytes)) else 'number'
            raise RuntimeError(f"Fill: fill_value and the input tensor must be of the same data "
                               f"type when involving strings or bytes, but got fill_value data "
                               f"type {kind} and input tensor data type "
                               f"{'string' if is_text else x.dtype}")
        if is_text:
            return np.full(x.shape, self.fill_value)
        return np.full(x.shape, self.fill_value).astype(x.dtype)


class Relational(enum.IntEnum):
    """The comparisons of ``Mask``."""
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_COMPARE = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
            Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """Compare every element with ``constant``: ``operator(x, constant)``, as ``dtype``.

    Args:
        operator: a ``Relational``.
        constant: a str, float, bool, int or bytes.
        dtype: the output dtype (a hookgrad dtype). Default ``ms.bool_``.
    """

    def __init__(self, operator, constant, dtype=_dtype.bool_):
        _checks.type_check(operator, (Relational,), 'operator')
        _checks.type_check(constant, _SCALAR_TYPES, 'constant')
        _checks.type_check(dtype, (_dtype.DType,), 'dtype')
        self.operator, self.constant = operator, constant
        self.dtype = np.dtype(_dtype.to_numpy(dtype))

    def _apply(self, x):
        return _COMPARE[self.operator](x, self.constant).astype(self.dtype)


class OneHot(TensorOperation):
    """One-hot encode integer labels (a scalar or 1-D array) over ``num_classes`` classes.

    With ``smoothing_rate`` s > 0 the result is float64 ``(1 - s) * onehot + s / num_classes``
    (MindSpore 2.10 gives wrong rows here for inputs of more than one label; hookgrad gives the
    formula's values). Without smoothing the result has the input's dtype. A negative label
    gives a row of zeros.

    >>> import numpy as np
    >>> from hookgrad.dataset import transforms
    >>> transforms.OneHot(3)(np.array([0, 2])).tolist()
    [[1, 0, 0], [0, 0, 1]]
    """

    def __init__(self, num_classes, smoothing_rate=0.0):
        _checks.type_check(num_classes, (int,), 'num_classes')
        if num_classes <= 0:
            raise ValueError("Input must be greater than 0.")
        _checks.type_check(smoothing_rate, (int, float), 'smoothing_rate')
        _checks.in_range(smoothing_rate, 0.0, 1.0, 'smoothing_rate')
        self.num_classes, self.smoothing_rate = num_classes, smoothing_rate

    def _apply(self, x):
        if x.dtype.kind not in 'iu':
            kind = 'string' if x.dtype.kind in 'US' else x.dtype
            raise RuntimeError(f"OneHot: Only support input of int type, but got: {kind}")
        if x.ndim > 1:
            raise RuntimeError(f"OneHot: Only support scalar or 1D input, got rank: {x.ndim}")
        if x.size and x.max() >= self.num_classes:
            raise RuntimeError(f"OneHot: index values should not bigger than num classes: "
                               f"{self.num_classes}, but got: {x.max()}")
        out = (x[..., None] == np.arange(self.num_classes)).astype(x.dtype)
        if self.smoothing_rate:
            s = self.smoothing_rate
            return out * (1.0 - s) + s / self.num_classes
        return out


class PadEnd(TensorOperation):
    """Pad (or cut) the end of each axis to ``pad_shape`` with ``pad_value`` (default 0/'')."""

    def __init__(self, pad_shape, pad_value=None):
        _checks.type_check(pad_shape, (list,), 'pad_shape')
        for n in pad_shape:
            if n is not None:
                _checks.type_check(n, (int,), 'pad_shape')
                _checks.in_range(n, 1, np.iinfo(np.int64).max)
        if pad_value is not None:
            _checks.type_check(pad_value, _SCALAR_TYPES, 'pad_value')
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def _apply(self, x):
        if len(self.pad_shape) != x.ndim:
            raise RuntimeError(f"PadEnd: invalid pad shape, as rank of input is: {x.ndim}, and "
                               f"rank of pad value: {len(self.pad_shape)}")
        shape = tuple(n if n is not None else d for n, d in zip(self.pad_shape, x.shape))
        text = x.dtype.kind in 'US'
        value = self.pad_value if self.pad_value is not None else ('' if text else 0)
        if text:
            out = np.full(shape, value, dtype=np.result_type(x.dtype, np.array(value).dtype))
        else:
            out = np.full(shape, value).astype(x.dtype)
        keep = tuple(slice(0, min(a, b)) for a, b in zip(shape, x.shape))
        out[keep] = x[keep]
        return out


class RandomApply(TensorOperation):
    """With probability ``prob``, apply ``transforms`` in order; otherwise pass through."""

    _one_to_one = False

    def __init__(self, transforms, prob=0.5):
        self.transforms = _checks.transform_list(transforms)
        _checks.type_check(prob, (float, int), 'prob')
        _checks.in_range(prob, 0, 1, 'prob')
        self.prob = prob

    def __call__(self, *inputs):
        if row_generator().random() < self.prob:
            return _apply_all(self.transforms, inputs)
        return inputs[0] if len(inputs) == 1 else inputs


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, picked uniformly at random."""

    _one_to_one = False

    def __init__(self, transforms):
        self.transforms = _checks.transform_list(transforms)

    def __call__(self, *inputs):
        op = self.transforms[int(row_generator().integers(len(self.transforms)))]
        return _apply_all([op], inputs)


class RandomOrder(TensorOperation):
    """Apply all of ``transforms``, in a random order."""

    _one_to_one = False

    def __init__(self, transforms):
        self.transforms = _checks.transform_list(transforms)

    def __call__(self, *inputs):
        order = row_generator().permutation(len(self.transforms))
        return _apply_all([self.transforms[i] for i in order], inputs)


class Slice(TensorOperation):
    """Index the input with ``slices``: one per leading axis (int, list of ints, slice,
    True/None/Ellipsis for the whole axis)."""

    def __init__(self, *slices):
        for s in slices:
            if s is not None:
                _checks.type_check(s, (int, list, slice, bool, type(Ellipsis)), 'slice')
        self.slices = slices

    def _apply(self, x):
        index = []
        for s in self.slices:
            if s is None or s is Ellipsis or s is True:
                index.append(slice(None))
            elif s is False:
                index.append(slice(0, 0))
            elif isinstance(s, slice):
                if s.step is not None and s.step < 0:
                    raise RuntimeError("Wrong slice object")
                index.append(s)
            else:
                index.append(np.atleast_1d(np.asarray(s, dtype=np.int64)))
        if len(index) > x.ndim:
            raise RuntimeError("Invalid shape, should be greater than slices index.")
        out = x
        for axis, ix in enumerate(index):
            if isinstance(ix, np.ndarray):
                bad = ix[(ix >= x.shape[axis]) | (ix < -x.shape[axis])]
                if bad.size:
                    raise RuntimeError(f"Index {bad[0]} is out of bounds.")
                out = np.take(out, ix, axis=axis)
            else:
                out = out[(slice(None),) * axis + (ix,)]
        return out


class TypeCast(TensorOperation):
    """Cast the input to ``data_type`` (a hookgrad dtype such as ``ms.int32`` or a NumPy one)."""

    def __init__(self, data_type):
        self.data_type = _checks.data_type(data_type)

    def _apply(self, x):
        if x.dtype.kind in 'US' and self.data_type.kind not in 'US':
            raise RuntimeError(f"TypeCast: TypeCast does not support cast from string to "
                               f"{self.data_type}")
        return x.astype(self.data_type)


class Unique(TensorOperation):
    """Unique elements (first-seen order) of a flattened input of rank >= 2.

    Returns:
        (values, index of each input element in ``values`` (int32), count of each value
        (int32)): three columns.
    """

    def _apply(self, x):
        if x.ndim < 2:
            raise RuntimeError(f"Unique: input must be at least 2-D in order to do unique op, "
                               f"got rank:{x.ndim}")
        if x.dtype.kind not in 'biufV':
            raise RuntimeError("Unique: only support numeric datatype of input, got string.")
        flat = x.ravel()
        values, first, inverse, counts = np.unique(flat, return_index=True,
                                                   return_inverse=True, return_counts=True)
        order = np.argsort(first, kind='stable')
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return (values[order], rank[inverse.ravel()].astype(np.int32),
                counts[order].astype(np.int32))
