"""MindSpore's graph-mode helper functions on Python values: scalar, bool and string
arithmetic, tuple/list/dict access, and the iteration and augmented-assignment helpers that
MindSpore's compiler calls for ``for`` loops and ``x += y``.

In MindSpore most of these are primitives evaluated while a graph is compiled; in hookgrad every
call runs at once on the Python values, with the results (and the errors) MindSpore gives.
Where MindSpore 2.10 has no CPU evaluator for a helper in PyNative mode, the result is the one
its graph mode gives.
"""
import math
import numbers

from .._tensor import Tensor

__all__ = ['scalar_add', 'scalar_sub', 'scalar_mul', 'scalar_div', 'scalar_floordiv',
           'scalar_mod', 'scalar_pow', 'scalar_log', 'scalar_eq', 'scalar_ne', 'scalar_lt',
           'scalar_le', 'scalar_gt', 'scalar_ge', 'scalar_max', 'scalar_min', 'scalar_uadd',
           'scalar_usub', 'bool_and', 'bool_or', 'bool_not', 'bool_eq', 'string_concat',
           'string_eq', 'tuple_getitem', 'tuple_setitem', 'tuple_equal', 'tuple_div',
           'tuple_reversed', 'list_getitem', 'list_setitem', 'list_len', 'list_equal',
           'make_tuple', 'make_list', 'make_dict', 'make_slice', 'dict_getitem', 'dict_setitem',
           'in_dict', 'not_in_dict', 'is_', 'is_not', 'augassign_add', 'augassign_sub',
           'augassign_mul', 'augassign_div', 'augassign_floordiv', 'augassign_mod',
           'zip_operation', 'tail', 'hyper_add', 'ms_next', 'ms_hasnext', 'iter_converter',
           'switch', 'switch_layer', 'geswitch', 'merge']

_DIVISOR_ZERO = "The divisor could not be zero. But the divisor is zero now."


def _is_zero(value):
    return isinstance(value, (numbers.Number,)) and not isinstance(value, Tensor) and value == 0


# ----------------------------------------------------------------- scalars
def scalar_add(x, y):
    """``x + y`` (numbers: bool counts as int; a Tensor operand gives a Tensor)."""
    return x + y


def scalar_sub(x, y):
    """``x - y``."""
    return x - y


def scalar_mul(x, y):
    """``x * y``."""
    return x * y


def scalar_div(x, y):
    """``x / y``, always true division (``scalar_div(4, 2)`` is ``2.0``).

    Raises:
        ValueError: when ``y`` is zero.
    """
    if _is_zero(y):
        raise ValueError(_DIVISOR_ZERO)
    return x / y


def scalar_floordiv(x, y):
    """``x // y`` (rounds toward minus infinity: ``scalar_floordiv(-7, 2)`` is -4).

    Raises:
        ValueError: when ``y`` is zero.
    """
    if _is_zero(y):
        raise ValueError(_DIVISOR_ZERO)
    return x // y


def scalar_mod(x, y):
    """``x % y`` with the divisor's sign (``scalar_mod(-7, 3)`` is 2).

    Raises:
        ValueError: when ``y`` is zero.
    """
    if _is_zero(y):
        raise ValueError("Cannot perform modulo operation on zero.")
    return x % y


def scalar_pow(x, y):
    """``x ** y`` (``scalar_pow(2, -1)`` is 0.5)."""
    return x ** y


def scalar_log(x):
    """The natural logarithm of a number, a float.

    Raises:
        ValueError: for ``x <= 0`` ("math domain error").
    """
    return math.log(x)


def scalar_eq(x, y):
    """``x == y``."""
    return x == y


def scalar_ne(x, y):
    """``x != y``."""
    return x != y


def scalar_lt(x, y):
    """``x < y``."""
    return x < y


def scalar_le(x, y):
    """``x <= y``."""
    return x <= y


def scalar_gt(x, y):
    """``x > y``."""
    return x > y


