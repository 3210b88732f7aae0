"""Module ``__getattr__`` for MindSpore modules whose missing names hookgrad can explain.

``reporter_with_reasons(path, reasons)`` behaves as ``names.reporter(path)`` but, for a name in
``reasons``, says why hookgrad lacks it: ``mindspore.parallel.shard is not available in
hookgrad: it shards a network across ranks, ...``. In ``from module import name`` the error is
an ImportError carrying the same message, as for ``reporter``.
"""
from .names import NotAvailable, NotAvailableImport, _in_import, reporter

__all__ = ['reporter_with_reasons']


def reporter_with_reasons(path, reasons):
    """A module ``__getattr__`` for ``path``; ``reasons`` maps a missing name to why."""
    fallback = reporter(path)

    def __getattr__(name):
        if name not in reasons:
            return fallback(name)
        text = f"{path}.{name} is not available in hookgrad: {reasons[name]}"
        if _in_import(2):
            raise NotAvailableImport(text, name=path)
        raise NotAvailable(text)
    return __getattr__
