"""Pre-trained word vectors (MindSpore's ``text.Vectors``, ``GloVe``, ``FastText`` and
``CharNGram``) and ``ToVectors``, which looks tokens up in them.

The files are text: an optional header of lines with two fields (as fastText's
``"<count> <dim>"``), then one ``"<token> <v1> <v2> ..."`` line per token. Tokens are compared
as UTF-8 bytes, as MindSpore does, and values are parsed as C's ``atof`` parses them (the
longest numeric prefix, 0 when there is none).
"""
import os
import re

import numpy as np

from ..transforms import _checks
from ..transforms.transforms import TensorOperation
from .string_ops import _nonempty

__all__ = ['Vectors', 'GloVe', 'FastText', 'CharNGram', 'ToVectors']

_NUMBER = re.compile(rb'\s*([+-]?)(?:(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)'
                     rb'(?:[pP][+-]?\d+)?)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)'
                     rb'|(inf(?:inity)?|nan))', re.IGNORECASE)


def _atof(field):
    """The value C's ``atof`` reads from ``field`` (bytes)."""
    m = _NUMBER.match(field)
    if m is None:
        return 0.0
    sign = -1.0 if m.group(1) == b'-' else 1.0
    if m.group(2):
        return sign * float.fromhex(m.group(2).decode())
    return sign * float((m.group(3) or m.group(4)).decode())


def _lines(data):
    """The lines of ``data`` as ``std::getline`` reads them (no empty last line after a
    final newline)."""
    lines = data.split(b'\n')
    if lines[-1] == b'':
        lines.pop()
    return lines


def _space_fields(line):
    """``line`` split at each ' ' as ``std::getline(..., ' ')`` splits it."""
    fields = line.split(b' ')
    if fields[-1] == b'':
        fields.pop()
    return fields


def _load(who, file_path, max_vectors):
    """``({token bytes: float32 vector}, dim)`` of a vector file (first line of a token
    wins)."""
    if not os.path.exists(file_path):
        raise RuntimeError(f"{who}: get real path failed, path: {file_path}")
    data = b'' if os.path.isdir(file_path) else open(file_path, 'rb').read()
    lines = _lines(data)
    header, dim, count = 0, -1, 0
    for line in lines:
        if dim == -1:
            fields = _space_fields(line)
            if len(fields) == 2:
                header += 1
                continue
            dim = len(fields) - 1
        count += 1
    if count <= 0:
        raise RuntimeError(f"{who}: invalid file, file is empty.")
    if max_vectors > 0:
        count = min(max_vectors, count)
    table = {}
    for line in lines[header:header + count]:
        token = line.split(b' ', 1)[0]
        values = line[len(token) + 1:].split() if len(token) < len(line) else []
        if len(values) <= 1:
            raise RuntimeError(f"{who}: token with 1-dimensional vector.")
        if len(values) != dim:
            raise RuntimeError(f"{who}: all vectors must have the same number of dimensions, "
                               f"but got dim {len(values)} while expecting {dim}")
        if token not in table:
            table[token] = np.array([_atof(v) for v in values], np.float32)
    return table, dim


def _check_from_file(file_path, max_vectors):
    _checks.type_check(file_path, (str,), 'file_path')
    if max_vectors is None:
        return 0
    _checks.type_check(max_vectors, (int,), 'max_vectors')
    _checks.in_range(max_vectors, 0, _checks.INT32_MAX, 'max_vectors')
    return max_vectors


class Vectors:
    """Pre-trained word vectors read from a text file with ``from_file``; ``ToVectors``
    looks tokens up in them."""

    def __init__(self, table=None, dim=0):
        self._table, self._dim = dict(table or {}), dim

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        """The vectors of ``file_path``: its first ``max_vectors`` token lines (None: all)."""
        max_vectors = _check_from_file(file_path, max_vectors)
        cls._check_file(file_path)
        return cls(*_load('Vectors', file_path, max_vectors))

    @classmethod
    def _check_file(cls, file_path):
        """Refuse files whose name the format does not allow (none for plain vectors)."""

    def _lookup(self, token, unk_init, lower_case_backup):
        """The vector of ``token`` (bytes); ``unk_init`` when it has none. With
        ``lower_case_backup`` the token is looked up with its ASCII letters in lower case."""
        if lower_case_backup:
            token = token.lower()
        return self._table.get(token, unk_init)


