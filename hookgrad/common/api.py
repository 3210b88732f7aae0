"""``mindspore.common.api``: where MindSpore code imports ``jit`` and its companions from."""
from ..jit import jit, ms_function, jit_class, JitConfig, mutable, constexpr

__all__ = ['jit', 'ms_function', 'jit_class', 'JitConfig', 'mutable', 'constexpr']


class _PynativeExecutor:
    """The object MindSpore's code and tests reach as ``_pynative_executor``. hookgrad runs
    every op to completion when it is called, so there is never pending work to wait for."""

    def sync(self):
        """Wait for pending device work: none here."""

    def __getattr__(self, name):
        from ..compat.names import NotAvailable
        raise NotAvailable(f"mindspore.common.api._pynative_executor.{name} is not available "
                           f"in hookgrad")


_pynative_executor = _PynativeExecutor()

from .cell_graph_executor import _cell_graph_executor  # noqa: E402,F401
