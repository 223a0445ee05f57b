"""numpy's (and, for the sparse Laplacian, scipy's) rows of benches/linalg.rs: the same
matrices, f64, one thread.

Run with OPENBLAS_NUM_THREADS=1 (or 2) python3 benches/linalg_numpy.py; it prints one
line per routine, milliseconds per call (best of several repeats)."""
import sys
import timeit

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve


def value(n):
    i, j = np.indices((n, n))
    x = (((i * 7 + j * 3) % 11) + ((j * 7 + i * 3) % 11)) / 22.0
    return x + n * np.eye(n)


def laplacian(k):
    """The 5-point Laplacian of a k x k grid, CSC (scipy's spsolve converts CSR to it)."""
    t = sp.diags([-1.0, 4.0, -1.0], [-1, 0, 1], shape=(k, k))
    return (sp.kron(sp.eye(k), t) + sp.kron(sp.diags([-1.0, -1.0], [-1, 1], shape=(k, k)), sp.eye(k))).tocsc()


def best(f, number):
    return min(timeit.repeat(f, number=number, repeat=5)) / number * 1e3


def main():
    for n in (8, 1024):
        a = value(n)
        b = (np.arange(n) % 5).astype(float)
        number = 2000 if n == 8 else 3
        rows = {
            "solve": lambda: np.linalg.solve(a, b),
            "cholesky": lambda: np.linalg.cholesky(a),
            "inv": lambda: np.linalg.inv(a),
            "det": lambda: np.linalg.det(a),
            "qr_r": lambda: np.linalg.qr(a, mode="r"),
            "eigh": lambda: np.linalg.eigh(a),
            "svd": lambda: np.linalg.svd(a, full_matrices=False),
        }
        for name, f in rows.items():
            print(f"linalg_dense_{n}/numpy_{name}: {best(f, number):.4f} ms")
    count = 100_000
    k = np.arange(count * 9)
    data = (value(3).ravel()[k % 9] + (k % 13) * 0.01).reshape(count, 3, 3)
    rhs = (np.arange(count * 3) % 7).astype(float).reshape(count, 3, 1)
    print(f"linalg_batched/numpy_solve_3x3: {best(lambda: np.linalg.solve(data, rhs), 3):.4f} ms")
    lap = laplacian(316)
    b = (np.arange(lap.shape[0]) % 7).astype(float)
    print(f"linalg_sparse/scipy_spsolve_laplacian_316: {best(lambda: spsolve(lap, b), 1):.4f} ms")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
