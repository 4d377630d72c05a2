#!/usr/bin/env bash
# Whole models, side by side: our `tflite bench` against LiteRT with XNNPACK and with its
# builtin kernels (no delegates), alternately in the same run, at 1 and 2 threads.
#
#   Benchmarks/compare.sh [--rounds N] [--seconds S] [--threads "1 2"]
#                         [--ours-env NAME=VALUE] [MODEL.tflite ...]
#
# Builds `tflite` in release, makes (or reuses) the random-weight models in
# Benchmarks/models/ (ignored by git; BENCH_MODELS overrides): MobileNet v1/v2 224 float,
# int8 and legacy uint8, and an SSD MobileNetV2 detector at 320 float, uint8 and int8
# (see scripts/make_models.py); adds the tiny SSD head ending in the post-process op and
# the MediaPipe face detectors from Fixtures/models.
# Python comes from Fixtures/generate/venv.sh (FIXTURE_VENV=/path/to/venv reuses one).
# Prints a Markdown table; the samples go to Benchmarks/models/last-compare.json.
# --ours-env runs ours a second time with that environment variable, as an extra column
# (e.g. OPENBLAS_CORETYPE=SkylakeX where OpenBLAS does not recognise an AVX-512 CPU).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${BENCH_MODELS:-$root/Benchmarks/models}"
rounds=3 seconds=0.6 threads="1 2" models=() ours_env=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --ours-env) ours_env+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) models+=("$1"); shift ;;
  esac
done

python="$("$root/Fixtures/generate/venv.sh")"
echo "building tflite (release)..." >&2
swift build -c release --product tflite --package-path "$root" >&2
binary="$(swift build -c release --product tflite --package-path "$root" --show-bin-path)/tflite"

if [ ${#models[@]} -eq 0 ]; then
  "$python" "$root/Benchmarks/scripts/make_models.py" "$cache"
  models=(
    "$cache/mobilenet_v1_float.tflite" "$cache/mobilenet_v2_float.tflite"
    "$cache/mobilenet_v1_int8.tflite" "$cache/mobilenet_v2_int8.tflite"
    "$cache/mobilenet_v1_uint8.tflite" "$cache/mobilenet_v2_uint8.tflite"
    "$cache/ssd_mobilenet_v2_320_float.tflite" "$cache/ssd_mobilenet_v2_320_uint8.tflite"
    "$cache/ssd_mobilenet_v2_320_int8.tflite"
    "$root/Fixtures/models/face_detection_short_range.tflite"
    "$root/Fixtures/models/face_detection_full_range.tflite"
    "$root/Fixtures/models/ssd_postprocess.tflite"
  )
fi
mkdir -p "$cache"
extra=()
if [ ${#ours_env[@]} -gt 0 ]; then extra=(--ours-env "${ours_env[@]}"); fi
# shellcheck disable=SC2086
exec "$python" "$root/Benchmarks/scripts/compare.py" "$binary" "${models[@]}" \
  --threads $threads --rounds "$rounds" --seconds "$seconds" --json "$cache/last-compare.json" "${extra[@]}"
