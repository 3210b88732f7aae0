"""Parameter: a named Tensor that a network trains (MindSpore's ``mindspore.Parameter``)."""
import itertools
import numbers

import numpy as np

from .._tensor import Tensor, _to_array
from ..kernels import backend
from ..autograd.function import effect
from ..common.initializer import initializer
from .parameter_internals import ParameterInternals

_INPUT_TYPES = (Tensor, np.ndarray, np.generic, numbers.Real, list, tuple)
# set_data may widen values (bool -> int -> float) but never narrow their kind
_KIND_RANK = {'b': 0, 'u': 1, 'i': 1, 'f': 2, 'V': 2}    # 'V': bfloat16 (ml_dtypes)
# Parameters a Cell keeps in a list, tuple or ParameterTuple without a name are given one,
# 'Parameter#<n>' (MindSpore's generated names), so that names in a network stay unique
GENERATED_PREFIX = 'Parameter#'
_generated_ids = itertools.count(1)
_NAME_MAX_LEN = 1024


def generated_name():
    """A new unique name for a Parameter that has none."""
    return f"{GENERATED_PREFIX}{next(_generated_ids)}"


def is_generated_name(name):
    """Whether ``name`` is None or was generated for a Parameter without a name."""
    return name is None or name.startswith(GENERATED_PREFIX)


def _replace_data(p, array):
    p._data = array


