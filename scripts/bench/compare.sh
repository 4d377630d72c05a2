#!/usr/bin/env bash
# Whole models, side by side: our `tflite bench` against LiteRT with XNNPACK and with its
# builtin kernels (no delegates), alternately in the same run, at 1 and 2 threads.
#
#   scripts/bench/compare.sh [--rounds N] [--seconds S] [--threads "1 2"]
#                         [--ours-env NAME=VALUE] [--ours-arg ARG]
#                         [--target-cpu CPU [--tuned-env NAME=VALUE]]
#                         [MODEL.tflite ...]
#
# Builds `tflite` in release, makes (or reuses) the random-weight models in
# Benchmarks/models/ (ignored by git; BENCH_MODELS overrides): MobileNet v1/v2 224 float,
# int8 and legacy uint8, and an SSD MobileNetV2 detector at 320 float, uint8 and int8
# (see scripts/make_models.py), LSTM keyword-spotter and text-classifier models in
# float32, hybrid and int8, and a streaming SVDF keyword spotter, float and int8 (timed per
# invoke, each invoke one more frame of the stream); adds the tiny SSD head ending in the post-process op and
# the MediaPipe face detectors from Fixtures/models.
# Python comes from scripts/fixtures/venv.sh (FIXTURE_VENV=/path/to/venv reuses one).
# Prints a Markdown table; the samples go to Benchmarks/models/last-compare.json.
# --ours-env runs ours a second time with that environment variable, as an extra column
# (e.g. OPENBLAS_CORETYPE=SkylakeX where OpenBLAS does not recognise an AVX-512 CPU);
# --ours-arg adds a `tflite bench` argument to that column (repeat it per word, e.g.
# `--ours-arg --requantization --ours-arg float32` for the opt-in inexact rescaling).
# --target-cpu also builds ours for that CPU (`-Xswiftc -target-cpu -Xswiftc CPU`, e.g.
# znver5 or haswell; `native` picks this machine's) into .build-tuned, as a "tuned" column
# run with the --tuned-env variables. The default build targets baseline x86-64 (SSE2).
# A second table compares load time and memory with LiteRT + XNNPACK.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${BENCH_MODELS:-$root/Benchmarks/models}"
rounds=3 seconds=0.6 threads="1 2" models=() ours_env=() ours_arg=() target_cpu="" tuned_env=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --ours-env) ours_env+=("$2"); shift 2 ;;
    --ours-arg) ours_arg+=("--ours-arg=$2"); shift 2 ;;
    --target-cpu) target_cpu="$2"; shift 2 ;;
    --tuned-env) tuned_env+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) models+=("$1"); shift ;;
  esac
done

python="$("$root/scripts/fixtures/venv.sh")"
echo "building tflite (release)..." >&2
swift build -c release --product tflite --package-path "$root" >&2
binary="$(swift build -c release --product tflite --package-path "$root" --show-bin-path)/tflite"

if [ ${#models[@]} -eq 0 ]; then
  "$python" "$root/scripts/bench/make_models.py" "$cache"
  models=(
    "$cache/mobilenet_v1_float.tflite" "$cache/mobilenet_v2_float.tflite"
    "$cache/mobilenet_v1_int8.tflite" "$cache/mobilenet_v2_int8.tflite"
    "$cache/mobilenet_v1_uint8.tflite" "$cache/mobilenet_v2_uint8.tflite"
    "$cache/ssd_mobilenet_v2_320_float.tflite" "$cache/ssd_mobilenet_v2_320_uint8.tflite"
    "$cache/ssd_mobilenet_v2_320_int8.tflite"
    "$cache/kws_lstm_float.tflite" "$cache/kws_lstm_hybrid.tflite" "$cache/kws_lstm_int8.tflite"
    "$cache/text_lstm_float.tflite" "$cache/text_lstm_hybrid.tflite" "$cache/text_lstm_int8.tflite"
    "$cache/kws_svdf_float.tflite" "$cache/kws_svdf_int8.tflite"
    "$root/Fixtures/models/face_detection_short_range.tflite"
    "$root/Fixtures/models/face_detection_full_range.tflite"
    "$root/Fixtures/models/ssd_postprocess.tflite"
  )
fi
mkdir -p "$cache"
extra=()
if [ ${#ours_env[@]} -gt 0 ]; then extra=(--ours-env "${ours_env[@]}"); fi
extra+=("${ours_arg[@]}")
if [ -n "$target_cpu" ]; then
  if [ "$target_cpu" = native ]; then
    # LLVM's name for this host's CPU, as clang resolves -march=native.
    target_cpu="$(echo 'int main(){}' | clang -march=native -x c - -### 2>&1 | sed -n 's/.*"-target-cpu" "\([^"]*\)".*/\1/p' | head -n 1)"
    [ -n "$target_cpu" ] || { echo "could not resolve --target-cpu native" >&2; exit 2; }
  fi
  echo "building tflite (release, -target-cpu $target_cpu)..." >&2
  tuned_flags=(-c release --product tflite --package-path "$root" --scratch-path "$root/.build-tuned"
               -Xswiftc -target-cpu -Xswiftc "$target_cpu")
  swift build "${tuned_flags[@]}" >&2
  extra+=(--tuned-binary "$(swift build "${tuned_flags[@]}" --show-bin-path)/tflite")
  if [ ${#tuned_env[@]} -gt 0 ]; then extra+=(--tuned-env "${tuned_env[@]}"); fi
  echo "tuned build: -target-cpu $target_cpu" >&2
fi
# shellcheck disable=SC2086
exec "$python" "$root/scripts/bench/compare.py" "$binary" "${models[@]}" \
  --threads $threads --rounds "$rounds" --seconds "$seconds" --json "$cache/last-compare.json" "${extra[@]}"
