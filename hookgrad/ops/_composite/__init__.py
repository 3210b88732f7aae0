"""The submodules of ``ops.composite`` (a module, hookgrad/ops/composite.py): ``ops/__init__.py``
registers ``base`` as ``hookgrad.ops.composite.base``, the path MindSpore code imports."""
