"""C++'s ``std::mt19937``, ``std::uniform_int_distribution`` and ``std::shuffle`` as GCC's
libstdc++ computes them: MindSpore's data pipeline (a C++ engine) draws its sample orders with
them, so these give hookgrad's samplers MindSpore's orders under the same seed.

``std::mt19937(seed)`` is NumPy's legacy ``RandomState(seed)`` generator (the same reference
seeding); its raw 32-bit words are read in blocks. ``uniform_int`` maps words to [lo, hi] with
libstdc++'s method (Lemire's multiply-and-reject for ranges below 2**32), and ``shuffle`` is its
Fisher-Yates variant that draws two swap positions from one word while the positions' product
fits in 32 bits.
"""
import numpy as np

__all__ = ['MT19937', 'uniform_int', 'shuffle']

_WORD = 1 << 32


class MT19937:
    """``std::mt19937(seed)``: call it for the next 32-bit word."""

    __slots__ = ('_bits', '_block', '_at')

    def __init__(self, seed):
        self._bits = np.random.RandomState(int(seed) % _WORD)._bit_generator
        self._block = []
        self._at = 0

    def __call__(self):
        if self._at == len(self._block):
            self._block = self._bits.random_raw(1024).tolist()
            self._at = 0
        self._at += 1
        return self._block[self._at - 1]


def uniform_int(gen, lo, hi):
    """``std::uniform_int_distribution<>(lo, hi)(gen)`` for a 32-bit generator."""
    span = hi - lo
    if span < _WORD - 1:                    # libstdc++'s _S_nd: multiply, reject the bias
        bound = span + 1
        product = gen() * bound
        low = product & (_WORD - 1)
        if low < bound:
            threshold = (_WORD - bound) % bound
            while low < threshold:
                product = gen() * bound
                low = product & (_WORD - 1)
        return lo + (product >> 32)
    if span == _WORD - 1:
        return lo + gen()
    while True:                             # wider than a word: high part, then a word
        high = _WORD * uniform_int(gen, 0, span // _WORD)
        value = high + gen()
        if high <= value <= span:
            return lo + value


def shuffle(values, gen):
    """``std::shuffle(values.begin(), values.end(), gen)`` on a list, in place."""
    n = len(values)
    if n < 2:
        return values
    if (_WORD - 1) // n >= n:               # two positions from one draw
        i = 1
        if n % 2 == 0:
            j = uniform_int(gen, 0, 1)
            values[1], values[j] = values[j], values[1]
            i = 2
        while i != n:
            k = i + 1
            x = uniform_int(gen, 0, k * (k + 1) - 1)
            a, b = divmod(x, k + 1)
            values[i], values[a] = values[a], values[i]
            values[i + 1], values[b] = values[b], values[i + 1]
            i += 2
        return values
    for i in range(1, n):
        j = uniform_int(gen, 0, i)
        values[i], values[j] = values[j], values[i]
    return values
