#!/usr/bin/env python3
"""The GPU bench's work in PyTorch (eager and torch.compile) and CuPy, and the table that
puts it beside mdtensor's figures (benches/device.rs).

    gpu_bench_torch.py [--filter NAME] [--no-compile]   times the work; one JSON line per item
    gpu_bench_torch.py --table MDTENSOR.jsonl PEER.jsonl  the markdown table of both runs
    gpu_bench_torch.py --selftest                        checks the parsing and the table on
                                                         fabricated lines (needs no torch)

Timing is the same as the Rust bench's: two warm-up calls, a loop sized to take about
20 ms (at most 20000 calls), seven repetitions each between two device synchronizations,
the median per call. Item names are the Rust bench's; `impl` says which side ran it.
torch and cupy are imported only when timing, so the table and the self-test run anywhere.
"""

import json
import statistics
import sys
import time

REPS = 7
TARGET_REP_S = 0.02
MAX_ITERS = 20_000
BIG = 1 << 26
SQ = 4096
TALL = (32768, 1024)

# name -> (what is timed, goal); a goal is (kind, bound, text):
#   ("ratio", r, _)  eager PyTorch time / mdtensor time >= r
#   ("ratio", r, _, impls)  the same, and mdtensor at least as fast as each of `impls`
#   ("gbps", g, _)   mdtensor's bytes per second >= g * 1e9
#   ("max_s", s, _)  mdtensor's median <= s
#   ("over_launch", s, _)  mdtensor's median minus the bare cudarc launch's <= s
ITEMS = [
    ("fused_expr", "`(&a + &b) * &c - d.exp()`, 2^26 (one fused kernel)",
     ("ratio", 2.0, "≥2× eager and ≥ torch.compile", ("torch.compile",))),
    ("add_new", "`&a + &b` into a new tensor, 2^26", ("ratio", 0.9, "≥0.9× eager")),
    ("sum_all_host", "sum of all 2^26, the total on the host (torch: `.sum().item()`)", ("ratio", 0.9, "≥0.9× eager")),
    ("sum_all_device", "sum of all 2^26, the total left on the device (torch: `.sum()`)", ("ratio", 0.9, "≥0.9× eager")),
    ("sum_last_4096x4096", "sum along the last axis, 4096²", ("ratio", 0.9, "≥0.9× eager")),
    ("sum_first_4096x4096", "sum along the first axis, 4096²", ("ratio", 0.9, "≥0.9× eager")),
    ("softmax_last_4096x4096", "softmax along the last axis, 4096²", ("ratio", 0.9, "≥0.9× eager")),
    ("softmax_last_32768x1024", "softmax along the last axis, 32768×1024", ("ratio", 0.9, "≥0.9× eager")),
    ("matmul_f32_4096", "matmul 4096³ f32 (no TF32)", ("ratio", 0.95, "≥0.95× eager")),
    ("matmul_tf32_4096", "matmul 4096³ f32, TF32 opted in", ("ratio", 0.95, "≥0.95× eager")),
    ("matmul_f64_4096", "matmul 4096³ f64", ("ratio", 0.95, "≥0.95× eager")),
    ("h2d_256mib", "host→device 256 MiB from pageable memory", ("gbps", 40.0, "≥40 GB/s")),
    ("small_add_call", "cached 1-element `&a + &b` into a new tensor, per call", ("over_launch", 10e-6, "≤10 µs over a bare launch")),
    ("small_add_assign", "cached 1-element `&a + &b` into an existing tensor, per call", None),
    ("first_call", "first call of a new expression (NVRTC compile + launch)", ("max_s", 0.1, "≤100 ms")),
]
NAMES = [n for n, _, _ in ITEMS]

# The impl shown in the "PyTorch eager" column; every other peer impl goes to the next column.
EAGER = "torch"
OURS = "mdtensor"
LABELS = {
    "torch.compile": "torch.compile",
    "cupy": "CuPy",
    "cupy.fuse": "cupy.fuse",
    "torch-pinned": "pinned `.to('cuda')`",
    "cudarc-launch": "bare cudarc launch",
    "mdtensor-tracked": "mdtensor, `StreamSync::Tracked`",
}


# ---------------------------------------------------------------- timing (torch/cupy side)

def emit(rec):
    print(json.dumps(rec), flush=True)


