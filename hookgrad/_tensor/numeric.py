"""Tensor's methods for integer math, special functions and matrix decompositions: each is a
call into ``hookgrad.ops`` with MindSpore 2.10's method signature."""

_ops = None     # hookgrad.ops, bound once it has imported (hookgrad/_tensor/__init__.py)


class NumericMethods:
    """Mixin of the method forms of gcd, lcm, the shifts, i0, nextafter and the
    decompositions."""

    __slots__ = ()

    def gcd(self, other):
        return _ops.gcd(self, other)

    def lcm(self, other):
        return _ops.lcm(self, other)

    def bitwise_left_shift(self, other):
        return _ops.bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other):
        return _ops.bitwise_right_shift(self, other)

    def i0(self):
        return _ops.i0(self)

    def nextafter(self, other):
        return _ops.nextafter(self, other)
