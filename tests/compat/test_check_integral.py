"""check_integral: the int check of MindSpore's hand-written setters (NumPy ints taken, bools
refused with the type message), in check_int's words."""
import numpy as np
import pytest

from hookgrad.compat.checkparam import GE, GT, check_integral


def test_takes_python_and_numpy_ints():
    assert check_integral(3, 0, GT) == 3
    value = check_integral(np.int64(0), 0, GE, 'fusion_type')
    assert value == 0 and isinstance(value, np.int64)


@pytest.mark.parametrize('value,rel,arg_name,error,message', [
    (True, GT, None, TypeError, "The input value must be int, but got 'bool'"),
    (2.0, GT, 'x', TypeError, "The 'x' must be int, but got 'float'"),
    (0, GT, 'x', ValueError, "The 'x' must be int and must > 0, but got '0' with type 'int'."),
    (np.int32(-1), GE, None, ValueError,
     "The input value must be int and must >= 0, but got '-1' with type 'int'."),
])
def test_refusals_say_why(value, rel, arg_name, error, message):
    with pytest.raises(error) as info:
        check_integral(value, 0, rel, arg_name)
    assert str(info.value) == message


def test_names_the_primitive():
    with pytest.raises(ValueError) as info:
        check_integral(-2, 0, GT, 'limit', 'Net')
    assert str(info.value) == "For 'Net', the 'limit' must be int and must > 0, but got '-2' " \
                              "with type 'int'."
