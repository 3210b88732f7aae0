"""MindSpore's Tensor members for its runtime and compiler (``const_arg``, ``init_flag``,
``param_info``, ``offload``, ``data_sync``...), with the values MindSpore 2.10 gives on CPU.

hookgrad tensors hold their values in host memory from creation, so the members that wait
for a device or a lazy initialisation have nothing to wait for. The few that are set are kept
in the tensor's ``_extras`` dict, made on first write and replaced on each write.
"""
import os
import weakref

from ..compat import checkparam as _checkparam

__all__ = ['InternalMembers', 'ParamInfo']


def _set(tensor, key, value):
    # copy on write: a shallow copy of a tensor shares the dict, and must not see this write
    extras = tensor._extras
    tensor._extras = {key: value} if extras is None else {**extras, key: value}


def _get(tensor, key, default):
    extras = tensor._extras
    return default if extras is None else extras.get(key, default)


def _remove_file(path):
    try:
        os.remove(path)
    except OSError:
        pass


class ParamInfo:
    """What MindSpore keeps about a Parameter besides its values: the cache, communication
    fusion and key settings (``Parameter.param_info``); ``name`` and ``requires_grad`` are
    the Parameter's own."""

    __slots__ = ('obj', 'cache_enable', 'cache_shape', 'comm_fusion', 'key',
                 'parallel_optimizer_comm_recompute', '_name', '_requires_grad')

    def __init__(self):
        self.obj = None
        self.cache_enable = False
        self.cache_shape = []
        self.comm_fusion = 1
        self.key = -1
        self.parallel_optimizer_comm_recompute = False
        self._name = None
        self._requires_grad = True

    @property
    def name(self):
        return self.obj.name if self.obj is not None else self._name

    @name.setter
    def name(self, value):
        if self.obj is not None:
            self.obj.name = value
        self._name = value

    @property
    def requires_grad(self):
        return self.obj.requires_grad if self.obj is not None else self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if self.obj is not None:
            self.obj.requires_grad = value
        self._requires_grad = value


class InternalMembers:
    """Tensor's members for MindSpore's runtime and compiler."""

    __slots__ = ()

    delta_seed = 0      # MindSpore's class-wide offset for random initialisers

    # ----------------------------------------------------------------- flags
    @property
    def const_arg(self):
        """Whether a jit-compiled network takes this tensor as a constant (default False)."""
        return _get(self, 'const_arg', False)

    @const_arg.setter
    def const_arg(self, value):
        _set(self, 'const_arg', value)

    def set_const_arg(self, const_arg=True):
        """Mark the tensor as a constant network argument (or not); returns the tensor.

        Raises:
            TypeError: when ``const_arg`` is not a bool.
        """
        _checkparam.check_value_type('const_arg', const_arg, bool, 'set_const_arg')
        _set(self, 'const_arg', const_arg)
        return self

    @property
    def init_flag(self):
        """The runtime's "initialised on the device" flag (default False)."""
        return _get(self, 'init_flag', False)

    @init_flag.setter
    def init_flag(self, value):
        _set(self, 'init_flag', bool(value))

    def set_init_flag(self, flag):
        """Set ``init_flag``; returns None."""
        _set(self, 'init_flag', bool(flag))

    @property
    def init_finished(self):
        """True: a hookgrad tensor holds its values from creation."""
        return True

    @property
    def is_meta(self):
        """False: every hookgrad tensor holds values (none lives on a "meta" device)."""
        return False

    @property
    def virtual_flag(self):
        """MindSpore's mark of a virtual (placeholder) tensor (default False)."""
        return _get(self, 'virtual_flag', False)

    @virtual_flag.setter
    def virtual_flag(self, value):
        _set(self, 'virtual_flag', value)

    @property
    def symbolic_shape(self):
        """None: hookgrad tensors have concrete shapes, no symbolic ones."""
        return None

    @property
    def init(self):
        """None: hookgrad makes a tensor's values at creation, so no initializer waits."""
        return None

    # ----------------------------------------------------------------- parameter info
    @property
    def param_info(self):
        """The ``ParamInfo`` set with ``set_param_info`` (None for a plain tensor)."""
        return _get(self, 'param_info', None)

    def set_param_info(self, param_info):
        """Attach a ``ParamInfo``; returns None.

        Raises:
            TypeError: when ``param_info`` is not a ParamInfo.
        """
        if not isinstance(param_info, ParamInfo):
            raise TypeError(f"set_param_info: param_info must be a ParamInfo, got "
                            f"{type(param_info).__name__}")
        _set(self, 'param_info', param_info)

    @property
    def parent_tensor_(self):
        """The tensor MindSpore's indexing took this one from, for writing back; None: a
        hookgrad indexing result is a new tensor that does not write back."""
        return _get(self, 'parent_tensor_', None)

    @parent_tensor_.setter
    def parent_tensor_(self, value):
        _set(self, 'parent_tensor_', value)

    @property
    def index_of_parent_(self):
        """The index into ``parent_tensor_`` (None when there is none)."""
        return _get(self, 'index_of_parent_', None)

    @index_of_parent_.setter
    def index_of_parent_(self, value):
        _set(self, 'index_of_parent_', value)

    # ----------------------------------------------------------------- memory
    def data_sync(self, waiting=True):
        """Nothing to do: the values already live in host memory; returns None."""
        return None

    def wait_pipeline(self):
        """Nothing to wait for: operations finish before they return; returns None."""
        return None

    def get_bytes(self):
        """The values as raw bytes in C order (``asnumpy().tobytes()``)."""
        return self.asnumpy().tobytes()

    def offload(self, file_path):
        """Write the values as raw bytes to ``file_path`` and remember the path; the tensor
        keeps its values, and the file goes when the tensor does (as in MindSpore). Returns
        True.

        Raises:
            TypeError: when ``file_path`` is not a str.
        """
        if not isinstance(file_path, str):
            raise TypeError(f"Tensor.offload: file_path must be a str, got "
                            f"{type(file_path).__name__}")
        with open(file_path, 'wb') as f:
            f.write(self.get_bytes())
        _set(self, 'offload_file_path', file_path)
        weakref.finalize(self, _remove_file, file_path)
        return True

    def offload_file_path(self):
        """The file the last ``offload`` wrote ('' if none)."""
        return _get(self, 'offload_file_path', '')

    def pin_memory(self):
        """Not available: MindSpore pins host memory through an Ascend device (on CPU it
        raises too); hookgrad tensors live in ordinary host memory.

        Raises:
            RuntimeError: always.
        """
        raise RuntimeError("Tensor.pin_memory needs an Ascend device in MindSpore (it raises on "
                           "CPU as well); hookgrad tensors live in ordinary host memory")

    @staticmethod
    def remove_hook(handle_id):
        """Not available: hookgrad's hook handles have no global ids.

        Raises:
            NotImplementedError: always; call ``remove()`` on the handle ``register_hook``
                returned.
        """
        raise NotImplementedError("Tensor.remove_hook: hookgrad's hook handles have no global "
                                  "ids; call remove() on the handle register_hook returned")
