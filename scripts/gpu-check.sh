#!/usr/bin/env bash
# The CUDA device tests and the GPU bench on a GPU machine that has no Rust toolchain.
#
#   scripts/gpu-check.sh build [DIR]   (here, with cargo) builds the release test binaries
#                                      of the `cuda` feature and the device bench
#                                      (benches/device.rs) and copies them, with this
#                                      script and gpu_bench_torch.py, into DIR (default
#                                      target/gpu-check)
#   DIR/gpu-check.sh run               (on the GPU machine) runs every test binary with
#                                      MDTENSOR_REQUIRE_GPU=1, so a missing GPU, driver or
#                                      library fails instead of skipping
#   DIR/gpu-check.sh bench [OUT]       (on the GPU machine) runs the device bench and the
#                                      same work in PyTorch/CuPy (python3), writes their
#                                      JSON lines and the markdown table of both to OUT
#                                      (default DIR) and prints the table
#   DIR/gpu-check.sh all [OUT]         run, then bench; fails if either fails
#
# Each part runs under its own time limit (`timeout`), and says how long it took: tests
# 150 s, the mdtensor bench 120 s, the PyTorch/CuPy bench 180 s, the table 10 s — 460 s in
# all, so `all` fits one 600 s call of a GPU machine with room for its start.
#
# The binaries load libcuda, libnvrtc and libcublas at run time; on the GPU machine set
# LD_LIBRARY_PATH or MDTENSOR_CUDA_LIB_DIR if the CUDA 13 libraries are outside the places
# the probe searches (the loader path, /usr/local/cuda*/targets/*/lib, pip wheels of the
# Python environments in sight, /usr/local/nvidia/lib64).
set -euo pipefail

# The GPU tests only: `tests/device.rs` (generated sources, NVRTC, emulations) needs no GPU
# and runs in CI, so it would only spend the GPU machine's time.
TESTS=(device_gpu)
# The bench binary's name in DIR (the test `device` has the bench's target name).
BENCH=device_bench
# This script by an absolute path: `build` changes directory before copying it.
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
# The time limit of each part, in seconds (see the header).
LIMIT_TESTS=150
LIMIT_BENCH=120
LIMIT_PEERS=180
LIMIT_TABLE=10

# part NAME LIMIT COMMAND...: runs COMMAND under LIMIT seconds (when `timeout` exists) and
# prints how long it took; its status is COMMAND's (124 when the limit was reached).
part() {
    local name="$1" lim="$2" start end rc
    shift 2
    echo "=== $name (limit ${lim} s)"
    start=$(date +%s)
    if command -v timeout > /dev/null; then
        timeout "$lim" "$@" && rc=0 || rc=$?
    else
        "$@" && rc=0 || rc=$?
    fi
    end=$(date +%s)
    echo "--- $name: $((end - start)) s of ${lim} s, status $rc$([ "$rc" = 124 ] && echo ' (time limit reached)')"
    return "$rc"
}

# "NAME PATH" of each executable of kind $1 (test, bench) in cargo's JSON messages on stdin.
executables() {
    python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == [sys.argv[1]]:
        print(m["target"]["name"], m["executable"])
' "$1"
}

case "${1:-}" in
build)
    cd "$(dirname "$0")/.."
    out="${2:-target/gpu-check}"
    mkdir -p "$out"
    args=()
    for t in "${TESTS[@]}"; do args+=(--test "$t"); done
    # `--message-format=json` names each built executable; keep those of our targets.
    cargo test --release --features cuda --no-run "${args[@]}" --message-format=json | executables test \
        | while read -r name exe; do
            cp "$exe" "$out/$name"
            echo "built $out/$name"
        done
    # The device bench (benches/device.rs), release, from its own workspace member.
    cargo build --release -p mdtensor-benches --features cuda --bench device --message-format=json \
        | executables bench | while read -r name exe; do
            [ "$name" = device ] || continue
            cp "$exe" "$out/$BENCH"
            echo "built $out/$BENCH"
        done
    [ -x "$out/$BENCH" ] || { echo "the device bench was not built" >&2; exit 1; }
    # Symbols only name functions in a backtrace; without them the folder is smaller to carry.
    if command -v strip > /dev/null; then
        for f in "${TESTS[@]}" "$BENCH"; do strip "$out/$f"; done
    fi
    cp "$SELF" "$out/gpu-check.sh"
    cp scripts/gpu_bench_torch.py "$out/gpu_bench_torch.py"
    du -ch "$out"/* | tail -n 1 | sed "s|total|total size of $out|"
    echo "copy $out to the GPU machine and run: $out/gpu-check.sh run (tests), bench, or all"
    ;;
run)
    cd "$(dirname "$0")"
    status=0
    for t in "${TESTS[@]}"; do
        if [ ! -x "./$t" ]; then
            echo "missing test binary ./$t: build it with scripts/gpu-check.sh build" >&2
            exit 2
        fi
        part "tests: $t" "$LIMIT_TESTS" env MDTENSOR_REQUIRE_GPU=1 "./$t" --test-threads=1 || status=1
    done
    exit "$status"
    ;;
bench)
    here="$(cd "$(dirname "$0")" && pwd)"
    out="$(mkdir -p "${2:-$here}" && cd "${2:-$here}" && pwd)"
    cd "$here"
    for f in "$BENCH" gpu_bench_torch.py; do
        if [ ! -f "./$f" ]; then
            echo "missing ./$f: build it with scripts/gpu-check.sh build" >&2
            exit 2
        fi
    done
    # Bounded, so that a hung side cannot use up a short lease of the GPU machine; each
    # part's output is kept even when it fails, so the table shows what did run.
    status=0
    part "bench: mdtensor ($BENCH)" "$LIMIT_BENCH" \
        sh -c 'MDTENSOR_REQUIRE_GPU=1 "./$1" > "$2"; rc=$?; cat "$2"; exit $rc' _ "$BENCH" "$out/mdtensor.jsonl" \
        || status=1
    part "bench: PyTorch / CuPy (gpu_bench_torch.py)" "$LIMIT_PEERS" \
        sh -c 'python3 ./gpu_bench_torch.py > "$1"; rc=$?; cat "$1"; exit $rc' _ "$out/peers.jsonl" || status=1
    part "table ($out/table.md)" "$LIMIT_TABLE" \
        sh -c 'python3 ./gpu_bench_torch.py --table "$1" "$2" > "$3"; rc=$?; cat "$3"; exit $rc' _ \
        "$out/mdtensor.jsonl" "$out/peers.jsonl" "$out/table.md" || status=1
    exit "$status"
    ;;
all)
    status=0
    start=$(date +%s)
    "$SELF" run || status=1
    "$SELF" bench "${@:2}" || status=1
    echo "=== all: $(($(date +%s) - start)) s, status $status"
    exit "$status"
    ;;
*)
    sed -n '2,25p' "$0"
    exit 2
    ;;
esac