def _name_parts(name):
    """``name`` cut at its last '.' as C++'s ``rfind``/``substr`` cut it: (before, after);
    both are the whole name when it has no '.'."""
    dot = name.rfind('.')
    return (name, name) if dot < 0 else (name[:dot], name[dot + 1:])


class GloVe(Vectors):
    """GloVe vectors, from a file named ``glove.6B.*.txt``."""

    @classmethod
    def _check_file(cls, file_path):
        if not os.path.isfile(file_path):
            raise RuntimeError("GloVe: invalid file, failed to open GloVe file.")
        sub_name, suffix = _name_parts(os.path.basename(file_path))
        glove_name = _name_parts(sub_name)[0]
        prefix, infix = _name_parts(glove_name)
        if suffix != 'txt' or infix != '6B' or prefix != 'glove':
            raise RuntimeError(f"GloVe: invalid file, can not find file 'glove.6B.*.txt', but "
                               f"got: {file_path}")


class FastText(Vectors):
    """fastText vectors, from a ``*.vec`` file."""

    @classmethod
    def _check_file(cls, file_path):
        if not os.path.isfile(file_path):
            raise RuntimeError("FastText: invalid file, failed to open FastText file.")
        if _name_parts(os.path.basename(file_path))[1] != 'vec':
            raise RuntimeError(f"FastText: invalid file, can not find file '*.vec', but got: "
                               f"{file_path}")


class CharNGram(Vectors):
    """Character n-gram vectors (keys ``"<n>gram-<chars>"``): a token's vector is the mean
    of the vectors of its 2-, 3- and 4-grams of bytes, with ``#BEGIN#`` and ``#END#`` around
    it; grams without a vector, or whose vector equals ``unk_init``, are left out, and a
    token with none gets ``unk_init``."""

    def _lookup(self, token, unk_init, lower_case_backup):
        if lower_case_backup:
            token = token.lower()
        chars = [b'#BEGIN#'] + [token[i:i + 1] for i in range(len(token))] + [b'#END#']
        total, found = np.zeros(self._dim, np.float32), 0
        for n in (2, 3, 4):
            for pos in range(len(chars) - n + 1):
                vector = self._table.get(b'%dgram-' % n + b''.join(chars[pos:pos + n]))
                if vector is not None and not np.array_equal(vector, unk_init):
                    total += vector
                    found += 1
        return total / np.float32(found) if found else unk_init


class ToVectors(TensorOperation):
    """The vectors of the tokens of a string array, float32 of shape ``(x.size, dim)`` (the
    array is read flat), ``(dim,)`` for a single token; tokens without one get ``unk_init``
    (zeros by default). With ``lower_case_backup`` tokens are looked up with their ASCII
    letters in lower case."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        _checks.type_check(vectors, (Vectors,), 'vectors')
        if unk_init is not None:
            _checks.type_check(unk_init, (list, tuple), 'unk_init')
            for i, value in enumerate(unk_init):
                _checks.type_check(value, (int, float), f'unk_init[{i}]')
        _checks.type_check(lower_case_backup, (bool,), 'lower_case_backup')
        self.vectors, self.unk_init = vectors, unk_init
        self.lower_case_backup = lower_case_backup

    def _apply(self, x):
        _nonempty(x)
        if x.dtype.kind != 'U':
            raise RuntimeError("ToVectors: input tensor type should be string.")
        dim = self.vectors._dim
        if self.unk_init and len(self.unk_init) != dim:
            raise RuntimeError(f"ToVectors: unk_init must be the same length as vectors, but "
                               f"got unk_init: {len(self.unk_init)} and vectors: {dim}")
        unk = np.array(self.unk_init or [0] * dim, np.float32)
        rows = [self.vectors._lookup(t.encode('utf-8'), unk, self.lower_case_backup)
                for t in x.ravel().tolist()]
        out = np.array(rows, np.float32).reshape(-1, dim)
        return out[0] if len(out) == 1 else out