class Parameter(ParameterInternals, Tensor):
    """A trainable Tensor with a name.

    Integer and boolean parameters are allowed (they hold state such as step counts); only
    floating ones receive gradients.

    Args:
        default_input: a Tensor (an ``initializer(...)`` result included), NumPy array, Python
            number or (nested) list holding the initial value; it is copied. A Python float
            gives Float32, a Python int Int64.
        name: the parameter's name, a str or None (a Cell names an unnamed parameter after
            the attribute holding it, or 'Parameter#<n>' in a list or tuple).
        requires_grad: whether gradients are computed for it. Default True.
        layerwise_parallel: MindSpore's parallel-mode flag, a bool kept as an attribute.
            Default False.
        parallel_optimizer: MindSpore's optimizer-sharding flag, a bool kept as an attribute.
            Default True.
        storage_format: '' only (other values choose an Ascend weight layout).
        device: None (the default device, ``set_device``'s) or 'CPU' (host memory).

    Raises:
        ValueError: for a ``name`` that is not a str or None, or one over 1024 characters; a
            ``storage_format`` or ``device`` hookgrad cannot honour.
        TypeError: for an unsupported ``default_input`` or a non-bool flag.

    >>> import hookgrad as ms
    >>> ms.Parameter(ms.Tensor([1.0, 2.0]), name='w')
    Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)
    """

    __slots__ = ('_name', '_layerwise_parallel', '_parallel_optimizer', '_sliced', '_owner')
    _is_parameter = True

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format='', device=None):
        name = _checked_name(name)
        layerwise_parallel = _flag(layerwise_parallel, 'layerwise_parallel')
        parallel_optimizer = _flag(parallel_optimizer, 'parallel_optimizer')
        if storage_format != '':
            raise ValueError(f"Parameter: storage_format {storage_format!r} selects an Ascend "
                             f"weight layout, which hookgrad cannot honour; use ''")
        if device is not None and device != 'CPU':
            raise ValueError(f"Parameter: device must be None or 'CPU' (None: the default "
                             f"device; 'CPU': host memory), got {device!r}")
        if isinstance(default_input, bool):
            raise ValueError("Parameter data can not be `bool`")
        if isinstance(default_input, Tensor):
            data = default_input._data.copy()       # a parameter owns its storage
        elif isinstance(default_input, _INPUT_TYPES):
            data = _to_array(default_input, None)
            if data.base is not None or not data.flags.writeable:
                data = np.array(data)
        else:
            raise TypeError(f"Parameter: default_input must be a Tensor, NumPy array, number or "
                            f"list, got {type(default_input).__name__}")
        self._data = backend.to_device(data, backend.CPU if device == 'CPU' else
                                       backend.default())
        self._node = None
        self._index = 0
        self.requires_grad = bool(requires_grad)
        self._name = name
        self._layerwise_parallel = layerwise_parallel
        self._parallel_optimizer = parallel_optimizer

    @property
    def name(self):
        """The parameter's name (str or None); settable."""
        return self._name

    @name.setter
    def name(self, name):
        self._name = _checked_name(name)

    @property
    def layerwise_parallel(self):
        """MindSpore's flag excluding the parameter from data-parallel gradient averaging; kept
        for its readers (hookgrad's data-parallel mode reduces every gradient)."""
        return self._layerwise_parallel

    @layerwise_parallel.setter
    def layerwise_parallel(self, value):
        self._layerwise_parallel = _flag(value, 'layerwise_parallel')

    @property
    def parallel_optimizer(self):
        """MindSpore's flag for sharding the parameter's optimizer state in parallel modes; kept
        for its readers (hookgrad does not shard optimizer state)."""
        return self._parallel_optimizer

    @parallel_optimizer.setter
    def parallel_optimizer(self, value):
        self._parallel_optimizer = _flag(value, 'parallel_optimizer')

    def init_data(self, layout=None, set_sliced=False):
        """The initialized parameter: itself, as hookgrad initializes values on creation.

        Raises:
            ValueError: for a ``layout`` (a parallel sharding), which hookgrad cannot honour.
        """
        if layout is not None:
            raise ValueError(f"Parameter '{self._name}'.init_data: a parallel layout cannot be "
                             f"honoured by hookgrad (no sharding); pass layout=None")
        return self

    def value(self):
        """A Tensor holding a copy of the current values (not connected to the graph)."""
        return Tensor._wrap(self._data.copy())

    def set_data(self, data, slice_shape=False):
        """Replace the values with ``data``, cast to this parameter's dtype; returns self.

        Args:
            data: a Tensor, NumPy or device array or number (copied to this parameter's
                device). Its shape becomes the parameter's, as in MindSpore.
            slice_shape (bool): MindSpore's flag for a sliced (model-parallel) parameter; kept
                as ``sliced``.

        Raises:
            TypeError: for another kind of ``data``, values of a wider kind than the
                parameter's (floats into an integer parameter, ints into a boolean one), or a
                ``slice_shape`` that is not a bool. Nothing changes when an error is raised.

        >>> import hookgrad as ms
        >>> b = ms.Parameter(ms.Tensor([0.5, 1.5, 2.5]), name='b')
        >>> print(b.set_data(ms.Tensor([3, 4, 5])).asnumpy())
        [3. 4. 5.]
        """
        if isinstance(data, Tensor):
            src = data._data
        elif backend.is_device_array(data):
            src = data
        elif isinstance(data, (np.ndarray, np.generic, numbers.Real)):
            src = np.asarray(data)
        else:
            raise TypeError(f"Parameter '{self._name}'.set_data: data must be a Tensor, NumPy "
                            f"array or number, got {type(data).__name__}")
        slice_shape = _flag(slice_shape, 'slice_shape')
        dst = self._data.dtype
        rank = _KIND_RANK.get(src.dtype.kind)
        if rank is None or rank > _KIND_RANK[dst.kind]:
            raise TypeError(f"Parameter '{self._name}'.set_data: cannot store {src.dtype} "
                            f"values in a {self.dtype} parameter")
        fresh = backend.to_device(src, backend.device_of(self._data)).astype(dst)
        effect(_replace_data, self, fresh)      # a fresh array: values saved by graphs stay
        self._sliced = slice_shape              # valid
        return self

    @property
    def sliced(self):
        """MindSpore's flag of a sliced (model-parallel) parameter, set by ``set_data``."""
        return bool(self._sliced)

    def register_hook(self, hook):
        """``Tensor.register_hook``; a Parameter with ``requires_grad=False`` gets no gradient,
        so, as in MindSpore, registering a hook on it is an error."""
        if not self.requires_grad:
            raise RuntimeError(f"The tensor requires grad is false, which can not register "
                               f"tensor hook (Parameter '{self.name}' has requires_grad=False)")
        return super().register_hook(hook)

    def clone(self, init='same'):
        """A new Parameter with this one's name, requires_grad, shape and dtype.

        Args:
            init: 'same' copies the values; anything ``initializer`` accepts (a name such as
                'zeros' or 'he_uniform', an Initializer, a number, a Tensor of this shape)
                gives freshly initialised values.
        """
        if isinstance(init, str) and init == 'same':
            data = Tensor._wrap(self._data)
        else:
            data = initializer(init, self.shape, self.dtype)
        clone = Parameter(data, name=self._name, requires_grad=self.requires_grad,
                          layerwise_parallel=self._layerwise_parallel,
                          parallel_optimizer=self._parallel_optimizer)
        clone._data = backend.to_device(clone._data, backend.device_of(self._data))
        self._copy_param_info(clone)
        return clone

    def __repr__(self):
        return (f"Parameter (name={self._name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__      # print(parameter) too, as MindSpore 2.10 prints it

    def __reduce__(self):
        return (Parameter, (backend.to_host(self._data), self._name, self.requires_grad,
                            self._layerwise_parallel, self._parallel_optimizer))


class ParameterTuple(tuple):
    """A tuple of Parameters that can be cloned under a new name prefix (MindSpore's).

    Args:
        iterable: Parameters; the same Parameter may appear twice, but two different
            Parameters may not share a name.

    Raises:
        TypeError: for an item that is not a Parameter.
        ValueError: for two different Parameters with the same name.

    >>> import hookgrad as ms
    >>> ps = ms.ParameterTuple([ms.Parameter(1.0, name='x')])
    >>> ps.clone('copy')
    (Parameter (name=copy.x, shape=(), dtype=Float32, requires_grad=True),)
    """

    def __new__(cls, iterable=()):
        items = tuple(iterable)
        seen = {}
        for i, p in enumerate(items):
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple: item {i} must be a Parameter, got "
                                f"{type(p).__name__}")
            if p.name is not None:
                other = seen.setdefault(p.name, p)
                if other is not p:
                    raise ValueError(f"ParameterTuple: item {i}: its name '{p.name}' already "
                                     f"exists in the tuple. Please set a unique name for the "
                                     f"parameter.")
        return super().__new__(cls, items)

    def clone(self, prefix, init='same'):
        """A ParameterTuple of clones (see ``Parameter.clone``) named ``prefix + '.' + name``.

        Raises:
            TypeError: if ``prefix`` is not a str.
            ValueError: if ``prefix`` is empty or a parameter has no name.
        """
        if not isinstance(prefix, str):
            raise TypeError(f"ParameterTuple.clone: prefix must be a str, got "
                            f"{type(prefix).__name__}")
        if not prefix:
            raise ValueError("ParameterTuple.clone: prefix must not be empty")
        for i, p in enumerate(self):
            if p.name is None:
                raise ValueError(f"ParameterTuple.clone: item {i} has no name to prefix "
                                 f"with '{prefix}'")
        clones = {}     # a Parameter listed twice gets one clone, listed twice
        for p in self:
            if id(p) not in clones:
                c = clones[id(p)] = p.clone(init)
                c.name = f"{prefix}.{p.name}"
        return ParameterTuple(clones[id(p)] for p in self)


def _checked_name(name):
    """``name`` (None kept), checked as MindSpore checks it (errors are ValueErrors)."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise ValueError(f"Parameter: name must be a str or None, got {type(name).__name__}")
    if len(name) > _NAME_MAX_LEN:
        raise ValueError(f"Parameter: the name {name[:40]!r}... is {len(name)} characters long, "
                         f"more than {_NAME_MAX_LEN}")
    return name


def _flag(value, arg):
    if not isinstance(value, bool):
        raise TypeError(f"Parameter: {arg} must be a bool, got {value!r}")
    return value
