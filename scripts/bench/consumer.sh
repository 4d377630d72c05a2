#!/usr/bin/env bash
# What an application that depends on swift-tflite pays and gets, measured on a throwaway
# consumer package: a tagged clone of this repository as a versioned dependency (`from:`,
# a file:// URL, as scripts/check-consumer.sh does) and a program that runs models through
# `Interpreter` (`import TensorFlowLite`).
#
#   scripts/bench/consumer.sh [--rev REV] [--rounds N] [--build-rounds N] [--seconds S]
#                             [--no-builds] [--keep DIR] [MODEL.tflite ...]
#
# Prints, with the load average before and after each step:
# - what `swift package resolve` fetches: the packages, the bytes of the clone SwiftPM
#   keeps and of the checkout, and the checkout's largest folders;
# - clean build times of the consumer, debug and release, alternately, --build-rounds
#   times (default 1): wall clock, and CPU time (user + system), which depends far less
#   on what else the machine runs;
# - the release binary's size, as built and stripped;
# - milliseconds per invoke (median and minimum; at least 3 invokes and --seconds
#   seconds, default 3, after one warm-up) of each model in the debug and the release
#   build, alternately, --rounds times (default 3), and debug / release.
# REV (default HEAD) is the commit tagged; uncommitted changes are not part of it.
# TFLITE_ENGINE_ONONE=1 in the environment reaches the dependency's manifest and builds
# its engine unoptimized in debug (Package.swift), the configuration before the engine was
# compiled optimized in debug. The default models are MobileNet v2 224 float32 and int8
# from Benchmarks/models/ (made by scripts/bench/make_models.py, with the fixture venv,
# when missing). --keep DIR leaves the consumer package there.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rev=HEAD rounds=3 build_rounds=1 seconds=3 builds=1 keep="" models=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --build-rounds) build_rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --no-builds) builds=0; shift ;;
    --keep) keep="$2"; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) models+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"); shift ;;
  esac