def scalar_ge(x, y):
    """``x >= y``."""
    return x >= y


def scalar_max(x, y):
    """The larger of ``x`` and ``y``, as it is (``scalar_max(2, 3.5)`` is 3.5)."""
    return max(x, y)


def scalar_min(x, y):
    """The smaller of ``x`` and ``y``, as it is."""
    return min(x, y)


def scalar_uadd(x):
    """``+x``."""
    return +x


def scalar_usub(x):
    """``-x``."""
    return -x


# ----------------------------------------------------------------- bools and strings
def _check_bool(name, *values):
    for v in values:
        if not isinstance(v, bool):
            raise TypeError(f"{name}: the inputs must be bool, got {type(v).__name__}")


def bool_and(x, y):
    """``x and y`` of two bools."""
    _check_bool('bool_and', x, y)
    return x and y


def bool_or(x, y):
    """``x or y`` of two bools."""
    _check_bool('bool_or', x, y)
    return x or y


def bool_not(x):
    """``not x`` as a 0-d bool Tensor (what MindSpore's BoolNot gives when called directly)."""
    if isinstance(x, Tensor):
        if x.size != 1:
            raise ValueError(f"bool_not: the input must hold one value, got shape {x.shape}")
        x = bool(x.asnumpy())
    _check_bool('bool_not', x)
    return Tensor(not x)


def bool_eq(x, y):
    """``x == y`` of two bools."""
    _check_bool('bool_eq', x, y)
    return x == y


def _check_str(name, *values):
    for v in values:
        if not isinstance(v, str):
            raise TypeError(f"{name}: the inputs must be str, got {type(v).__name__}")


def string_concat(x, y):
    """``x + y`` of two strings."""
    _check_str('string_concat', x, y)
    return x + y


def string_eq(x, y):
    """``x == y`` of two strings."""
    _check_str('string_eq', x, y)
    return x == y


# ----------------------------------------------------------------- tuples, lists, dicts
def _check_seq(name, value, kinds):
    if not isinstance(value, kinds):
        want = ' or '.join(k.__name__ for k in kinds)
        raise TypeError(f"{name}: the input must be a {want}, got {type(value).__name__}")


def _index(name, seq, index):
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"{name}: the index must be an int, got {type(index).__name__}")
    n = len(seq)
    if not -n <= index < n:
        raise IndexError(f"{name} index should be in range[{-n}, {n}), but got {index}.")
    return index


def tuple_getitem(data, index):
    """``data[index]`` of a tuple (or list).

    Raises:
        IndexError: for an index outside ``[-len, len)``.
    """
    _check_seq('tuple_getitem', data, (tuple, list))
    return data[_index('tuple_getitem', data, index)]


def tuple_setitem(data, index, value):
    """A new tuple: ``data`` with item ``index`` replaced by ``value``."""
    _check_seq('tuple_setitem', data, (tuple,))
    items = list(data)
    items[_index('tuple_setitem', data, index)] = value
    return tuple(items)


def _seq_equal(name, x, y):
    _check_seq(name, x, (tuple, list))
    _check_seq(name, y, (tuple, list))
    return tuple(x) == tuple(y)


def tuple_equal(x, y):
    """Whether two sequences hold equal items (a tuple and a list may be equal)."""
    return _seq_equal('tuple_equal', x, y)


def list_equal(x, y):
    """Whether two sequences hold equal items (``list_equal([1, 2], (1, 2))`` is True)."""
    return _seq_equal('list_equal', x, y)


