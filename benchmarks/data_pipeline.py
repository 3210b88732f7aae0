"""Images per second of an input pipeline: ImageFolderDataset (JPEG bytes) -> decode -> resize
-> normalize -> HWC2CHW -> batch, with 1 and with 2 map workers.

The operations are hookgrad.dataset.vision's when it provides Decode, Resize, Normalize and
HWC2CHW, else the same steps written with Pillow and NumPy. When the MindSpore reference
install (/tmp/msref, or --mindspore PYTHON) runs, its figure for the same files is printed too.

Run: python benchmarks/data_pipeline.py [--images N] [--size S] [--repeats R]
"""
import argparse
import io
import os
import subprocess
import tempfile
import textwrap
import time

import checkout  # noqa: F401,I001  (first: hookgrad from this checkout)
import numpy as np
from PIL import Image

from hookgrad import dataset as ds

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
OUT = 224


def make_jpegs(folder, n, size):
    """``n`` JPEG files of ``size`` x ``size`` smooth images with noise, in one class folder."""
    rng = np.random.default_rng(0)
    os.makedirs(os.path.join(folder, 'c0'), exist_ok=True)
    y, x = np.mgrid[0:size, 0:size] / size
    for i in range(n):
        base = np.stack([x * 255, y * 255, (x + y) * 127], -1) + rng.normal(0, 20, (size, size, 3))
        pixels = np.clip(base, 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(os.path.join(folder, 'c0', f'{i:05d}.jpg'), quality=90)


def operations():
    """(ops, source): hookgrad.dataset.vision's ops when it has them, else Pillow/NumPy ones."""
    try:
        from hookgrad.dataset.vision import HWC2CHW, Decode, Normalize, Resize
        return [Decode(), Resize((OUT, OUT)), Normalize(MEAN, STD), HWC2CHW()], 'vision'
    except ImportError:
        pass
    mean, std = np.array(MEAN, np.float32), np.array(STD, np.float32)

    def decode(data):
        with Image.open(io.BytesIO(data.tobytes())) as img:
            return img.convert('RGB')

    def resize(img):
        return np.asarray(img.resize((OUT, OUT), Image.BILINEAR))

    def normalize(img):
        return (img.astype(np.float32) - mean) / std

    def hwc2chw(img):
        return np.ascontiguousarray(img.transpose(2, 0, 1))
    return [decode, resize, normalize, hwc2chw], 'Pillow/NumPy'


def images_per_second(folder, workers, repeats):
    ops, _ = operations()
    d = ds.ImageFolderDataset(folder, shuffle=False).map(
        operations=ops, input_columns='image', num_parallel_workers=workers).batch(32)
    n = ds.ImageFolderDataset(folder).get_dataset_size()
    best = float('inf')
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in d.create_tuple_iterator(output_numpy=True):
            pass
        best = min(best, time.perf_counter() - t0)
    return n / best


MINDSPORE = textwrap.dedent('''
    import sys, time
    import mindspore.dataset as ds
    import mindspore.dataset.vision as vision
    folder, workers, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    ops = [vision.Decode(), vision.Resize((224, 224)), vision.Normalize({mean}, {std}),
           vision.HWC2CHW()]
    d = ds.ImageFolderDataset(folder, shuffle=False).map(
        operations=ops, input_columns='image', num_parallel_workers=workers).batch(32)
    n = ds.ImageFolderDataset(folder).get_dataset_size()
    best = float('inf')
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in d.create_tuple_iterator(output_numpy=True, num_epochs=1):
            pass
        best = min(best, time.perf_counter() - t0)
    print(n / best)
''').format(mean=MEAN, std=STD)


def mindspore_images_per_second(python, folder, workers, repeats):
    """MindSpore's figure, or None when its Python does not run."""
    if not os.path.exists(python):
        return None
    try:
        out = subprocess.run([python, '-c', MINDSPORE, folder, str(workers), str(repeats)],
                             capture_output=True, text=True, timeout=600, check=True)
        return float(out.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError, OSError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--images', type=int, default=256)
    parser.add_argument('--size', type=int, default=256)
    parser.add_argument('--repeats', type=int, default=3)
    parser.add_argument('--mindspore', default='/tmp/msref/bin/python')
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        make_jpegs(folder, args.images, args.size)
        print(f"{args.images} JPEGs {args.size}x{args.size} -> decode, resize {OUT}x{OUT}, "
              f"normalize, HWC2CHW, batch 32; ops: {operations()[1]}; best of {args.repeats}")
        for workers in (1, 2):
            ours = images_per_second(folder, workers, args.repeats)
            theirs = mindspore_images_per_second(args.mindspore, folder, workers, args.repeats)
            line = f"  {workers} worker{'s' if workers > 1 else ' '}: hookgrad {ours:7.1f} img/s"
            if theirs is not None:
                line += f"   MindSpore {theirs:7.1f} img/s"
            print(line, flush=True)


if __name__ == '__main__':
    main()