done
if [ ${#models[@]} -eq 0 ]; then
  cache="${BENCH_MODELS:-$root/Benchmarks/models}"
  models=("$cache/mobilenet_v2_float.tflite" "$cache/mobilenet_v2_int8.tflite")
  if [ ! -f "${models[0]}" ] || [ ! -f "${models[1]}" ]; then
    python="$("$root/scripts/fixtures/venv.sh")"
    "$python" "$root/scripts/bench/make_models.py" "$cache" >&2
  fi
fi
load() { cut -d' ' -f1-3 /proc/loadavg; }

if [ -n "$keep" ]; then
  rm -rf "$keep"; mkdir -p "$keep"; tmp="$(cd "$keep" && pwd)"
else
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/tflite-consumer-bench.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
fi
commit="$(git -C "$root" rev-parse "$rev")"
tag=9.9.9
# Only REV's history, as a published repository's main branch would hold (a clone of this
# one would also carry every local branch).
git init --quiet "$tmp/swift-tflite"
git -C "$tmp/swift-tflite" fetch --quiet "$root" "$commit"
git -C "$tmp/swift-tflite" -c user.name=bench -c user.email=bench@localhost tag -a "$tag" -m bench "$commit"

mkdir -p "$tmp/consumer/Sources/Consumer"
cat > "$tmp/consumer/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(url: "file://$tmp/swift-tflite", from: "9.9.0")],
    targets: [
        .executableTarget(name: "Consumer", dependencies: [.product(name: "TensorFlowLite", package: "swift-tflite")])
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat > "$tmp/consumer/Sources/Consumer/main.swift" <<'EOF'
import Foundation
import TensorFlowLite

/// Milliseconds per invoke of the model at `path` (one thread, default options): one
/// warm-up, then at least 3 invokes and `seconds` seconds. Inputs are a fixed pattern.
func measure(_ path: String, seconds: Double) throws -> [Double] {
    let interpreter = try Interpreter(modelPath: path)
    try interpreter.allocateTensors()
    for index in 0 ..< interpreter.inputTensorCount {
        let input = try interpreter.input(at: index)
        let count = input.data.count
        if input.dataType == .float32 {
            let values = (0 ..< count / 4).map { Float(($0 &* 37) % 255) / 127.5 - 1 }
            try interpreter.copy(values.withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: index)
        } else {
            try interpreter.copy(Data((0 ..< count).map { UInt8(truncatingIfNeeded: ($0 &* 37) % 251) }), toInputAt: index)
        }
    }
    try interpreter.invoke()
    var times: [Double] = []
    let clock = ContinuousClock()
    let start = clock.now
    while times.count < 3 || clock.now - start < .milliseconds(Int(seconds * 1000)) {
        let t0 = clock.now
        try interpreter.invoke()
        let elapsed = clock.now - t0
        times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15)
    }
    return times.sorted()
}

var arguments = Array(CommandLine.arguments.dropFirst())
let seconds = Double(arguments.removeFirst()) ?? 3
do {
    for path in arguments {
        let times = try measure(path, seconds: seconds)
        print(URL(fileURLWithPath: path).lastPathComponent, times[times.count / 2], times[0], times.count)
    }
} catch {
    FileHandle.standardError.write(Data("Consumer: error: \(error)\n".utf8))
    exit(1)
}
EOF

cd "$tmp/consumer"
mkdir -p "$tmp/tmp"
export TMPDIR="$tmp/tmp"
spm=(--cache-path "$tmp/cache" --disable-dependency-cache --manifest-cache local)
echo "swift-tflite $commit ($(git -C "$root" log -1 --format=%s "$commit" | cut -c1-60)) tagged $tag; $(swift --version 2>&1 | head -n 1)"
echo "TFLITE_ENGINE_ONONE=${TFLITE_ENGINE_ONONE:-} ; $(nproc) cores"
echo

# What resolving fetches.
echo "## swift package resolve (load $(load))"
t0=$(date +%s.%N)
swift package "${spm[@]}" resolve > "$tmp/resolve.log" 2>&1 || { cat "$tmp/resolve.log" >&2; exit 1; }
t1=$(date +%s.%N)
swift package "${spm[@]}" show-dependencies --format text | sed -n '2,$p'
printf 'resolve: %.1f s (from a local file:// URL: bytes, not network time)\n' "$(echo "$t1 - $t0" | bc)"
printf 'repository clone (.build/repositories): %s\n' "$(du -sh .build/repositories | cut -f1)"
printf 'checkout (.build/checkouts): %s in %s files\n' "$(du -sh .build/checkouts | cut -f1)" \
  "$(find .build/checkouts -type f -not -path '*/.git/*' | wc -l)"
echo "largest folders of the checkout:"
(cd .build/checkouts/swift-tflite && du -s --block-size=1K -- */ .git 2>/dev/null | sort -rn | head -n 6 |
  awk '{ printf "  %-24s %7.1f MB\n", $2, $1 / 1024 }')
echo

triple_dir() { swift build "${spm[@]}" -c "$1" --show-bin-path; }
# clean_build CONFIG: a build from nothing but the resolved checkout; prints one row.
clean_build() {
  local config="$1" bin log="$tmp/build-$1.log" before after
  bin="$(triple_dir "$config")"
  rm -rf "$bin" "$(dirname "$bin")/$config.yaml" ".build/$config.yaml"
  before="$(load)"
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" swift build "${spm[@]}" -c "$config" > "$log" 2>&1 ||
    { cat "$log" >&2; exit 1; }
  after="$(load)"
  read -r wall user sys < "$tmp/time"
  printf '| %s | %.0f | %.0f | %s | %s | %s |\n' "$config" "$wall" "$(echo "$user + $sys" | bc)" \
    "$(grep -c '^remark:' "$log" || true)" "$before" "$after"
}
if [ $builds -eq 1 ]; then
  echo "## clean builds of the consumer"
  echo "| configuration | wall s | CPU s (user + sys) | driver remarks | load before | load after |"
  echo "|---|---:|---:|---:|---|---|"
  for ((i = 0; i < build_rounds; i++)); do
    if ((i % 2 == 0)); then clean_build debug; clean_build release; else clean_build release; clean_build debug; fi
  done
  echo
else
  swift build "${spm[@]}" -c debug > "$tmp/build-debug.log" 2>&1 || { cat "$tmp/build-debug.log" >&2; exit 1; }
  swift build "${spm[@]}" -c release > "$tmp/build-release.log" 2>&1 || { cat "$tmp/build-release.log" >&2; exit 1; }
fi
debug="$(triple_dir debug)/Consumer" release="$(triple_dir release)/Consumer"

echo "## release binary"
strip -o "$tmp/Consumer.stripped" "$release"
printf 'as built: %.1f MB; stripped: %.1f MB; shared libraries: %s\n' \
  "$(echo "$(stat -c %s "$release") / 1048576" | bc -l)" "$(echo "$(stat -c %s "$tmp/Consumer.stripped") / 1048576" | bc -l)" \
  "$(ldd "$release" | awk '{print $1}' | grep -vE '^(linux-vdso|/lib64/ld-linux)' | sed 's/\.so.*//' | sort | tr '\n' ' ')"
echo

echo "## ms per invoke, debug and release alternately"
echo "| round | model | debug median | debug min | release median | release min | debug / release (median) | load |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
: > "$tmp/ratios.txt"
for ((r = 1; r <= rounds; r++)); do
  "$debug" "$seconds" "${models[@]}" > "$tmp/debug.txt"
  "$release" "$seconds" "${models[@]}" > "$tmp/release.txt"
  paste -d' ' "$tmp/debug.txt" "$tmp/release.txt" | while read -r name dmed dmin _ _ rmed rmin _; do
    ratio="$(echo "$dmed / $rmed" | bc -l)"
    echo "$name $ratio" >> "$tmp/ratios.txt"
    printf '| %d | %s | %.1f | %.1f | %.1f | %.1f | %.2f | %s |\n' "$r" "$name" "$dmed" "$dmin" "$rmed" "$rmin" \
      "$ratio" "$(load)"
  done
done
echo
# The rounds' median ratio per model: the load falls on both builds of a round alike.
echo "## debug / release, median of the rounds"
sort -k1,1 -k2,2g "$tmp/ratios.txt" | awk '
  { v[$1, ++n[$1]] = $2 }
  END { for (m in n) printf "%s: %.2f\n", m, v[m, int((n[m] + 1) / 2)] }' | sort
