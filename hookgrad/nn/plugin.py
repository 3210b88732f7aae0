"""Plug-in layers: run an extra Cell before or after any sub-cell of a network, through hooks.

The network itself is not changed: its sub-cells, parameter names and checkpoints stay as they
were, and ``handle.remove()`` takes the plug-in out again. By default a plug-in runs only while
the cell it is attached to is in train mode (``set_train()``), and its own train/predict state
follows that cell's at every call, so ``net.set_train(False)`` turns a plug-in Dropout off too.
"""
from .cell import Cell

__all__ = ['attach', 'PluginHandle']

_WHERE = ('before', 'after')


class PluginHandle:
    """What ``attach`` returns: the attached cell, where it runs, and ``remove()``.

    The plug-in's own parameters are not among the network's (so checkpoints of the network
    are unchanged); ``trainable_params()`` lists them, to give them to an optimizer.
    """

    __slots__ = ('plugin', 'where', 'train_only', '_hook_handle', '_target_path')

    def __init__(self, plugin, where, train_only, hook_handle, target_path):
        self.plugin = plugin
        self.where = where
        self.train_only = train_only
        self._hook_handle = hook_handle
        self._target_path = target_path

    def remove(self):
        """Detach the plug-in; a second call does nothing."""
        self._hook_handle.remove()

    def trainable_params(self):
        """The plug-in cell's trainable parameters."""
        return self.plugin.trainable_params()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
        return False

    def __repr__(self):
        return (f"<PluginHandle {type(self.plugin).__name__} {self.where} "
                f"'{self._target_path}'>")


def attach(cell, plugin, where='after', train_only=True):
    """Run ``plugin`` on the inputs (``'before'``) or the output (``'after'``) of ``cell``.

    Args:
        cell: the Cell to attach to, typically a sub-cell of a network (``net.layer3``).
        plugin: a Cell taking one tensor and returning one (Dropout2d, a normalisation, a
            noise layer...). With ``'before'`` it is applied to ``cell``'s first input.
        where: ``'before'`` (a forward pre-hook) or ``'after'`` (a forward hook).
        train_only: run the plug-in only while ``cell.training`` is True. Default True.

    Returns:
        PluginHandle: ``remove()`` detaches the plug-in.

    Raises:
        TypeError: if ``cell`` or ``plugin`` is not a Cell.
        ValueError: for another ``where``, or a plug-in attached to itself.

    >>> import hookgrad as ms
    >>> net = ms.nn.SequentialCell(ms.nn.Dense(4, 4), ms.nn.ReLU())
    >>> handle = ms.nn.attach(net[0], ms.nn.Dropout(p=0.5))
    >>> [name for name, _ in net.parameters_and_names()]
    ['0.weight', '0.bias']
    >>> handle.remove()
    """
    if not isinstance(cell, Cell):
        raise TypeError(f"attach: cell must be a Cell, got {type(cell).__name__}")
    if not isinstance(plugin, Cell):
        raise TypeError(f"attach: plugin must be a Cell, got {type(plugin).__name__}")
    if where not in _WHERE:
        raise ValueError(f"attach: where must be 'before' or 'after', got {where!r}")
    if plugin is cell:
        raise ValueError("attach: a cell cannot be attached to itself")
    train_only = bool(train_only)

    def _sync(host):
        """Whether the plug-in runs now; keeps its train state equal to the host's."""
        training = host.training
        if plugin.training != training:
            plugin.set_train(training)
        return training or not train_only

    if where == 'before':
        def plugin_before(host, inputs):
            if not inputs or not _sync(host):
                return None
            return (plugin(inputs[0]),) + tuple(inputs[1:])
        hook_handle = cell.register_forward_pre_hook(plugin_before)
    else:
        def plugin_after(host, inputs, output):
            if not _sync(host):
                return None
            return plugin(output)
        hook_handle = cell.register_forward_hook(plugin_after)
    return PluginHandle(plugin, where, train_only, hook_handle, cell.path())
