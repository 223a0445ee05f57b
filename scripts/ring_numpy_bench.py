#!/usr/bin/env python3
"""numpy's rows for benches/ring.rs: median along axis 1 and 0 and of all elements,
quantile(0.3) along axis 0 and five quantiles along axis 1 of the same 4096² float32
data, best of 5 runs, in ms (numpy runs them on one thread).
Run: python3 scripts/ring_numpy_bench.py"""
import time

import numpy as np

N = 4096


def data():
    i = np.arange(N, dtype=np.uint64)[:, None]
    j = np.arange(N, dtype=np.uint64)[None, :]
    h = (i * np.uint64(2654435761)) ^ (j * np.uint64(40503))
    return (h % np.uint64(100_003)).astype(np.float32)


def best(f, runs=5):
    t = []
    for _ in range(runs):
        s = time.perf_counter()
        f()
        t.append(time.perf_counter() - s)
    return min(t) * 1e3


def main():
    a = data()
    print(f"median_axis1/f32_4096/numpy    {best(lambda: np.median(a, axis=1)):8.1f} ms")
    print(f"quantile_axis0/f32_4096/numpy  {best(lambda: np.quantile(a, 0.3, axis=0)):8.1f} ms")
    print(f"median_axis0/f32_4096/numpy    {best(lambda: np.median(a, axis=0)):8.1f} ms")
    print(f"median_all/f32_4096/numpy      {best(lambda: np.median(a)):8.1f} ms")
    qs = [0.1, 0.25, 0.5, 0.75, 0.9]
    print(f"quantiles5_axis1/f32_4096/numpy {best(lambda: np.quantile(a, qs, axis=1)):7.1f} ms")


if __name__ == "__main__":
    main()
