"""The peer of `dist.rs`'s stencil group: the same explicit 5-point step on an N x N plate
in row blocks (numpy's array_split sizes), with a one-row halo exchanged by mpi4py's
Sendrecv each step, and the plate's edges kept. Prints the mean time per step (the
slowest rank's) and the bytes each rank sends per step.

    mpirun -n 2 python3 benches/dist_stencil_mpi4py.py 4096 100
"""
import sys
import time

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
n = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20

counts = [n // size + (1 if r < n % size else 0) for r in range(size)]
start = sum(counts[:rank])
rows = counts[rank]
rng = np.random.default_rng(3 + rank)
# This rank's rows with a halo row above and below.
u = np.zeros((rows + 2, n))
u[1:-1] = rng.random((rows, n))
up = rank - 1 if rank > 0 else MPI.PROC_NULL
down = rank + 1 if rank < size - 1 else MPI.PROC_NULL


def step(u):
    comm.Sendrecv(u[1], dest=up, recvbuf=u[-1], source=down)
    comm.Sendrecv(u[-2], dest=down, recvbuf=u[0], source=up)
    new = u.copy()
    c = u[1:-1, 1:-1]
    new[1:-1, 1:-1] = c + 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * c)
    # The plate's first and last rows stay.
    if start == 0:
        new[1] = u[1]
    if start + rows == n:
        new[-2] = u[-2]
    return new


u = step(u)
comm.Barrier()
t = time.perf_counter()
for _ in range(steps):
    u = step(u)
mine = (time.perf_counter() - t) / steps
slowest = comm.allreduce(mine, op=MPI.MAX)
if rank == 0:
    sent = 8 * n * ((up != MPI.PROC_NULL) + (down != MPI.PROC_NULL))
    print(f"stencil  mpi4py + numpy 5-point step {n}^2 {slowest * 1e3:10.3f} ms  {sent:>10} B sent/rank")
