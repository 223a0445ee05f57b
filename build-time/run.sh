#!/usr/bin/env bash
# Times what a user waits for after editing their own program: each program in
# build-time/ is built once (release and debug), then rebuilt N times after `touch src/main.rs`.
# The runs alternate programs and profiles (mlp, mlp-ndarray, tiny; release, debug; repeat) so
# that load from other work on the machine falls on all of them alike; medians and the spread
# are printed at the end, with the load average before and after.
#
#   build-time/run.sh [N]            N rebuilds per program and profile (default 5)
#   BT_TARGET=/some/dir build-time/run.sh   target dirs go to $BT_TARGET/<program>
#                                    (default build-time/target/<program>, ignored by git)
#   BT_PROGRAMS="mlp tiny" build-time/run.sh  a subset
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
n="${1:-5}"
target="${BT_TARGET:-$here/target}"
programs=(${BT_PROGRAMS:-mlp mlp-ndarray tiny})
profiles=(release debug)
results="$(mktemp)"
trap 'rm -f "$results"' EXIT

build() { # program profile
    local flag=()
    [ "$2" = release ] && flag=(--release)
    (cd "$here/$1" && CARGO_TARGET_DIR="$target/$1" cargo build -q "${flag[@]}")
}

echo "rustc: $(rustc --version)"
echo "load before: $(uptime)"
# The first build compiles the dependencies; it is not timed. Each program also runs once
# so its checksum can be compared with its twin's.
for p in "${programs[@]}"; do
    for prof in "${profiles[@]}"; do build "$p" "$prof"; done
    printf '%-12s %s\n' "$p" "$("$target/$p/release/bt-$p")"
done

for i in $(seq "$n"); do
    for p in "${programs[@]}"; do
        for prof in "${profiles[@]}"; do
            touch "$here/$p/src/main.rs"
            t0=$(date +%s.%N)
            build "$p" "$prof"
            t1=$(date +%s.%N)
            echo "$p $prof $(echo "$t1 - $t0" | bc)" >>"$results"
        done
    done
done
echo "load after:  $(uptime)"

echo
echo "rebuild after touching src/main.rs, seconds ($n runs each, alternated)"
printf '%-12s %-8s %7s %7s %7s   %s\n' program profile median min max runs
for p in "${programs[@]}"; do
    for prof in "${profiles[@]}"; do
        awk -v p="$p" -v prof="$prof" '$1 == p && $2 == prof { print $3 }' "$results" | sort -n |
            awk -v p="$p" -v prof="$prof" '
                { v[NR] = $1; all = all sprintf("%.2f ", $1) }
                END {
                    med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                    printf "%-12s %-8s %7.2f %7.2f %7.2f   %s\n", p, prof, med, v[1], v[NR], all
                }'
    done
done
