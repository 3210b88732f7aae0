"""``_cell_graph_executor``: the object MindSpore's tests compile and run cells with
(``_cell_graph_executor.compile(net, x)``).

hookgrad compiles a cell by running it: ``compile`` checks the cell and keeps its inputs under a
phase name without running anything (so compiling a training cell takes no step), and ``run``
calls the cell; graph mode traces it on that first run as for any call.
"""
__all__ = ['_CellGraphExecutor', '_cell_graph_executor']


class _CellGraphExecutor:
    """MindSpore's ``mindspore.common.api._CellGraphExecutor`` over hookgrad's eager calls."""

    def __init__(self):
        self._compiled = {}       # phase -> (cell, args)

    def compile(self, obj, *args, phase='predict', **kwargs):
        """Keep ``obj`` and ``args`` under ``phase`` (returned, with a boolean as MindSpore)."""
        if not callable(obj):
            raise TypeError(f"_cell_graph_executor.compile: expected a Cell or a function, got "
                            f"{type(obj).__name__}")
        key = f"{phase}.{id(obj)}"
        self._compiled[key] = (obj, args)
        return key, True

    def has_compiled(self, phase='predict'):
        """Whether ``phase`` was compiled."""
        return phase in self._compiled or any(k.startswith(f"{phase}.") for k in self._compiled)

    def run(self, obj, *args, phase='predict'):
        """Call ``obj`` on ``args`` (the compiled inputs when none are given)."""
        if not args:
            args = self._compiled.get(f"{phase}.{id(obj)}", (obj, ()))[1]
        return obj(*args)

    def del_net_res(self, obj, net_id):
        """Forget the phases compiled for ``obj`` (MindSpore frees its graphs)."""
        for key in [k for k, (o, _) in self._compiled.items() if o is obj]:
            del self._compiled[key]

    def __getattr__(self, name):
        from ..compat.names import NotAvailable
        raise NotAvailable(f"mindspore.common.api._cell_graph_executor.{name} is not available "
                           f"in hookgrad")


_cell_graph_executor = _CellGraphExecutor()
