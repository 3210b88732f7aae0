"""The CUDA stand-in's ``ElementwiseKernel``: CuPy's user-defined element-wise kernels, run on
NumPy by reading their CUDA C body as whole-array statements.

The stand-in cannot compile CUDA, so it accepts the subset of C that element-wise kernels are
written in and refuses the rest, saying so, rather than guess:

- parameters ``TYPE name`` with TYPE a type placeholder (one capital letter, bound to the dtype
  of the arrays given for it; a Python number given for it is cast to that dtype, as CuPy
  does) or ``float16``/``float32``/``float64``/``int32``/``int64``/``bool``; no ``raw``;
- statements separated by ``;`` (CuPy ends the last one): ``name = expr``, ``name op= expr``
  (op one of ``+ - * /``) and declarations ``TYPE name = expr`` (``const`` allowed);
- expressions of parameters, locals, numbers (``1.0f`` too), ``+ - * /``, parentheses,
  ``T(expr)`` casts, comparisons, the ternary ``c ? a : b`` and the maths functions ``sqrt``,
  ``rsqrt``, ``exp``, ``log``, ``fabs``, ``abs``, ``fmax``, ``fmin``, ``max``, ``min``,
  ``pow``, ``tanh``.

Inputs and outputs broadcast to one shape; outputs given as arguments are written in place,
missing ones are allocated. Since every statement applies to all elements at once and an
element-wise body reads only its own element, the result is the per-element one.
"""
import re

import numpy as np

_TYPES = {'float16': np.float16, 'float32': np.float32, 'float64': np.float64,
          'int32': np.int32, 'int64': np.int64, 'bool': np.bool_}
_FUNCTIONS = {'sqrt': np.sqrt, 'rsqrt': lambda x: 1 / np.sqrt(x), 'exp': np.exp, 'log': np.log,
              'fabs': np.abs, 'abs': np.abs, 'fmax': np.fmax, 'fmin': np.fmin,
              'max': np.maximum, 'min': np.minimum, 'pow': np.power, 'tanh': np.tanh}
_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[fF]?|"
                    r"([A-Za-z_]\w*)|(==|!=|<=|>=|&&|\|\||[-+*/()<>?:,]))")


def _params(text, what):
    """``[(type, name)]`` of a parameter list such as ``'T x, float32 y'``."""
    params = []
    for part in filter(None, (p.strip() for p in text.split(','))):
        words = part.split()
        if words[0] == 'raw':
            raise NotImplementedError(f"the CUDA stand-in's ElementwiseKernel does not emulate "
                                      f"raw parameters ({part!r})")
        if len(words) != 2 or not (words[0] in _TYPES or re.fullmatch(r'[A-Z]', words[0])):
            raise ValueError(f"ElementwiseKernel: cannot read {what} parameter {part!r}")
        params.append((words[0], words[1]))
    return params


def _expression(text, names, types):
    """The Python expression for the C expression ``text`` (names: what it may read)."""
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = _TOKEN.match(text, pos)
        if m is None:
            rest = text[pos:].strip()
            raise NotImplementedError(f"the CUDA stand-in cannot read {rest!r} in an "
                                      f"ElementwiseKernel body")
        number, name, op = m.groups()
        if number is not None:
            out.append(repr(float(number)) if '.' in number or 'e' in number.lower()
                       else number)
        elif name is not None:
            if name in names:
                out.append(name)
            elif name in _FUNCTIONS:
                out.append(f"_f_{name}")
            elif name in types:
                out.append(f"_cast_{name}")
            else:
                raise NameError(f"ElementwiseKernel body: '{name}' is not declared")
        else:
            out.append({'&&': ' & ', '||': ' | '}.get(op, op))
        pos = m.end()
    code = ''.join(out)
    while '?' in code:                  # c ? a : b, innermost last: where(c, a, b)
        code = _ternary(code)
    return code


def _ternary(code):
    q = code.rindex('?')
    depth, start = 0, q
    while start > 0 and not (depth == 0 and code[start - 1] in '(,'):
        start -= 1
        depth += {')': 1, '(': -1}.get(code[start], 0)
    colon, depth = q + 1, 0
    while not (depth == 0 and code[colon] == ':'):
        depth += {'(': 1, ')': -1}.get(code[colon], 0)
        colon += 1
    end, depth = colon + 1, 0
    while end < len(code) and not (depth == 0 and code[end] in '),'):
        depth += {'(': 1, ')': -1}.get(code[end], 0)
        end += 1
    return (f"{code[:start]}_where({code[start:q]}, {code[q + 1:colon]}, "
            f"{code[colon + 1:end]}){code[end:]}")


