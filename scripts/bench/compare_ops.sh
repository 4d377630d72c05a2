#!/usr/bin/env bash
# Every operator against LiteRT, one table: builds `tflite` in release, makes (or reuses)
# the one-operator models of scripts/bench/make_op_models.py in Benchmarks/models/ops/
# (ignored by git; BENCH_MODELS overrides the parent folder), times each with ours,
# LiteRT's XNNPACK and LiteRT's builtin kernels alternately at 1 and 2 threads, and prints
# the table sorted by ours / LiteRT's best (compare_ops.py).
#
#   scripts/bench/compare_ops.sh [--rounds N] [--seconds S] [--threads "1 2"] [--only SUBSTRING ...]
#
# Python comes from scripts/fixtures/venv.sh (FIXTURE_VENV=/path/to/venv reuses one).
# The samples go to Benchmarks/models/ops/last-compare.json.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
folder="${BENCH_MODELS:-$root/Benchmarks/models}/ops"
rounds=3 seconds=0.3 threads="1 2" only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --only) only+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
python="$("$root/scripts/fixtures/venv.sh")"
echo "building tflite (release)..." >&2
swift build -c release --product tflite --package-path "$root" >&2
binary="$(swift build -c release --product tflite --package-path "$root" --show-bin-path)/tflite"
"$python" "$root/scripts/bench/make_op_models.py" "$folder" >&2
extra=()
if [ ${#only[@]} -gt 0 ]; then extra=(--only "${only[@]}"); fi
# shellcheck disable=SC2086
exec "$python" "$root/scripts/bench/compare_ops.py" "$binary" "$folder" --threads $threads --rounds "$rounds" \
  --seconds "$seconds" --json "$folder/last-compare.json" "${extra[@]}"
