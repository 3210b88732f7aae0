"""MindSpore 2.10's ``mindspore.mint`` names (``mindspore_mint_names.json``, written by
``tools/mint_names.py --dump`` under MindSpore): which hookgrad has, and what a missing one
says."""
import inspect
import json
import os

import pytest

import hookgrad

with open(os.path.join(os.path.dirname(__file__), 'mindspore_mint_names.json')) as f:
    MINDSPORE = json.load(f)

# MindSpore's own helpers that its mint modules happen to import (not API), and the API
# hookgrad lacks (none now): the report of tools/mint_names.py
NOT_API = {'absolute_import', 'constexpr', 'jit_forbidden_register', 'jit_view_unsupported',
           'cdist_', 'equal_ext_op', 'flatten_ext', 'softmax_ext', 'squeeze_impl',
           'round_op', 'norm_ext', 'elu_ext', 'hardtanh_op', 'threshold_op', 'silu_func',
           'inplace_elu', 'inplace_silu', 'adaptive_avg_pool3d_ext', 'kl_div_ext',
           'mse_loss_ext', 'nllloss', 'upsample_bilinear2d_op', 'upsample_nearest2d_op',
           'cross_entropy'}
LACKING = {}


def hookgrad_module(path):
    module = hookgrad
    for part in path.split('.')[1:]:
        module = getattr(module, part)
    return module


@pytest.mark.parametrize('path', sorted(MINDSPORE))
def test_hookgrad_has_every_api_name_but_the_listed_ones(path):
    module = hookgrad_module(path)
    api = set(MINDSPORE[path]) - NOT_API
    missing = {n for n in api if not hasattr(module, n)}
    assert missing == LACKING.get(path, set())


@pytest.mark.parametrize('path', sorted(MINDSPORE))
def test_keywords_match_mindspores(path):
    """Every parameter name of MindSpore's signature is one of hookgrad's (by keyword)."""
    module = hookgrad_module(path)
    wrong = []
    for name, signature in MINDSPORE[path].items():
        if signature is None or name in NOT_API or not hasattr(module, name):
            continue
        theirs = set(signature['parameters']) - {'args', 'kwargs'}
        try:
            ours = inspect.signature(getattr(module, name)).parameters
        except (TypeError, ValueError):
            continue
        if not any(p.kind == p.VAR_KEYWORD for p in ours.values()) and not theirs <= set(ours):
            wrong.append(f"{name}{signature['signature']}: ours {list(ours)}")
        for arg, default in signature['defaults'].items():
            if arg in ours and _shown(ours[arg].default) != default:
                wrong.append(f"{name}: {arg}={_shown(ours[arg].default)}, MindSpore's {default}")
    assert wrong == []


def _shown(value):
    """A default as MindSpore's dump shows it (hookgrad's dtypes print as MindSpore's)."""
    return repr(value)


@pytest.mark.parametrize('path', sorted(MINDSPORE))
def test_a_name_no_mint_module_has_raises_an_attribute_error_naming_it(path):
    with pytest.raises(AttributeError, match=f"'{path}'.*'not_a_name'|{path}.not_a_name"):
        getattr(hookgrad_module(path), 'not_a_name')


# MindSpore's overloaded functions show (*args, **kwargs); their documented signatures
DOCUMENTED = {
    'add': 'input other alpha', 'sub': 'input other alpha', 'mul': 'input other',
    'div': 'input other rounding_mode', 'addcdiv': 'input tensor1 tensor2 value',
    'any': 'input dim keepdim', 'bitwise_not': 'input', 'clamp': 'input min max',
    'clip': 'input min max', 'empty': 'dtype device', 'empty_like': 'input dtype device',
    'eq': 'input other', 'ge': 'input other', 'greater_equal': 'input other',
    'less': 'input other', 'lt': 'input other', 'floor_divide': 'input other',
    'fmod': 'input other', 'remainder': 'input other', 'xlogy': 'input other',
    'lerp': 'input end weight', 'imag': 'input', 'real': 'input',
    'index_add': 'input dim index source alpha', 'kthvalue': 'input k dim keepdim',
    'max': 'input dim keepdim', 'min': 'input dim keepdim',
    'nansum': 'input dim keepdim dtype', 'randint': 'generator dtype device',
    'randint_like': 'input dtype device', 'repeat_interleave': 'input repeats dim output_size',
    'reshape': 'input shape', 'squeeze': 'input dim', 't': 'input',
    'flatten': 'input start_dim end_dim', 'where': 'condition input other',
}


@pytest.mark.parametrize('name', sorted(DOCUMENTED))
def test_overloaded_functions_take_their_documented_keywords(name):
    ours = inspect.signature(getattr(hookgrad.mint, name)).parameters
    assert set(DOCUMENTED[name].split()) <= set(ours)


def test_mindspore_scripts_import_the_mint_modules():
    import hookgrad.compat
    hookgrad.compat.alias_mindspore()
    try:
        import mindspore.mint.nn.functional as F
        from mindspore import mint
        from mindspore.mint.distributed import all_reduce
        from mindspore.mint.optim import AdamW
        assert mint is hookgrad.mint and F is hookgrad.mint.nn.functional
        assert AdamW is hookgrad.mint.optim.AdamW
        assert all_reduce is hookgrad.mint.distributed.all_reduce
        with pytest.raises(ImportError, match="'mindspore.mint'.*'conv_transpose2d'"):
            from mindspore.mint import conv_transpose2d  # noqa: F401
    finally:
        hookgrad.compat.unalias_mindspore()
