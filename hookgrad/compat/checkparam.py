"""MindSpore's ``mindspore._checkparam``: the argument checks model code validates with.

MindSpore 2.10 keeps them as module functions (``check_positive_int(v, 'x', 'Net')``) and the
relations as integer constants (``GE``, ``INC_BOTH``); the messages here are MindSpore's, word for
word. Code written for MindSpore before 2.3 imports ``Validator`` and ``Rel`` instead: both are
kept, as namespaces over the same functions and constants.
"""
import math
import numbers
from collections.abc import Iterable

import numpy as np

__all__ = ['EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'INC_NEITHER', 'INC_LEFT', 'INC_RIGHT',
           'INC_BOTH', 'IN', 'NOT_IN', 'check', 'check_int', 'check_is_int', 'check_equal_int',
           'check_positive_int', 'check_negative_int', 'check_non_positive_int',
           'check_non_negative_int', 'check_positive_int_sequence',
           'check_non_negative_int_sequence', 'check_float', 'check_is_float',
           'check_positive_float', 'check_negative_float', 'check_non_positive_float',
           'check_non_negative_float', 'check_positive_float_sequence', 'check_is_number',
           'check_number_range', 'check_int_range', 'check_float_range', 'check_number',
           'check_isinstance', 'check_bool', 'check_string', 'check_value_type',
           'check_axis_in_range', 'Rel', 'Validator']

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
IN, NOT_IN = 11, 12

_BINARY = {EQ: ('=', lambda a, b: a == b), NE: ('!=', lambda a, b: a != b),
           LT: ('<', lambda a, b: a < b), LE: ('<=', lambda a, b: a <= b),
           GT: ('>', lambda a, b: a > b), GE: ('>=', lambda a, b: a >= b),
           IN: ('in', lambda a, b: a in b), NOT_IN: ('not in', lambda a, b: a not in b)}
_RANGE = {INC_NEITHER: ('({}, {})', lambda v, lo, hi: lo < v < hi),
          INC_LEFT: ('[{}, {})', lambda v, lo, hi: lo <= v < hi),
          INC_RIGHT: ('({}, {}]', lambda v, lo, hi: lo < v <= hi),
          INC_BOTH: ('[{}, {}]', lambda v, lo, hi: lo <= v <= hi)}


def _holds(a, b, rel):
    return rel in _BINARY and _BINARY[rel][1](a, b)


def _rel_text(value, rel):
    return f"{_BINARY[rel][0]} {value}" if rel in _BINARY else ''


def _subject(arg_name, prim_name, fallback='input value'):
    prefix = f"For '{prim_name}', the" if prim_name else 'The'
    return prefix, f"'{arg_name}'" if arg_name else fallback


def _check_number(arg_value, value, rel, arg_type, arg_name=None, prim_name=None):
    prefix, name = _subject(arg_name, prim_name)
    info = f"{prefix} {name}"
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{info} must be {arg_type.__name__}, but got "
                        f"'{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{info} must be a legal value, but got '{arg_value}'.")
    is_bool = isinstance(arg_value, bool)
    if is_bool or not _holds(arg_value, value, rel):
        msg = (f"{info} must be {arg_type.__name__} and must {_rel_text(value, rel)}, but got "
               f"'{arg_value}' with type '{type(arg_value).__name__}'.")
        raise (TypeError if is_bool else ValueError)(msg)
    return arg_value


def check(arg_name, arg_value, value_name, value, rel=EQ, prim_name=None, excp_cls=ValueError):
    """``arg_value rel value`` for ints or sequences of them, else ``excp_cls``."""
    if not _holds(arg_value, value, rel):
        prefix = f"For '{prim_name}', the" if prim_name else 'The'
        subject = f"{prefix} '{arg_name}'" if ' ' not in arg_name else f"{prefix} {arg_name}"
        raise excp_cls(f"{subject} should be {_rel_text(f'{value_name}: {value}', rel)}, but "
                       f"got {arg_value}.")
    return arg_value


