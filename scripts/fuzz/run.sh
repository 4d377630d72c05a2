#!/usr/bin/env bash
# Builds one fuzz target with libFuzzer + AddressSanitizer and runs it.
#
#   scripts/fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   scripts/fuzz/run.sh TARGET replay FILE...      # run single inputs (e.g. a crash artifact)
#
# TARGET is one of: model-load, model-invoke, flexbuffer, png, npy, bundle-files.
# Build products and the growing corpus live in .build-fuzz/ (gitignored):
#   .build-fuzz/corpus/TARGET     inputs libFuzzer found interesting (not committed)
#   .build-fuzz/artifacts/TARGET  crash-*, leak-*, timeout-*, oom-* inputs
#   .build-fuzz/logs/TARGET.log   the full libFuzzer output
# Seeds (read-only): the model targets take Fixtures/models/*.tflite, the bundle models
# and a sample of the conformance models (copied to .build-fuzz/seeds, below); png takes
# the PNGs of Fixtures/vision; bundle-files the JSON and dict.txt files of
# Fixtures/bundles; the others Fuzz/seeds/TARGET. All also take the regression corpus
# Tests/FuzzRegressions/TARGET. A crash input, once the bug is fixed, is
# minimized (-minimize_crash=1) and committed to Tests/FuzzRegressions/TARGET, which
# `swift test` replays (ReliabilityTests).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
target="${1:?usage: scripts/fuzz/run.sh TARGET SECONDS|replay [args...]}"
mode="${2:?usage: scripts/fuzz/run.sh TARGET SECONDS|replay [args...]}"
shift 2

seeds=()
case "$target" in
  model-load)
    product=FuzzModelLoad; dict=model; max_len=262144
    seeds=("$root/.build-fuzz/seeds/models-all") ;;
  model-invoke)
    product=FuzzModelInvoke; dict=model; max_len=65536
    seeds=("$root/.build-fuzz/seeds/models-small") ;;
  flexbuffer)
    product=FuzzFlexBuffer; dict=flexbuffer; max_len=4096
    seeds=("$root/Fuzz/seeds/flexbuffer") ;;
  png)
    product=FuzzPNG; dict=png; max_len=4096
    seeds=("$root/.build-fuzz/seeds/png") ;;
  npy)
    product=FuzzNPY; dict=npy; max_len=4096
    seeds=("$root/Fuzz/seeds/npy") ;;
  bundle-files)
    product=FuzzBundleFiles; dict=bundle-files; max_len=4096
    seeds=("$root/.build-fuzz/seeds/bundle-files" "$root/Fuzz/seeds/bundle-files") ;;
  *) echo "unknown target '$target' (model-load, model-invoke, flexbuffer, png, npy, bundle-files)" >&2; exit 2 ;;
esac

scratch="$root/.build-fuzz"
# `--sanitize=fuzzer --sanitize=address` makes SwiftPM link the executables with
# libFuzzer's `main`; SwiftPM passes them to swiftc as two flags, though, and with
# Swift 6.3 the later replaces the earlier at compile time, leaving the code without
# coverage instrumentation ("no interesting inputs were found"). The combined
# `-Xswiftc -sanitize=fuzzer,address`, which comes last, instruments it.
# SwiftPM keeps this package's build plan when only the library (a path dependency) gains
# a source file, and then fails to find the new file's types (seen with Swift 6.3.1):
# dropping the plan makes it rescan the sources, for a few seconds.
rm -f "$scratch/build/debug.yaml" "$scratch/build/debug/description.json"
swift build -c debug --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
  --package-path "$root/Fuzz" --scratch-path "$scratch/build" --product "$product" >&2
binary="$scratch/build/debug/$product"

