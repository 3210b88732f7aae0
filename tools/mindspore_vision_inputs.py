"""The small images the vision recording scripts (tools/mindspore_*_outputs.py) give MindSpore:
a 7x9 RGB uint8 image, a float32 one and the uint8 image's first channel, from one seed."""
import numpy as np


def inputs():
    rng = np.random.default_rng(0)
    u8 = rng.integers(0, 256, (7, 9, 3)).astype(np.uint8)
    f32 = rng.random((7, 9, 3)).astype(np.float32)
    return {'u8': u8, 'f32': f32, 'g8': u8[..., 0].copy()}
