#!/usr/bin/env bash
# Kernel microbenchmarks with their arithmetic rate and the fraction of this CPU's peak.
#
#   scripts/bench/kernels.sh [FILTER]      # default: every kernel at 1 thread (".* t1$"; the filter must match the whole name)
#
# Runs the ordo-one/benchmark suite in release (`swift package benchmark`), then prints a
# Markdown table: each kernel at every kernel level this CPU runs (portable, avx2, avx512), with
# p50 wall time, p50 instructions, GFLOP/s (GOP/s for int8: 2 × the multiply-accumulates
# `Engine.work` counts, per second), the peak of that level beside it, the rate as a
# fraction of it, and the speed-up over portable. A level's peak is the measured clock
# (perf stat, else /proc/cpuinfo) times what its instructions do per cycle, assuming two
# vector multiply pipes: float32 8 FLOP (SSE2), 32 (AVX2 FMA) or 64 (AVX-512 FMA); int8
# 32 OP (pmaddwd), 64 (vpmaddwd) or 256 (vpdpbusd on zmm); kernel_table.py says more.
#
#   scripts/bench/kernels.sh '.* avx2 t1$'                 # one level
#   scripts/bench/kernels.sh 'int8 conv 1x1 112x112 16.* t1$'   # one kernel, every level
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="$(cd "$here/../../Benchmarks" && pwd)"   # the benchmark package
filter="${1:-.* t1\$}"
ghz=""
if command -v perf >/dev/null 2>&1; then
  # Cycles per second of one busy core.
  stats="$(perf stat -x, -e cycles,task-clock -- timeout 1 sh -c 'while :; do :; done' 2>&1 >/dev/null || true)"
  # Without hardware counters (many VMs) perf prints "<not supported>" for cycles: only
  # a numeric count is a clock.
  ghz="$(echo "$stats" | awk -F, '/cycles/ && $1 ~ /^[0-9.]+$/ {c=$1} /task-clock/ {t=$1} END {if (c > 0 && t > 0) printf "%.2f", c / (t * 1e6)}')"
fi
if [ -z "$ghz" ]; then
  ghz="$(awk -F: '/cpu MHz/ {printf "%.2f", $2 / 1000; exit}' /proc/cpuinfo)"
fi
flags="$(grep -m1 '^flags' /proc/cpuinfo || true)"
cd "$package"
raw="$package/.build/kernels-raw.md"
mkdir -p "$package/.build"
# The raw report is kept (and shown if the run fails: build errors go to stdout too).
if ! swift package benchmark --filter "$filter" --format markdown > "$raw"; then
  tail -n 40 "$raw" >&2
  exit 1
fi
python3 "$here/kernel_table.py" --ghz "$ghz" --flags "$flags" < "$raw"
