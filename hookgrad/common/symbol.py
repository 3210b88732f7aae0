"""MindSpore's ``Symbol``: what a dynamic dimension of ``Cell.set_inputs`` may be.

A Symbol says a dimension is ``divisor * N + remainder`` (N >= 1), at least ``min`` and, when
``max > min``, at most ``max``; ``unique`` makes every dimension given the same Symbol equal.
``admits(n)`` says whether size ``n`` fits.
"""
__all__ = ['Symbol']


class Symbol:
    """Symbolic information of one shape dimension (MindSpore's arguments and checks).

    Raises:
        TypeError: max, min, divisor or remainder not an int; unique not a bool.
        ValueError: min or divisor not positive; remainder outside [0, divisor).
    """

    def __init__(self, max=0, min=1, divisor=1, remainder=0, unique=False, **kwargs):  # noqa: A002
        for name, value in (('max', max), ('min', min), ('divisor', divisor),
                            ('remainder', remainder)):
            if not isinstance(value, int):
                raise TypeError(f"For 'Symbol', the argument '{name}' must be int, but got "
                                f"{type(value)}")
        if not isinstance(unique, bool):
            raise TypeError(f"For 'Symbol', the argument 'unique' must be bool, but got "
                            f"{type(unique)}")
        if min <= 0:
            raise ValueError(f"For 'Symbol', the 'min' value should be positive, but got {min}")
        if divisor <= 0:
            raise ValueError(f"For 'Symbol', the 'divisor' value should be positive, but got "
                             f"{divisor}")
        if remainder < 0 or remainder >= divisor:
            raise ValueError(f"For 'Symbol', the 'remainder' value should be in the range "
                             f"'[0, {divisor})', but got {remainder}")
        self.max = max
        self.min = min
        self.divisor = divisor
        self.remainder = remainder
        self.unique = unique
        self.id = id(self)

    def admits(self, n):
        """Whether a dimension of size ``n`` fits this Symbol."""
        upper_ok = self.max <= self.min or n <= self.max
        return (n >= self.min and upper_ok and n >= self.divisor + self.remainder
                and n % self.divisor == self.remainder)

    def to_dict(self):
        """The information that differs from the defaults, as MindSpore shows it."""
        res = {}
        if self.max > self.min:
            res['max'] = self.max
        if self.min > self.divisor + self.remainder:
            res['min'] = self.min
        if self.divisor != 1:
            res['divisor'] = self.divisor
        if self.remainder != 0:
            res['remainder'] = self.remainder
        if self.unique:
            res['id'] = self.id
        return res

    def __str__(self):
        return str(self.to_dict())