def time_item(name, impl, fn, sync, nbytes=None):
    """Times `fn` as the Rust bench does and prints its JSON line."""
    for _ in range(2):
        fn()
    sync()
    t = time.perf_counter()
    fn()
    sync()
    one = max(time.perf_counter() - t, 1e-9)
    iters = min(max(int(-(-TARGET_REP_S // one)), 1), MAX_ITERS)
    per_call = []
    for _ in range(REPS):
        sync()
        t = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        per_call.append((time.perf_counter() - t) / iters)
    rec = {"name": name, "impl": impl, "median_s": statistics.median(per_call), "reps": REPS, "iters": iters}
    if nbytes is not None:
        rec["bytes"] = nbytes
    emit(rec)


def skipped(name, impl, reason):
    emit({"meta": "skipped", "name": name, "impl": impl, "reason": str(reason).splitlines()[0][:300] if str(reason) else type(reason).__name__})


def set_tf32(torch, on):
    """TF32 for f32 products on or off, through whichever switch this torch has (newer
    versions refuse a mix of the old and the new one)."""
    m = torch.backends.cuda.matmul
    if hasattr(m, "fp32_precision"):
        m.fp32_precision = "tf32" if on else "ieee"
    else:
        m.allow_tf32 = on


def run_peers(filt=None, compile_=True):
    try:
        import torch  # noqa: PLC0415 (lazy: --table and --selftest need no torch)
    except ImportError as e:
        skipped("*", "torch", f"no torch: the PyTorch side cannot run ({e})")
        return 1
    if not torch.cuda.is_available():
        skipped("*", "torch", "no GPU: torch.cuda.is_available() is False")
        return 1
    dev = torch.device("cuda")
    sync = torch.cuda.synchronize
    emit({"meta": "device", "impl": "torch", "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
          "cuda": torch.version.cuda})

    def wants(name):
        return filt is None or filt in name

    def guarded(name, impl, body):
        try:
            body()
        except Exception as e:  # one failing peer must not stop the others
            skipped(name, impl, e)

    def vec(n, seed):
        i = torch.arange(n, device=dev, dtype=torch.int64)
        return (((i * 7 + seed * 13) % 17).to(torch.float32) * 0.0625 - 0.5)

    def mat(m, n, seed, dtype=torch.float32):
        i = torch.arange(m, device=dev, dtype=torch.int64)[:, None]
        j = torch.arange(n, device=dev, dtype=torch.int64)[None, :]
        return (((i * 7 + j * 3 + seed * 13) % 17).to(dtype) * 0.0625 - 0.5).contiguous()

    def fused(a, b, c, d):
        return (a + b) * c - d.exp()

    try:
        import cupy  # noqa: PLC0415
    except Exception as e:  # a missing or broken CuPy says so once, and its rows are skipped
        cupy = None
        skipped("*", "cupy", f"cupy not importable: {e}")

    def cupy_sync():
        cupy.cuda.get_current_stream().synchronize()
        sync()

    def with_cupy(name, body):
        """Times `body(cupy)` (which returns the callable) as impl `cupy`, when CuPy is here."""
        if cupy is not None:
            guarded(name, "cupy", lambda: time_item(name, "cupy", body(cupy), cupy_sync))

    if wants("small_add_call") or wants("small_add_assign"):
        a, b = vec(1, 11), vec(1, 12)
        if wants("small_add_call"):
            guarded("small_add_call", "torch", lambda: time_item("small_add_call", "torch", lambda: a + b, sync))
        if wants("small_add_assign"):
            o = torch.empty_like(a)
            guarded("small_add_assign", "torch",
                    lambda: time_item("small_add_assign", "torch", lambda: torch.add(a, b, out=o), sync))

    if wants("fused_expr") or wants("add_new"):
        a, b, c, d = vec(BIG, 1), vec(BIG, 2), vec(BIG, 3), vec(BIG, 4)
        if wants("fused_expr"):
            guarded("fused_expr", "torch", lambda: time_item("fused_expr", "torch", lambda: fused(a, b, c, d), sync))
            if compile_:
                def compiled():
                    cf = torch.compile(fused)
                    time_item("fused_expr", "torch.compile", lambda: cf(a, b, c, d), sync)
                guarded("fused_expr", "torch.compile", compiled)
            else:
                skipped("fused_expr", "torch.compile", "--no-compile")
            if cupy is not None:
                def cupy_fused():
                    ca, cb, cc, cd = (cupy.from_dlpack(x) for x in (a, b, c, d))
                    cf = cupy.fuse()(lambda p, q, r, s: (p + q) * r - cupy.exp(s))
                    time_item("fused_expr", "cupy.fuse", lambda: cf(ca, cb, cc, cd), cupy_sync)
                guarded("fused_expr", "cupy.fuse", cupy_fused)
            del c, d
        if wants("add_new"):
            guarded("add_new", "torch", lambda: time_item("add_new", "torch", lambda: a + b, sync))

            def cupy_add(cp):
                ca, cb = cp.from_dlpack(a), cp.from_dlpack(b)
                return lambda: ca + cb
            with_cupy("add_new", cupy_add)
        del a, b

    if wants("sum_all_host") or wants("sum_all_device"):
        a = vec(BIG, 5)
        # Like with like: the total brought to the host against mdtensor's `sum()`, and the
        # total left on the device against mdtensor's 0-d `sum_axes(&[0])`.
        if wants("sum_all_host"):
            guarded("sum_all_host", "torch",
                    lambda: time_item("sum_all_host", "torch", lambda: a.sum().item(), sync))

            def cupy_sum_host(cp):
                ca = cp.from_dlpack(a)
                return lambda: float(ca.sum())
            with_cupy("sum_all_host", cupy_sum_host)
        if wants("sum_all_device"):
            guarded("sum_all_device", "torch", lambda: time_item("sum_all_device", "torch", lambda: a.sum(), sync))

            def cupy_sum(cp):
                ca = cp.from_dlpack(a)
                return lambda: ca.sum()
            with_cupy("sum_all_device", cupy_sum)
        del a
    sq = [n for n in ("sum_last_4096x4096", "sum_first_4096x4096", "softmax_last_4096x4096") if wants(n)]
    if sq:
        a = mat(SQ, SQ, 6)
        work = {"sum_last_4096x4096": lambda: a.sum(-1), "sum_first_4096x4096": lambda: a.sum(0),
                "softmax_last_4096x4096": lambda: torch.softmax(a, -1)}
        axis = {"sum_last_4096x4096": 1, "sum_first_4096x4096": 0}
        for n in sq:
            guarded(n, "torch", lambda n=n: time_item(n, "torch", work[n], sync))
            if n in axis:
                def cupy_axis(cp, n=n):
                    ca = cp.from_dlpack(a)
                    return lambda: ca.sum(axis=axis[n])
                with_cupy(n, cupy_axis)
        del a
    if wants("softmax_last_32768x1024"):
        a = mat(*TALL, 7)
        guarded("softmax_last_32768x1024", "torch",
                lambda: time_item("softmax_last_32768x1024", "torch", lambda: torch.softmax(a, -1), sync))
        del a

    if wants("matmul_f32_4096") or wants("matmul_tf32_4096"):
        a, b = mat(SQ, SQ, 8), mat(SQ, SQ, 9)
        for n, tf32 in (("matmul_f32_4096", False), ("matmul_tf32_4096", True)):
            if wants(n):
                def mm(n=n, tf32=tf32):
                    set_tf32(torch, tf32)
                    try:
                        time_item(n, "torch", lambda: a @ b, sync)
                    finally:
                        set_tf32(torch, False)
                guarded(n, "torch", mm)
        if wants("matmul_f32_4096"):
            def cupy_mm(cp):
                ca, cb = cp.from_dlpack(a), cp.from_dlpack(b)
                return lambda: ca @ cb
            with_cupy("matmul_f32_4096", cupy_mm)
        del a, b
    if wants("matmul_f64_4096"):
        a, b = mat(SQ, SQ, 8, torch.float64), mat(SQ, SQ, 9, torch.float64)
        guarded("matmul_f64_4096", "torch", lambda: time_item("matmul_f64_4096", "torch", lambda: a @ b, sync))

        def cupy_mm64(cp):
            ca, cb = cp.from_dlpack(a), cp.from_dlpack(b)
            return lambda: ca @ cb
        with_cupy("matmul_f64_4096", cupy_mm64)
        del a, b

    if wants("h2d_256mib"):
        # Filled, so that every page is resident before the first copy (as mdtensor's is).
        h = torch.full((BIG,), 0.5, dtype=torch.float32)
        nbytes = BIG * 4
        guarded("h2d_256mib", "torch",
                lambda: time_item("h2d_256mib", "torch", lambda: h.to(dev), sync, nbytes))

        def pinned():
            hp = h.pin_memory()
            time_item("h2d_256mib", "torch-pinned", lambda: hp.to(dev, non_blocking=True), sync, nbytes)
        guarded("h2d_256mib", "torch-pinned", pinned)
    return 0


# ---------------------------------------------------------------- parsing and the table

def parse(lines):
    """(results, meta, notes): results maps (name, impl) to its record; meta holds the
    "meta" records; notes the lines that are not JSON (a "no GPU" line, an error)."""
    results, meta, notes = {}, [], []
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            notes.append(line)
            continue
        if not isinstance(rec, dict):
            notes.append(line)
        elif "meta" in rec:
            meta.append(rec)
        elif isinstance(rec.get("name"), str) and isinstance(rec.get("impl"), str) \
                and isinstance(rec.get("median_s"), (int, float)):
            results[(rec["name"], rec["impl"])] = rec
        else:
            notes.append(line)
    return results, meta, notes


def fmt_time(s):
    if s >= 1.0:
        return f"{s:.3g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} µs"


def cell(rec):
    text = fmt_time(rec["median_s"])
    if rec.get("bytes"):
        text += f" ({rec['bytes'] / rec['median_s'] / 1e9:.1f} GB/s)"
    return text


def verdict(goal, results, name):
    """(text, met): met is True, False or None (a figure is missing)."""
    if goal is None:
        return "", None
    kind, bound, text = goal[:3]
    ours = results.get((name, OURS))
    if ours is None:
        return f"{text}: no mdtensor figure", None
    t = ours["median_s"]
    if kind == "ratio":
        peer = results.get((name, EAGER))
        if peer is None:
            return f"{text}: no eager figure", None
        met = peer["median_s"] / t >= bound
        for impl in goal[3] if len(goal) > 3 else ():
            other = results.get((name, impl))
            if other is None:
                return f"{text}: {'met' if met else '**not met**'} against eager, no {impl} figure", None
            met = met and other["median_s"] >= t
    elif kind == "gbps":
        met = bool(ours.get("bytes")) and ours["bytes"] / t / 1e9 >= bound
    elif kind == "max_s":
        met = t <= bound
    elif kind == "over_launch":
        bare = results.get((name, "cudarc-launch"))
        if bare is None:
            return f"{text}: no bare-launch figure", None
        over = t - bare["median_s"]
        return f"{text}: {fmt_time(max(over, 0.0))} over, {'met' if over <= bound else '**not met**'}", over <= bound
    else:
        raise ValueError(f"unknown goal kind {kind}")
    return f"{text}: {'met' if met else '**not met**'}", met


def table(results, meta, notes):
    out = []
    for m in meta:
        if m.get("meta") == "device":
            extra = ", ".join(f"{k} {m[k]}" for k in ("arch", "torch", "cuda") if m.get(k))
            out.append(f"* {m.get('impl')}: {m.get('device')}" + (f" ({extra})" if extra else ""))
    if out:
        out.append("")
    out.append("| work | mdtensor | PyTorch eager | torch.compile / CuPy / other | ratio (eager / mdtensor) | goal |")
    out.append("|---|---|---|---|---|---|")
    known = set(NAMES)
    extra_names = sorted({n for n, _ in results if n not in known})
    rows = [(n, w, g) for n, w, g in ITEMS] + [(n, n, None) for n in extra_names]
    met_count = total = 0
    for name, work, goal in rows:
        ours = results.get((name, OURS))
        eager = results.get((name, EAGER))
        if ours is None and eager is None and not any(n == name for n, _ in results):
            continue
        others = []
        for (n, impl), rec in sorted(results.items()):
            if n != name or impl in (OURS, EAGER):
                continue
            o = f"{LABELS.get(impl, impl)} {cell(rec)}"
            if ours is not None and impl != "cudarc-launch":
                o += f" ({rec['median_s'] / ours['median_s']:.2f}×)"
            others.append(o)
        ratio = f"{eager['median_s'] / ours['median_s']:.2f}×" if ours and eager else "–"
        g, met = verdict(goal, results, name)
        if met is not None:
            total += 1
            met_count += bool(met)
        out.append(f"| `{name}`: {work} | {cell(ours) if ours else '–'} | {cell(eager) if eager else '–'} | "
                   f"{'; '.join(others) or '–'} | {ratio} | {g} |")
    out.append("")
    out.append(f"Goals met: {met_count} of the {total} whose figures are all here. "
               "Ratio = peer time / mdtensor time: above 1, mdtensor is faster.")
    for kind in ("failed", "skipped"):
        for m in (m for m in meta if m.get("meta") == kind):
            what = "" if m.get("name") == "*" else f" `{m.get('name')}`"
            out.append(f"* {kind} {m.get('impl')}{what}: {m.get('reason')}")
    for n in notes:
        out.append(f"* note: {n}")
    return "\n".join(out)


def table_from_files(paths):
    lines = []
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                lines.extend(f.readlines())
        except OSError as e:
            lines.append(f"could not read {p}: {e}")
    return table(*parse(lines))


# ---------------------------------------------------------------- self-test

def selftest():
    ours = [
        '{"meta": "device", "impl": "mdtensor", "device": "NVIDIA H100 80GB HBM3", "arch": "compute_90"}',
        '{"name": "fused_expr", "impl": "mdtensor", "median_s": 1.0e-3, "reps": 7, "iters": 20}',
        '{"name": "add_new", "impl": "mdtensor", "median_s": 2.0e-3, "reps": 7, "iters": 10}',
        '{"name": "h2d_256mib", "impl": "mdtensor", "median_s": 5.0e-3, "reps": 7, "iters": 4, "bytes": 268435456}',
        '{"name": "small_add_call", "impl": "mdtensor", "median_s": 9.0e-6, "reps": 7, "iters": 2000}',
        '{"name": "small_add_call", "impl": "cudarc-launch", "median_s": 3.0e-6, "reps": 7, "iters": 6000}',
        '{"name": "small_add_call", "impl": "mdtensor-tracked", "median_s": 1.2e-5, "reps": 7, "iters": 1500}',
        '{"meta": "failed", "name": "matmul_f64_4096", "impl": "mdtensor", "reason": "out of device memory"}',
        '{"name": "first_call", "impl": "mdtensor", "median_s": 0.25, "reps": 7, "iters": 1}',
        '{"name": "new_item", "impl": "mdtensor", "median_s": 1.0, "reps": 7, "iters": 1}',
    ]
    peers = [
        '{"meta": "device", "impl": "torch", "device": "NVIDIA H100 80GB HBM3", "torch": "2.11.0", "cuda": "13.0"}',
        '{"name": "fused_expr", "impl": "torch", "median_s": 2.5e-3, "reps": 7, "iters": 8}',
        '{"name": "fused_expr", "impl": "cupy.fuse", "median_s": 1.1e-3, "reps": 7, "iters": 18}',
        '{"meta": "skipped", "name": "fused_expr", "impl": "torch.compile", "reason": "no triton"}',
        '{"meta": "skipped", "name": "*", "impl": "cupy", "reason": "no cupy"}',
        '{"name": "add_new", "impl": "torch", "median_s": 1.0e-3, "reps": 7, "iters": 20}',
        '{"name": "h2d_256mib", "impl": "torch", "median_s": 4.0e-2, "reps": 7, "iters": 1, "bytes": 268435456}',
        '{"name": "h2d_256mib", "impl": "torch-pinned", "median_s": 5.0e-3, "reps": 7, "iters": 4, "bytes": 268435456}',
        '{"name": "small_add_call", "impl": "torch", "median_s": 6.0e-6, "reps": 7, "iters": 3000}',
        "not json at all",
        '{"name": "broken", "impl": "torch"}',
        "[1, 2]",
        "",
    ]
    results, meta, notes = parse(ours + peers)
    assert len(results) == 14, results.keys()
    assert len(meta) == 5 and len(notes) == 3, (meta, notes)
    assert results[("fused_expr", "cupy.fuse")]["median_s"] == 1.1e-3

    assert verdict(ITEMS[0][2], results, "fused_expr") == (
        "≥2× eager and ≥ torch.compile: met against eager, no torch.compile figure", None)
    compiled = dict(results)
    compiled[("fused_expr", "torch.compile")] = {"name": "fused_expr", "impl": "torch.compile", "median_s": 0.9e-3}
    assert verdict(ITEMS[0][2], compiled, "fused_expr") == ("≥2× eager and ≥ torch.compile: **not met**", False)
    compiled[("fused_expr", "torch.compile")]["median_s"] = 1.0e-3
    assert verdict(ITEMS[0][2], compiled, "fused_expr") == ("≥2× eager and ≥ torch.compile: met", True)
    assert verdict(ITEMS[1][2], results, "add_new") == ("≥0.9× eager: **not met**", False)
    assert verdict(ITEMS[2][2], results, "sum_all_host") == ("≥0.9× eager: no mdtensor figure", None)
    h2d = dict((n, g) for n, _, g in ITEMS)
    assert verdict(h2d["h2d_256mib"], results, "h2d_256mib")[1] is True  # 268435456 B / 5 ms = 53.7 GB/s
    assert verdict(h2d["first_call"], results, "first_call") == ("≤100 ms: **not met**", False)
    text, met = verdict(h2d["small_add_call"], results, "small_add_call")
    assert met is True and "6 µs over" in text, text
    small = dict(results)
    small[("small_add_call", "mdtensor")] = dict(small[("small_add_call", "mdtensor")], median_s=14e-6)
    assert verdict(h2d["small_add_call"], small, "small_add_call")[1] is False

    assert fmt_time(2.5) == "2.5 s" and fmt_time(2.5e-3) == "2.5 ms" and fmt_time(2.5e-6) == "2.5 µs"
    assert cell(results[("h2d_256mib", "mdtensor")]) == "5 ms (53.7 GB/s)"

    t = table(results, meta, notes)
    lines = t.splitlines()
    row = next(line for line in lines if line.startswith("| `fused_expr`"))
    cols = [c.strip() for c in row.strip("|").split("|")]
    assert cols[1:] == ["1 ms", "2.5 ms", "cupy.fuse 1.1 ms (1.10×)", "2.50×",
                        "≥2× eager and ≥ torch.compile: met against eager, no torch.compile figure"], cols
    row = next(line for line in lines if line.startswith("| `small_add_call`"))
    assert "bare cudarc launch 3 µs" in row and "(" not in row.split("bare cudarc launch")[1].split(";")[0], row
    assert "mdtensor, `StreamSync::Tracked` 12 µs (1.33×)" in row, row
    row = next(line for line in lines if line.startswith("| `h2d_256mib`"))
    assert "40 ms (6.7 GB/s)" in row and "pinned `.to('cuda')` 5 ms (53.7 GB/s) (1.00×)" in row, row
    assert any(line.startswith("| `new_item`") for line in lines)
    assert not any(line.startswith("| `sum_all_host`") for line in lines)  # no figure from either side
    assert "Goals met: 2 of the 4 whose figures are all here." in t, t
    assert "* skipped torch.compile `fused_expr`: no triton" in t
    assert "* skipped cupy: no cupy" in t
    assert "* failed mdtensor `matmul_f64_4096`: out of device memory" in t
    assert "* note: not json at all" in t
    assert "* mdtensor: NVIDIA H100 80GB HBM3 (arch compute_90)" in t
    assert "* torch: NVIDIA H100 80GB HBM3 (torch 2.11.0, cuda 13.0)" in t
    assert all(line.count("|") == 7 for line in lines if line.startswith("|")), t
    assert "torch" not in sys.modules, "the table must not import torch"
    dry_run()
    print("selftest passed")
    return 0


def fake_torch(np):
    """The part of torch's API that `run_peers` uses, on numpy arrays (for `dry_run`)."""
    import types  # noqa: PLC0415

    class T:
        def __init__(self, a):
            self.a = np.asarray(a)

        def _bin(op):
            return lambda self, o: T(op(self.a, o.a if isinstance(o, T) else o))

        __add__ = __radd__ = _bin(np.add)
        __sub__ = _bin(np.subtract)
        __mul__ = __rmul__ = _bin(np.multiply)
        __mod__ = _bin(np.mod)
        __matmul__ = _bin(np.matmul)

        def __getitem__(self, k):
            return T(self.a[k])

        def to(self, what, non_blocking=False):
            return T(self.a.astype(what)) if isinstance(what, type) else T(self.a.copy())

        def contiguous(self):
            return T(np.ascontiguousarray(self.a))

        def exp(self):
            return T(np.exp(self.a))

        def sum(self, dim=None):
            return T(self.a.sum(axis=dim))

        def item(self):
            return self.a.item()

        def pin_memory(self):
            return T(self.a.copy())

    def softmax(x, dim):
        e = np.exp(x.a - x.a.max(axis=dim, keepdims=True))
        return T(e / e.sum(axis=dim, keepdims=True))

    def add(x, y, out):
        np.add(x.a, y.a, out=out.a)
        return out

    def compile_(f):
        raise RuntimeError("fake torch: no compiler\nsecond line")

    return types.SimpleNamespace(
        __version__="fake", int64=np.int64, float32=np.float32, float64=np.float64,
        version=types.SimpleNamespace(cuda="0"),
        device=lambda name: name,
        cuda=types.SimpleNamespace(is_available=lambda: True, get_device_name=lambda i: "fake GPU",
                                   synchronize=lambda: None),
        backends=types.SimpleNamespace(cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(fp32_precision="ieee"))),
        arange=lambda n, device=None, dtype=None: T(np.arange(n, dtype=dtype)),
        full=lambda shape, v, dtype=None: T(np.full(shape, v, dtype=dtype)),
        empty_like=lambda x: T(np.empty_like(x.a)),
        softmax=softmax, add=add, compile=compile_,
    )


def fake_cupy(np):
    """The part of CuPy's API that `run_peers` uses, on numpy arrays (for `dry_run`)."""
    import types  # noqa: PLC0415

    stream = types.SimpleNamespace(synchronize=lambda: None)
    return types.SimpleNamespace(
        from_dlpack=lambda t: t.a, fuse=lambda: (lambda f: f), exp=np.exp,
        cuda=types.SimpleNamespace(get_current_stream=lambda: stream),
    )


def dry_run():
    """`run_peers` end to end on a numpy stand-in for torch at small sizes: every item
    prints its line under its name, a failing peer is skipped with its reason, and TF32 is
    switched back off."""
    try:
        import numpy as np  # noqa: PLC0415
    except ImportError:
        print("selftest: dry run of the PyTorch side skipped (no numpy)")
        return
    import contextlib  # noqa: PLC0415
    import io  # noqa: PLC0415

    g = globals()
    saved = {k: g[k] for k in ("BIG", "SQ", "TALL", "REPS", "MAX_ITERS")}
    fake = fake_torch(np)
    sys.modules["torch"] = fake
    sys.modules["cupy"] = fake_cupy(np)
    buf = io.StringIO()
    try:
        g.update(BIG=1 << 10, SQ=16, TALL=(64, 8), REPS=3, MAX_ITERS=2)
        with contextlib.redirect_stdout(buf):
            rc = run_peers()
        only = io.StringIO()
        with contextlib.redirect_stdout(only):
            assert run_peers(filt="sum_first") == 0
    finally:
        g.update(saved)
        del sys.modules["torch"]
        del sys.modules["cupy"]
    assert rc == 0
    assert list(parse(only.getvalue().splitlines())[0]) == [("sum_first_4096x4096", "torch"),
                                                            ("sum_first_4096x4096", "cupy")]
    results, meta, notes = parse(buf.getvalue().splitlines())
    assert not notes, notes
    for name in NAMES:
        if name != "first_call":
            assert (name, "torch") in results, name
            assert results[(name, "torch")]["reps"] == 3, results[(name, "torch")]
    for name in ("add_new", "sum_all_host", "sum_all_device", "sum_last_4096x4096", "sum_first_4096x4096",
                 "matmul_f32_4096", "matmul_f64_4096"):
        assert (name, "cupy") in results, name
    assert ("fused_expr", "cupy.fuse") in results
    assert results[("h2d_256mib", "torch-pinned")]["bytes"] == (1 << 10) * 4
    skips = {(m["name"], m["impl"]): m["reason"] for m in meta if m["meta"] == "skipped"}
    assert skips[("fused_expr", "torch.compile")] == "fake torch: no compiler", skips
    assert [m["device"] for m in meta if m["meta"] == "device"] == ["fake GPU"]
    assert fake.backends.cuda.matmul.fp32_precision == "ieee"


def main(argv):
    if argv[:1] == ["--selftest"]:
        return selftest()
    if argv[:1] == ["--table"]:
        if len(argv) < 2:
            print("--table needs the JSON-line files of both runs", file=sys.stderr)
            return 2
        print(table_from_files(argv[1:]))
        return 0
    filt, compile_ = None, True
    args = iter(argv)
    for a in args:
        if a == "--filter":
            filt = next(args, None)
        elif a == "--no-compile":
            compile_ = False
        else:
            print(__doc__, file=sys.stderr)
            return 2
    return run_peers(filt, compile_)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
