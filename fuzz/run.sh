#!/usr/bin/env bash
# Runs one cargo-fuzz target the way its findings mean something (fuzz/README.md):
#
#   fuzz/run.sh TARGET [SECONDS] [more libFuzzer options]
#
# A buffer the input asks for but the machine cannot give is an answer the library owes
# (`Err(OutOfMemory)` from every `try_` form), not a crash. AddressSanitizer's default
# reports any request past its allocator's limit as `allocation-size-too-big` and stops;
# `allocator_may_return_null=1` makes it return null instead, so the library's fallible
# path runs. `-malloc_limit_mb` refuses (with null, under that option) any single request
# above the limit, so a buffer of a few gigabytes, which this machine could grant, is
# refused as well and the refusal path is exercised without exhausting memory.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer options]}
secs=${2:-600}
shift
[ $# -gt 0 ] && shift
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
mkdir -p "fuzz/corpus/$target"
# New inputs go to the local corpus (ignored by git); the committed seeds are read too.
exec cargo +nightly fuzz run "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
    -max_total_time="$secs" -timeout=20 -malloc_limit_mb=2048 -rss_limit_mb=4096 "$@"