# Model seeds: the fixture models and the bundle models up to model-load's max_len (the
# 1 MB full-range face detector is left out); for invoking only those up to 64 KB (the
# face detectors and the shapes detector take seconds per run under ASan, which would
# starve the mutator). Both also get a sample of the conformance models: per operator,
# the first uint8, the first int8 and the first other case, so the quantized kernels and
# the detection post-process are reached from the start.
rm -rf "$scratch/seeds/models-all" "$scratch/seeds/models-small" "$scratch/seeds/png" "$scratch/seeds/bundle-files"
mkdir -p "$scratch/seeds/models-all" "$scratch/seeds/models-small" "$scratch/seeds/png" "$scratch/seeds/bundle-files"
add_model_seed() { # FILE NAME
  local size; size="$(wc -c < "$1")"
  if [ "$size" -le 262144 ]; then cp -f "$1" "$scratch/seeds/models-all/$2"; fi
  if [ "$size" -le 65536 ]; then cp -f "$1" "$scratch/seeds/models-small/$2"; fi
}
for m in "$root"/Fixtures/models/*.tflite; do add_model_seed "$m" "$(basename "$m")"; done
# One tiny model per MediaPipe custom operator (scripts/fuzz/make_mediapipe_seeds.py).
for m in "$root"/Fuzz/seeds/models-mediapipe/*.tflite; do add_model_seed "$m" "$(basename "$m")"; done
# Tiny models with STRING tensors, hash tables and the Smart Reply operators
# (scripts/fuzz/make_text_seeds.py).
for m in "$root"/Fuzz/seeds/models-text/*.tflite; do add_model_seed "$m" "$(basename "$m")"; done
# The classifier with TFLite metadata seeds the metadata decoding that model-load runs too.
add_model_seed "$root/Fixtures/vision/mobilenet_float_metadata.tflite" "mobilenet_float_metadata.tflite"
for m in "$root"/Fixtures/bundles/*/model.tflite; do add_model_seed "$m" "bundle-$(basename "$(dirname "$m")").tflite"; done
shopt -s nullglob
for op in "$root"/Fixtures/conformance/*/; do
  for pattern in 'u8_*' 'i8_*' '[!ui]*'; do
    matches=("$op"$pattern/model.tflite) # sorted by the glob
    if [ "${#matches[@]}" -gt 0 ]; then
      add_model_seed "${matches[0]}" "conformance-$(basename "$op")-$(basename "$(dirname "${matches[0]}")").tflite"
    fi
  done
done
# The whole models: the audio classifiers (framing, RFFT2D and complex tensors in one
# graph), and those with loops, branches, variables, signatures and recurrent state.
for m in "$root"/Fixtures/conformance/models/*/*/model.tflite; do
  add_model_seed "$m" "conformance-$(basename "$(dirname "$(dirname "$m")")")-$(basename "$(dirname "$m")").tflite"
done
shopt -u nullglob
cp -f "$root"/Fixtures/vision/*.png "$scratch/seeds/png/"
for f in "$root"/Fixtures/bundles/*/*.json "$root"/Fixtures/bundles/*/dict.txt; do
  cp -f "$f" "$scratch/seeds/bundle-files/$(basename "$(dirname "$f")")-$(basename "$f")"
done

regressions="$root/Tests/FuzzRegressions/$target"
corpus="$scratch/corpus/$target"
artifacts="$scratch/artifacts/$target"
mkdir -p "$corpus" "$artifacts" "$scratch/logs" "$regressions"

# Swift's runtime keeps metadata caches alive for the process lifetime; they are
# reachable, so LeakSanitizer reports only real leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}"

if [ "$mode" = replay ]; then
  exec "$binary" -rss_limit_mb=2048 -timeout=30 "$@"
fi

seconds="$mode"
log="$scratch/logs/$target.log"
echo "fuzzing $target for ${seconds}s; log: $log" >&2
set +e
"$binary" "$corpus" "${seeds[@]}" "$regressions" \
  -dict="$root/Fuzz/dict/$dict.dict" -max_len="$max_len" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$log" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|stat::|Done" | tail -n 40
status=${PIPESTATUS[0]}
set -e
echo "exit status $status; artifacts: $(ls "$artifacts" | wc -l) in $artifacts" >&2
exit "$status"