def tuple_div(x, y):
    """Item-by-item exact integer division of two tuples of the same length
    (``tuple_div((4, 6), (2, 3))`` is ``(2, 2)``), as for shapes.

    Raises:
        RuntimeError: when the lengths differ, a divisor is 0 or a division leaves a remainder.
    """
    _check_seq('tuple_div', x, (tuple,))
    _check_seq('tuple_div', y, (tuple,))
    if len(x) != len(y):
        raise RuntimeError(f"The size of inputs of 'tuple_div' operator must be the same, but "
                           f"the size of divisor tuple is {len(y)}, the size of dividend tuple "
                           f"is {len(x)}.")
    out = []
    for a, b in zip(x, y):
        if b == 0:
            raise RuntimeError("The divisor value should not be 0!")
        if a % b:
            raise RuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but "
                               f"they are not divisible now, the dividend is {a}, the divisor "
                               f"is {b}.")
        out.append(a // b)
    return tuple(out)


def tuple_reversed(x):
    """The tuple in reverse order."""
    _check_seq('tuple_reversed', x, (tuple, list))
    return tuple(reversed(x))


def list_getitem(data, index):
    """``data[index]`` of a list."""
    _check_seq('list_getitem', data, (list, tuple))
    return data[_index('list_getitem', data, index)]


def list_setitem(data, index, value):
    """A new list: ``data`` with item ``index`` replaced (``data`` itself is unchanged)."""
    _check_seq('list_setitem', data, (list,))
    items = list(data)
    items[_index('list_setitem', data, index)] = value
    return items


def list_len(data):
    """The length of a list or tuple."""
    _check_seq('list_len', data, (list, tuple))
    return len(data)


def make_tuple(*items):
    """``tuple(items)``."""
    return tuple(items)


def make_list(*items):
    """``list(items)``."""
    return list(items)


def make_dict(keys, values):
    """A dict from a tuple of keys and a tuple of values of the same length."""
    _check_seq('make_dict', keys, (tuple, list))
    _check_seq('make_dict', values, (tuple, list))
    if len(keys) != len(values):
        raise ValueError(f"make_dict: {len(keys)} keys but {len(values)} values")
    return dict(zip(keys, values))


def make_slice(start, stop, step):
    """``slice(start, stop, step)``."""
    return slice(start, stop, step)


def dict_getitem(data, key):
    """``data[key]``.

    Raises:
        ValueError: when the key is missing (MindSpore raises ValueError, not KeyError).
    """
    _check_seq('dict_getitem', data, (dict,))
    if key not in data:
        raise ValueError(f"The key {key} does not exist in the dict:{data}")
    return data[key]


def dict_setitem(data, key, value):
    """A new dict: ``data`` with ``key`` set to ``value`` (``data`` itself is unchanged)."""
    _check_seq('dict_setitem', data, (dict,))
    out = dict(data)
    out[key] = value
    return out


def in_dict(key, data):
    """``key in data``."""
    _check_seq('in_dict', data, (dict,))
    return key in data


def not_in_dict(key, data):
    """``key not in data``."""
    _check_seq('not_in_dict', data, (dict,))
    return key not in data


def is_(x, y):
    """``x is y``."""
    return x is y


def is_not(x, y):
    """``x is not y``."""
    return x is not y


# ----------------------------------------------------------------- x op= y
def augassign_add(x, y):
    """``x += y`` as MindSpore compiles it: ``x + y`` (numbers, Tensors, tuples, lists,
    strings), a new object."""
    return x + y


def augassign_sub(x, y):
    """``x -= y``: ``x - y``."""
    return x - y


def augassign_mul(x, y):
    """``x *= y``: ``x * y`` (a tuple times an int repeats it)."""
    return x * y


def augassign_div(x, y):
    """``x /= y``: ``x / y``.

    Raises:
        ValueError: for a zero number divisor ("division by zero").
    """
    if _is_zero(y):
        raise ValueError("division by zero")
    return x / y


def augassign_floordiv(x, y):
    """``x //= y``: ``x // y``."""
    if _is_zero(y):
        raise ValueError("division by zero")
    return x // y


def augassign_mod(x, y):
    """``x %= y``: ``x % y``."""
    if _is_zero(y):
        raise ValueError("division by zero")
    return x % y


# ----------------------------------------------------------------- iteration
def zip_operation(*sequences):
    """The tuple of tuples ``zip`` makes, as long as the shortest input
    (``zip_operation((1, 2), (3, 4))`` is ``((1, 3), (2, 4))``)."""
    if not sequences:
        raise TypeError("zip_operation: needs at least one sequence")
    for s in sequences:
        _check_seq('zip_operation', s, (tuple, list))
    return tuple(zip(*sequences))


def tail(data):
    """All items of a tuple but the first, a tuple (``()`` for an empty one)."""
    _check_seq('tail', data, (tuple, list))
    return tuple(data[1:])


def hyper_add(x, y):
    """``x + y`` item by item through nested tuples and lists (the result is a tuple),
    stopping at the shorter one; Tensors and numbers are added."""
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return tuple(hyper_add(a, b) for a, b in zip(x, y))
    if isinstance(x, str) or isinstance(y, str):
        raise ValueError(f"hyper_add: adds numbers, Tensors and sequences of them, got "
                         f"{type(x).__name__} and {type(y).__name__}")
    return x + y


def iter_converter(data):
    """What a graph-mode ``for`` loop iterates: a list as it is, a tuple as it is, a dict's
    keys as a tuple, a Tensor as it is."""
    if isinstance(data, dict):
        return tuple(data)
    if isinstance(data, (tuple, list, Tensor)):
        return data
    raise TypeError(f"iter_converter: cannot iterate over {type(data).__name__}")


def ms_hasnext(data):
    """Whether a sequence has items left."""
    return len(data) > 0


def ms_next(data):
    """``(first item, the rest)`` of a tuple or list; the rest keeps the input's kind.

    Raises:
        ValueError: for an empty sequence.
    """
    _check_seq('ms_next', data, (tuple, list))
    if not data:
        raise ValueError("For primitive:'TupleGetItem', cannot get item by index from an empty "
                         "sequence.")
    return data[0], data[1:]


# ----------------------------------------------------------------- control
def _branch_flag(name, cond):
    if isinstance(cond, Tensor):
        if cond.size != 1:
            raise ValueError(f"{name}: the condition must hold one value, got shape "
                             f"{cond.shape}")
        return bool(cond.asnumpy())
    return bool(cond)


def switch(cond, true_branch, false_branch):
    """``true_branch`` if ``cond`` else ``false_branch`` (a bool or a one-value Tensor)."""
    return true_branch if _branch_flag('switch', cond) else false_branch


def switch_layer(index, branches):
    """``branches[index]``: the function (or Cell) that the index picks; call the result.

    Raises:
        TypeError: when ``branches`` is not a tuple of callables.
        IndexError: for an index outside the tuple.
    """
    if not isinstance(branches, (tuple, list)) or not all(callable(b) for b in branches):
        raise TypeError("switch_layer: branches must be a tuple of functions or Cells")
    if isinstance(index, Tensor):
        if index.size != 1 or index.dtype.is_floating:
            raise TypeError(f"switch_layer: index must be one integer, got {index!r}")
        index = int(index.asnumpy())
    return branches[_index('switch_layer', branches, index)]


_DATAFLOW = ("is a dataflow-graph primitive: it routes a value to one of two graph branches "
             "(or joins them) for the graph compiler; in eager code the branch is an `if` "
             "statement, so hookgrad has no value to return")


def geswitch(data, pred):
    """MindSpore's GeSwitch: not available in eager code.

    Raises:
        NotImplementedError: always (MindSpore 2.10 raises it in PyNative mode too).
    """
    raise NotImplementedError(f"geswitch {_DATAFLOW}; write `data if pred else ...`")


def merge(inputs):
    """MindSpore's Merge: not available in eager code.

    Raises:
        NotImplementedError: always (MindSpore 2.10 raises it in PyNative mode too).
    """
    raise NotImplementedError(f"merge {_DATAFLOW}; use the value of the branch that ran")
