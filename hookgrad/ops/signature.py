"""MindSpore's ``ops.signature``: how a Primitive describes its arguments (read/write
role, kind, default and dtype group) with ``make_sig``."""
import enum

__all__ = ['sig_rw', 'sig_kind', 'sig_dtype', 'Signature', 'make_sig']


class sig_rw(enum.IntEnum):  # noqa: N801  (MindSpore's name)
    """Whether an argument is read, written or both (a reference)."""
    RW_READ = 0
    RW_WRITE = 1
    RW_REF = 2
    RW_EMPTY_DEFAULT_VALUE = 3


class sig_kind(enum.IntEnum):  # noqa: N801
    """The Python kind of an argument; ``KIND_EMPTY_DEFAULT_VALUE`` marks "no default"."""
    KIND_POSITIONAL_KEYWORD = 0
    KIND_VAR_POSITIONAL = 1
    KIND_KEYWORD_ONLY = 2
    KIND_VAR_KEYWARD = 3
    KIND_EMPTY_DEFAULT_VALUE = 4


sig_dtype = enum.IntEnum('sig_dtype', [('T', 0)] + [(f'T{i}', i) for i in range(1, 10)]
                         + [('T_EMPTY_DEFAULT_VALUE', 10)])
sig_dtype.__doc__ = "The dtype group of an argument: arguments of one group share a dtype."


class Signature:
    """One argument's signature: ``name``, ``rw``, ``kind``, ``default`` and ``dtype``."""

    __slots__ = ('name', 'rw', 'kind', 'default', 'dtype')

    def __init__(self, name, rw, kind, default, dtype):
        for value, want, what in ((rw, sig_rw, 'rw'), (kind, sig_kind, 'kind'),
                                  (dtype, sig_dtype, 'dtype')):
            if not isinstance(value, want):
                raise TypeError(f"Signature: {what} must be a {want.__name__}, got {value!r}")
        if not isinstance(name, str):
            raise TypeError(f"Signature: name must be a str, got {type(name).__name__}")
        self.name, self.rw, self.kind, self.default, self.dtype = name, rw, kind, default, dtype

    def __repr__(self):
        return (f"Signature(name={self.name!r}, rw={self.rw.name}, kind={self.kind.name}, "
                f"dtype={self.dtype.name})")


def make_sig(name="var", rw=sig_rw.RW_READ, kind=sig_kind.KIND_POSITIONAL_KEYWORD,
             default=sig_kind.KIND_EMPTY_DEFAULT_VALUE, dtype=sig_dtype.T_EMPTY_DEFAULT_VALUE):
    """The ``Signature`` of one argument (MindSpore's defaults: read-only, positional or
    keyword, no default, no dtype group)."""
    return Signature(name, rw, kind, default, dtype)
