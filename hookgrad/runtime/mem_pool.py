"""MindSpore's pluggable allocator: ``PluggableAllocator`` (an allocator's ``alloc`` and ``free``
functions loaded from a shared library), ``MemPool`` (a pool over one) and ``use_mem_pool``.

The allocator and the pool are real: the library is loaded with ctypes and the two functions'
addresses are kept, with MindSpore's errors for a missing library or function. Routing
allocations to them is not available: MindSpore calls them with Ascend's signature
(``void* alloc(size_t, int device, aclrtStream)``) from its device pool, and hookgrad's tensors
come from NumPy (CPU) and CuPy's pool (GPU), so ``use_mem_pool`` raises rather than letting
allocations silently bypass the pool.
"""
import contextlib
import ctypes

__all__ = ['PluggableAllocator', 'MemPool', 'use_mem_pool']


class PluggableAllocator:
    """The functions ``alloc_fn_name`` and ``free_fn_name`` of the shared library
    ``path_to_so_file``.

    Raises:
        OSError: the library cannot be loaded. AttributeError: it lacks a function.
        ValueError: a function's address is null.
    """

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str):
        library = ctypes.CDLL(path_to_so_file)
        alloc_fn = ctypes.cast(getattr(library, alloc_fn_name), ctypes.c_void_p).value
        free_fn = ctypes.cast(getattr(library, free_fn_name), ctypes.c_void_p).value
        if alloc_fn is None:
            raise ValueError(f"Cannot find allocator function {alloc_fn_name} in "
                             f"{path_to_so_file}")
        if free_fn is None:
            raise ValueError(f"Cannot find free function {free_fn_name} in {path_to_so_file}")
        self._alloc_fn = alloc_fn
        self._free_fn = free_fn

    @property
    def alloc_fn_ptr(self) -> int:
        """The address of the allocation function."""
        return self._alloc_fn

    @property
    def free_fn_ptr(self) -> int:
        """The address of the free function."""
        return self._free_fn


class MemPool:
    """A pool allocating with ``allocator`` (a ``PluggableAllocator``), for ``use_mem_pool``."""

    def __init__(self, allocator: PluggableAllocator):
        self._allocator = allocator

    @property
    def allocator(self) -> PluggableAllocator:
        """The pool's allocator."""
        return self._allocator


@contextlib.contextmanager
def use_mem_pool(pool: MemPool):
    """Route the block's allocations to ``pool``: not available in hookgrad (see the module
    docstring).

    Raises:
        TypeError: ``pool`` is not a MemPool.
        RuntimeError: for any MemPool, on entering the block.
    """
    if not isinstance(pool, MemPool):
        raise TypeError(f"For 'use_mem_pool', the argument 'pool' should be MemPool, but got "
                        f"{type(pool)}.")
    raise RuntimeError("use_mem_pool: routing allocations to a PluggableAllocator needs "
                       "MindSpore's Ascend memory pool; hookgrad allocates CPU tensors with "
                       "NumPy and GPU tensors from CuPy's memory pool, which cannot call it")
    yield  # pragma: no cover  (a generator, so that the call returns a context manager)