class ElementwiseKernel:
    """CuPy's ``ElementwiseKernel`` on the stand-in (see the module docstring)."""

    def __init__(self, in_params, out_params, operation, name='kernel', reduce_dims=True,
                 preamble='', no_return=False, return_tuple=False, loop_prep='', after_loop='',
                 options=()):
        if preamble or loop_prep or after_loop:
            raise NotImplementedError("the CUDA stand-in's ElementwiseKernel runs no preamble, "
                                      "loop_prep or after_loop code")
        self.in_params = _params(in_params, 'input')
        self.out_params = _params(out_params, 'output')
        self.name, self.no_return, self.return_tuple = name, no_return, return_tuple
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout
        placeholders = {t for t, _ in self.in_params + self.out_params if t not in _TYPES}
        names = {n for _, n in self.in_params + self.out_params}
        self._steps = []
        for statement in operation.split(';'):
            statement = statement.strip()
            if not statement:
                continue
            m = re.fullmatch(r"(?:const\s+)?(?:([A-Za-z_]\w*)\s+)?([A-Za-z_]\w*)\s*"
                             r"([-+*/]?=)\s*(.+)", statement, re.S)
            if m is None:
                raise NotImplementedError(f"the CUDA stand-in cannot read the statement "
                                          f"{statement!r} of ElementwiseKernel {name!r}")
            declared, target, op, expr = m.groups()
            if declared is not None:
                if declared not in _TYPES and declared not in placeholders:
                    raise NameError(f"ElementwiseKernel body: unknown type '{declared}'")
                names.add(target)
            elif target not in names:
                raise NameError(f"ElementwiseKernel body: '{target}' is not declared")
            code = _expression(expr, names, set(_TYPES) | placeholders)
            if op != '=':
                code = f"{target} {op[0]} ({code})"
            self._steps.append((declared, target, compile(code, f'<kernel {name}>', 'eval')))

    def __call__(self, *args, size=None, block_size=None):
        from .fake_cuda import ndarray, _up, calls     # fake_cuda imports this module first
        calls[self.name] += 1
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for '{self.name}'")
        params = self.in_params + self.out_params
        bound = {}
        for (t, n), a in zip(params, args):
            if type(a) is np.ndarray:
                raise TypeError(f"Unsupported type {type(a)}")
            if type(a) is ndarray and t not in _TYPES:
                if bound.setdefault(t, a.dtype) != a.dtype:
                    raise TypeError(f"Type is mismatched. {n} {a.dtype} {bound[t]}")
        dtypes = {t: np.dtype(_TYPES.get(t, bound.get(t, np.float64))) for t, _ in params}
        arrays = [a._a if type(a) is ndarray else np.asarray(a, dtypes[t])
                  for (t, _), a in zip(params, args)]
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        outs = list(arrays[self.nin:])
        for (t, _), k in zip(self.out_params, range(len(outs), self.nout)):
            outs.append(np.empty(shape, dtypes[self.out_params[k][0]]))
        scope = {f"_f_{k}": f for k, f in _FUNCTIONS.items()}
        scope.update({f"_cast_{t}": (lambda d: lambda v: np.asarray(v).astype(d))(d)
                      for t, d in dtypes.items()})
        scope.update({f"_cast_{t}": (lambda d: lambda v: np.asarray(v).astype(d))(d)
                      for t, d in _TYPES.items()})
        scope['_where'] = np.where
        scope.update({n: a for (_, n), a in zip(self.in_params, arrays)})
        scope.update({n: o for (_, n), o in zip(self.out_params, outs)})
        targets = {n: o for (_, n), o in zip(self.out_params, outs)}
        with np.errstate(all='ignore'):
            for declared, target, code in self._steps:
                value = eval(code, scope)
                if target in targets:
                    np.copyto(targets[target], np.broadcast_to(value, targets[target].shape),
                              casting='unsafe')
                elif declared is not None:        # a new local: C converts to its type
                    scope[target] = np.asarray(value).astype(dtypes[declared] if declared in
                                                             dtypes else _TYPES[declared])
                else:
                    scope[target] = value
        results = [args[self.nin + k] if self.nin + k < len(args) else _up(o)
                   for k, o in enumerate(outs)]
        if self.no_return:
            return None
        return tuple(results) if self.return_tuple or self.nout > 1 else results[0]