def check_integral(arg_value, value, rel, arg_name=None, prim_name=None):
    """An integral number (NumPy's included, a bool refused) with ``arg_value rel value``, in
    ``check_int``'s words: the check MindSpore's setters such as ``set_recursion_limit`` make by
    hand, which takes NumPy ints and refuses bools with the type message."""
    prefix, name = _subject(arg_name, prim_name)
    if isinstance(arg_value, bool) or not isinstance(arg_value, numbers.Integral):
        raise TypeError(f"{prefix} {name} must be int, but got '{type(arg_value).__name__}'")
    if not _holds(arg_value, value, rel):
        raise ValueError(f"{prefix} {name} must be int and must {_rel_text(value, rel)}, but got "
                         f"'{arg_value}' with type 'int'.")
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """An int with ``arg_value rel value`` (``check_int(n, 0, GE)``)."""
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    """An int equal to ``value``."""
    return _check_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    """An int > 0."""
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_negative_int(arg_value, arg_name=None, prim_name=None):
    """An int < 0."""
    return _check_number(arg_value, 0, LT, int, arg_name, prim_name)


def check_non_positive_int(arg_value, arg_name=None, prim_name=None):
    """An int <= 0."""
    return _check_number(arg_value, 0, LE, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    """An int >= 0."""
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def _each(sequence, rel, arg_type, arg_name, prim_name):
    for i, element in enumerate(sequence):
        _check_number(element, 0, rel, arg_type, f"{arg_name or 'arg_name'}[{i}]", prim_name)
    return sequence


def check_positive_int_sequence(sequence, arg_name=None, prim_name=None):
    """Every element an int > 0."""
    return _each(sequence, GT, int, arg_name, prim_name)


def check_non_negative_int_sequence(sequence, arg_name=None, prim_name=None):
    """Every element an int >= 0."""
    return _each(sequence, GE, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    """A float with ``arg_value rel value``."""
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    """A float > 0."""
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_negative_float(arg_value, arg_name=None, prim_name=None):
    """A float < 0."""
    return _check_number(arg_value, 0, LT, float, arg_name, prim_name)


def check_non_positive_float(arg_value, arg_name=None, prim_name=None):
    """A float <= 0."""
    return _check_number(arg_value, 0, LE, float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    """A float >= 0."""
    return _check_number(arg_value, 0, GE, float, arg_name, prim_name)


def check_positive_float_sequence(sequence, arg_name=None, prim_name=None):
    """Every element a float > 0."""
    return _each(sequence, GT, float, arg_name, prim_name)


def check_is_number(arg_value, arg_type, arg_name=None, prim_name=None):
    """A finite ``arg_type`` (not a bool)."""
    prefix, name = _subject(arg_name, prim_name)
    if not isinstance(arg_value, arg_type) or isinstance(arg_value, bool):
        raise TypeError(f"{prefix} type of {name} must be '{arg_type.__name__}', but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{prefix} {name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_is_int(arg_value, arg_name=None, prim_name=None):
    """An int (not a bool)."""
    return check_is_number(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    """A finite float."""
    return check_is_number(arg_value, float, arg_name, prim_name)


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None,
                       prim_name=None):
    """A ``value_type`` within the range ``rel`` (``INC_BOTH``: ``[lower, upper]``) names."""
    prefix, name = _subject(arg_name, prim_name)
    if not isinstance(arg_value, (np.ndarray, np.generic, value_type)) \
            or isinstance(arg_value, bool):
        raise TypeError(f"{prefix} {name} must be '{value_type.__name__}',  but got "
                        f"'{type(arg_value).__name__}'.")
    if rel not in _RANGE or not _RANGE[rel][1](arg_value, lower_limit, upper_limit):
        text = _RANGE[rel][0].format(lower_limit, upper_limit) if rel in _RANGE else ''
        raise ValueError(f"{prefix} {name} must be in range of {text}, but got {arg_value} "
                         f"with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """An int within a range (see ``check_number_range``)."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """A float within a range (see ``check_number_range``)."""
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name,
                              prim_name)


def check_number(arg_name, arg_value, value, rel, prim_name):
    """``arg_value rel value`` for any numbers."""
    if not _holds(arg_value, value, rel):
        raise ValueError(f"For '{prim_name}', the argument '{arg_name}' must "
                         f"{_rel_text(value, rel)}, but got {arg_value}.")
    return arg_value


def check_isinstance(arg_name, arg_value, classes):
    """An instance of ``classes`` (ValueError otherwise, as MindSpore raises)."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got "
                         f"{arg_value}.")
    return arg_value


def check_bool(arg_value, arg_name=None, prim_name=None):
    """A bool."""
    prefix, name = _subject(arg_name, prim_name)
    if not isinstance(arg_value, bool):
        raise TypeError(f"{prefix} {name} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    """A str among ``valid_values``."""
    prefix = f"For '{prim_name}', the" if prim_name else 'The'
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        raise ValueError(f"{prefix} '{arg_name or 'parameter'}' must be str and must be in "
                         f"'{valid_values}', but got '{arg_value}'.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """An instance of one of ``valid_types`` (a bool passes only if ``bool`` is listed)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    bad_bool = isinstance(arg_value, bool) and bool not in valid_types
    if bad_bool or not isinstance(arg_value, valid_types):
        names = [getattr(t, '__name__', str(t)) for t in valid_types]
        several = len(names) > 1
        prefix = f"For '{prim_name}', the" if prim_name else 'The'
        raise TypeError(f"{prefix} type of '{arg_name}' should be {'one of ' if several else ''}"
                        f"'{names if several else names[0]}', but got type "
                        f"'{type(arg_value).__name__}'.")
    if isinstance(arg_value, float) and float not in valid_types:
        arg_value = round(arg_value, 6)
    return arg_value


def check_axis_in_range(axis, ndim):
    """An int axis in ``[-ndim, ndim)``; returns it made non-negative."""
    if not isinstance(axis, int):
        raise TypeError(f"The axes must be integers, but got {type(axis)}")
    if axis >= ndim or axis < -ndim:
        raise ValueError(f"The 'axis' must be in the range of [-{ndim}, {ndim}), but got {axis}.")
    return (axis + ndim) % ndim


class Rel:
    """The relations as MindSpore before 2.3 named them (``Rel.GE``): the same constants."""
    EQ, NE, LT, LE, GT, GE = EQ, NE, LT, LE, GT, GE
    INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH
    IN, NOT_IN = IN, NOT_IN


class Validator:
    """The checks as MindSpore before 2.3 held them (``Validator.check_positive_int``)."""
    check = staticmethod(check)
    check_int = staticmethod(check_int)
    check_is_int = staticmethod(check_is_int)
    check_equal_int = staticmethod(check_equal_int)
    check_positive_int = staticmethod(check_positive_int)
    check_negative_int = staticmethod(check_negative_int)
    check_non_positive_int = staticmethod(check_non_positive_int)
    check_non_negative_int = staticmethod(check_non_negative_int)
    check_positive_int_sequence = staticmethod(check_positive_int_sequence)
    check_non_negative_int_sequence = staticmethod(check_non_negative_int_sequence)
    check_float = staticmethod(check_float)
    check_is_float = staticmethod(check_is_float)
    check_positive_float = staticmethod(check_positive_float)
    check_negative_float = staticmethod(check_negative_float)
    check_non_positive_float = staticmethod(check_non_positive_float)
    check_non_negative_float = staticmethod(check_non_negative_float)
    check_positive_float_sequence = staticmethod(check_positive_float_sequence)
    check_is_number = staticmethod(check_is_number)
    check_number_range = staticmethod(check_number_range)
    check_int_range = staticmethod(check_int_range)
    check_float_range = staticmethod(check_float_range)
    check_number = staticmethod(check_number)
    check_isinstance = staticmethod(check_isinstance)
    check_bool = staticmethod(check_bool)
    check_string = staticmethod(check_string)
    check_value_type = staticmethod(check_value_type)
    check_axis_in_range = staticmethod(check_axis_in_range)
