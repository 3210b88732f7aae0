"""CRC32C (Castagnoli), whole-array in NumPy, and TFRecord's masked form of it.

The CRC register is linear over GF(2): the data is cut into rows of ``_BLOCK`` bytes whose CRCs
(from a zero register) are computed together, one byte column at a time; each row's CRC is then
carried past the bytes after it with a 32x32 bit matrix (the register after that many zero
bytes), and the rows are XORed together.
"""
import functools

import numpy as np

__all__ = ['crc32c', 'masked_crc32c']

_POLY = 0x82F63B78            # reflected Castagnoli polynomial
_BLOCK = 512              # widest byte column loop
_SHORT = 256              # up to this many bytes, a plain table loop


def _make_table():
    reg = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        reg = np.where(reg & 1, (reg >> 1) ^ np.uint32(_POLY), reg >> 1).astype(np.uint32)
    return reg


_TABLE = _make_table()
_TABLE_LIST = _TABLE.tolist()


def _zero_byte_matrix():
    """The 32x32 GF(2) matrix of one zero byte: column k is the register after it from bit k."""
    regs = (np.uint32(1) << np.arange(32, dtype=np.uint32))
    regs = _TABLE[regs & 0xFF] ^ (regs >> 8)
    return ((regs[None, :] >> np.arange(32, dtype=np.uint32)[:, None]) & 1).astype(np.uint8)


@functools.lru_cache(maxsize=64)
def _shift_matrix(nbytes):
    """The matrix carrying a register past ``nbytes`` zero bytes (by repeated squaring)."""
    out = np.eye(32, dtype=np.uint8)
    base = _zero_byte_matrix()
    while nbytes:
        if nbytes & 1:
            out = (base.astype(np.int64) @ out) & 1
        base = (base.astype(np.int64) @ base) & 1
        nbytes >>= 1
    return out.astype(np.uint8)


def _shift(regs, nbytes):
    """Registers ``regs`` (uint32 array) carried past ``nbytes`` zero bytes."""
    bits = (regs[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    out_bits = (bits.astype(np.int64) @ _shift_matrix(nbytes).T.astype(np.int64)) & 1
    return (out_bits.astype(np.uint32) << np.arange(32, dtype=np.uint32)).sum(
        axis=1, dtype=np.uint64).astype(np.uint32)


def _raw(data):
    """The register after ``data`` (a uint8 array) from a zero register."""
    n = len(data)
    if n <= _SHORT:
        reg, table = 0, _TABLE_LIST
        for byte in data.tolist():
            reg = table[(reg ^ byte) & 0xFF] ^ (reg >> 8)
        return np.uint32(reg)
    width = min(_BLOCK, max(64, int(n ** 0.5)))
    rows = 1 << max(0, -(-n // width) - 1).bit_length()     # a power of two, for the fold
    block = np.zeros(rows * width, np.uint8)
    block[rows * width - n:] = data           # leading zero bytes leave a zero register at 0
    block = block.reshape(rows, width)
    reg = np.zeros(rows, np.uint32)
    for k in range(width):
        reg = _TABLE[(reg ^ block[:, k]) & 0xFF] ^ (reg >> 8)
    size = width
    while len(reg) > 1:                       # fold pairs: left carried past the right one
        reg = _shift(reg[0::2], size) ^ reg[1::2]
        size *= 2
    return reg[0]


def crc32c(data):
    """The CRC32C of ``data`` (bytes or a uint8 array) as an int."""
    arr = np.frombuffer(data, np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) \
        else np.asarray(data, np.uint8).ravel()
    if len(arr) < 4:
        init = _shift(np.array([0xFFFFFFFF], np.uint32), len(arr))[0]
        return int((init ^ _raw(arr)) ^ np.uint32(0xFFFFFFFF))
    arr = arr.copy()
    arr[:4] ^= 0xFF                           # the all-ones initial register, folded into data
    return int(_raw(arr) ^ np.uint32(0xFFFFFFFF))


def masked_crc32c(data):
    """TFRecord's masked CRC: the CRC32C rotated right by 15 bits plus 0xa282ead8."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
