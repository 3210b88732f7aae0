"""``DeviceCtx``: MindSpore's block that runs on another device, then goes back.

``with DeviceCtx('GPU'):`` makes new tensors go to the GPU and ``get_context('device_target')``
read 'GPU' inside the block; the device before it comes back after it (per thread in
MindSpore, process-wide here: hookgrad keeps one default device). 'CPU' and 'GPU' (device 0)
are hookgrad's devices; 'Ascend' and MindSpore's data-less 'meta' device are ValueErrors.
"""
from .. import context as _context
from ..kernels import backend

__all__ = ['DeviceCtx']

_VALID = ["CPU", "GPU", "Ascend", "meta"]


class DeviceCtx:
    """Run a block on device ``name`` (``device_id``, default 0).

    Raises (on entering):
        ValueError: a name not in MindSpore's list, a negative ``device_id``, or a device
            hookgrad lacks ('Ascend', 'meta', 'GPU' without one).
    """

    def __init__(self, name: str, device_id=None):
        self.name = name
        self.device_id = device_id
        self._saved = []

    def __enter__(self):
        if self.name not in _VALID:
            raise ValueError(f"For DeviceCtx, the name must be one of {_VALID}, but got "
                             f"{self.name}.")
        if self.device_id is not None and self.device_id < 0:
            raise ValueError("For DeviceCtx, the device_id must be greater than or equal to 0.")
        if self.name == 'meta':
            raise ValueError("DeviceCtx: hookgrad has no 'meta' device (tensors without data)")
        device_id = 0 if self.device_id is None else self.device_id
        device = backend.select(self.name, device_id, 'DeviceCtx')
        self._saved.append((backend.current, _context.get_context('device_target'),
                            _context.get_context('device_id')))
        backend.set_default(device)
        _context._context.update(device_target=self.name, device_id=device_id)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        device, target, device_id = self._saved.pop()
        backend.set_default(device)
        _context._context.update(device_target=target, device_id=device_id)
