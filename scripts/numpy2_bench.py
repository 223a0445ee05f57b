"""numpy's times for the rows of benches/numpy2.rs (same shapes, f64), best of 5 runs.

Run with the thread count to compare: OPENBLAS_NUM_THREADS=1 python3 scripts/numpy2_bench.py
"""
import time

import numpy as np
import scipy.signal


def best(f, reps=5):
    f()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


rng = np.random.default_rng(0)
a, b = rng.random((64, 128, 128)), rng.random((64, 128, 128))
x, y, z = rng.random((512, 512)), rng.random((512, 512)), rng.random((512, 512))
v = rng.random(1 << 20)
m = rng.random((1024, 1024))
c = rng.random(1_000_000)
k31, k4097 = rng.random(31), rng.random(4097)
rows = [
    ("einsum_bij_bjk", lambda: np.einsum("bij,bjk->bik", a, b, optimize=True)),
    ("einsum_chain", lambda: np.einsum("ij,jk,kl->il", x, y, z, optimize=True)),
    ("rfft 2^20", lambda: np.fft.rfft(v)),
    ("fft 2^20", lambda: np.fft.fft(v)),
    ("fft axis 0 1024^2", lambda: np.fft.fft(m, axis=0)),
    ("fft axis 1 1024^2", lambda: np.fft.fft(m, axis=1)),
    ("convolve 1e6 x 31", lambda: np.convolve(c, k31)),
    ("convolve 1e6 x 4097", lambda: np.convolve(c, k4097)),
    # scipy's FFT routes of the same convolution, for reference (not numpy's goal row).
    ("scipy fftconvolve 4097", lambda: scipy.signal.fftconvolve(c, k4097)),
    ("scipy oaconvolve 4097", lambda: scipy.signal.oaconvolve(c, k4097)),
]
for name, f in rows:
    print(f"{name:24s} {best(f):9.3f} ms")
