#!/usr/bin/env bash
# The CUDA device tests on a GPU machine that has no Rust toolchain.
#
#   scripts/gpu-check.sh build [DIR]   (here, with cargo) builds the release test binaries
#                                      of the `cuda` feature and copies them, with this
#                                      script, into DIR (default target/gpu-check)
#   DIR/gpu-check.sh run               (on the GPU machine) runs every binary with
#                                      MDTENSOR_REQUIRE_GPU=1, so a missing GPU, driver or
#                                      library fails instead of skipping
#
# The binaries load libcuda, libnvrtc and libcublas at run time; on the GPU machine set
# LD_LIBRARY_PATH or MDTENSOR_CUDA_LIB_DIR if the CUDA 13 libraries are outside the places
# the probe searches (the loader path, /usr/local/cuda*/targets/*/lib, pip wheels).
set -euo pipefail

TESTS=(device device_gpu)

case "${1:-}" in
build)
    cd "$(dirname "$0")/.."
    out="${2:-target/gpu-check}"
    mkdir -p "$out"
    args=()
    for t in "${TESTS[@]}"; do args+=(--test "$t"); done
    # `--message-format=json` names each built test executable; keep those of our targets.
    cargo test --release --features cuda --no-run "${args[@]}" --message-format=json \
        | python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"], m["executable"])
' | while read -r name exe; do
        cp "$exe" "$out/$name"
        echo "built $out/$name"
    done
    cp "$0" "$out/gpu-check.sh"
    echo "copy $out to the GPU machine and run: $out/gpu-check.sh run"
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
*)
    sed -n '2,13p' "$0"
    exit 2
    ;;
esac
