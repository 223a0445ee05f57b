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
#                                      (default DIR) and prints the table; under 3 minutes
#   DIR/gpu-check.sh all [OUT]         run, then bench; fails if either fails
#
# The binaries load libcuda, libnvrtc and libcublas at run time; on the GPU machine set
# LD_LIBRARY_PATH or MDTENSOR_CUDA_LIB_DIR if the CUDA 13 libraries are outside the places
# the probe searches (the loader path, /usr/local/cuda*/targets/*/lib, pip wheels).
set -euo pipefail

# The GPU tests only: `tests/device.rs` (generated sources, NVRTC, emulations) needs no GPU
# and runs in CI, so it would only spend the GPU machine's time.
TESTS=(device_gpu)
# The bench binary's name in DIR (the test `device` has the bench's target name).
BENCH=device_bench
# This script by an absolute path: `build` changes directory before copying it.
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"

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
        echo "=== $t"
        MDTENSOR_REQUIRE_GPU=1 "./$t" --test-threads=1 || status=1
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
    # Bounded, so that a hung side cannot use up a short lease of the GPU machine.
    limit() { if command -v timeout > /dev/null; then timeout "$@"; else shift; "$@"; fi; }
    status=0
    echo "=== mdtensor ($BENCH)"
    limit 120 env MDTENSOR_REQUIRE_GPU=1 "./$BENCH" | tee "$out/mdtensor.jsonl" || status=1
    echo "=== PyTorch / CuPy (gpu_bench_torch.py)"
    limit 240 python3 ./gpu_bench_torch.py | tee "$out/peers.jsonl" || status=1
    echo "=== table ($out/table.md)"
    python3 ./gpu_bench_torch.py --table "$out/mdtensor.jsonl" "$out/peers.jsonl" | tee "$out/table.md" || status=1
    exit "$status"
    ;;
all)
    status=0
    "$SELF" run || status=1
    "$SELF" bench "${@:2}" || status=1
    exit "$status"
    ;;
*)
    sed -n '2,22p' "$0"
    exit 2
    ;;
esac
