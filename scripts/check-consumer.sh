#!/usr/bin/env bash
# Builds and runs a throwaway package that uses swift-tflite the way an application
# does: as a versioned git dependency (`from:`), not a path one. SwiftPM treats the two
# differently: only a versioned dependency is checked for unsafe build flags (the AVX2
# target's `-m` flags are accepted there only from tools version 6.2 on), and only it
# exercises the tag lookup and clone a consumer's resolution does. This builds from the
# committed HEAD (uncommitted changes are not part of what a consumer would get).
#
#   scripts/check-consumer.sh          # offline: the dependency is a file:// git URL
#
# Fails (non-zero) when the dependency does not resolve at the tag, does not build, its
# products pull in another Swift package, or the bundled int8 model does not run with
# identical outputs at every kernel level.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
model="$root/Fixtures/models/mobilenet_int8.tflite"
tag="9.9.9"
start=$SECONDS

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tflite-consumer.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "check-consumer: note: uncommitted changes are not checked (the consumer gets HEAD)" >&2
fi
head="$(git -C "$root" rev-parse HEAD)"

# (a) The project as a consumer sees it: a git repository with a release tag.
# HEAD is fetched by name as well, in case it is detached (then no branch reaches it).
git clone --quiet --no-checkout "$root" "$tmp/swift-tflite"
git -C "$tmp/swift-tflite" fetch --quiet "$root" HEAD
git -C "$tmp/swift-tflite" -c user.name=check -c user.email=check@localhost \
  tag -a "$tag" -m "consumer check" "$head"

# (b) The consumer: its own manifest at the tools version the library needs, and a
# program that goes only through the public `TensorFlowLite` product.
mkdir -p "$tmp/consumer/Sources/Consumer"
cat > "$tmp/consumer/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(url: "file://$tmp/swift-tflite", from: "9.9.0"),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "TensorFlowLite", package: "swift-tflite")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat > "$tmp/consumer/Sources/Consumer/main.swift" <<'EOF'
import Foundation
import TensorFlowLite

/// Runs the int8 model given as the argument at `level` on a fixed input and returns the
/// output tensor.
func run(modelPath: String, level: Interpreter.Options.KernelLevel) throws -> Tensor {
    var options = Interpreter.Options()
    options.kernelLevel = level
    let interpreter = try Interpreter(modelPath: modelPath, options: options)
    try interpreter.allocateTensors()
    let input = try interpreter.input(at: 0)
    guard input.dataType == .int8 else { throw Failure("expected an int8 input, got \(input.dataType)") }
    let count = input.shape.dimensions.reduce(1, *)
    // A fixed pattern covering the whole int8 range, so that every run sees the same bytes.
    let bytes = (0 ..< count).map { UInt8(truncatingIfNeeded: ($0 &* 37) % 251) }
    try interpreter.copy(Data(bytes), toInputAt: 0)
    try interpreter.invoke()
    return try interpreter.output(at: 0)
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    guard CommandLine.arguments.count == 2 else { throw Failure("usage: Consumer MODEL.tflite") }
    let path = CommandLine.arguments[1]
    var first: Tensor?
    for level in Interpreter.Options.KernelLevel.allCases {
        let output = try run(modelPath: path, level: level)
        guard output.dataType == .int8, let q = output.quantizationParameters else {
            throw Failure("expected a quantized int8 output, got \(output.dataType)")
        }
        let codes = output.data.map { Int8(bitPattern: $0) }
        let probabilities = codes.map { Float(Int($0) - q.zeroPoint) * q.scale }
        print("\(level): output \(output.shape.dimensions) codes \(codes)")
        // The model ends in SOFTMAX: its dequantized outputs must sum to 1, give or take
        // half a code per class.
        let sum = probabilities.reduce(0, +)
        guard abs(sum - 1) <= Float(codes.count) * q.scale else {
            throw Failure("softmax outputs sum to \(sum), not 1")
        }
        // Every level promises the same 8-bit outputs; a level that is not compiled or
        // dispatched correctly in a dependency build shows up here.
        if let first, first.data != output.data {
            throw Failure("\(level) output differs from \(Interpreter.Options.KernelLevel.allCases[0])'s")
        }
        first = first ?? output
    }
    print("ok: \(path) ran at every kernel level with identical outputs")
} catch {
    FileHandle.standardError.write(Data("Consumer: error: \(error)\n".utf8))
    exit(1)
}
EOF

cd "$tmp/consumer"
# SwiftPM leaves lock files named after the package in TMPDIR: keep them in here too.
mkdir -p "$tmp/tmp"
export TMPDIR="$tmp/tmp"
# Caches inside the temporary directory: nothing outside it keeps the throwaway URL.
spm=(--cache-path "$tmp/cache" --disable-dependency-cache --manifest-cache local)

# (d) The library's products must not bring any other Swift package along.
deps="$(swift package "${spm[@]}" show-dependencies --format text)"
echo "$deps"
listed="$(grep -c '<' <<<"$deps" || true)"
if [ "$listed" != 1 ] || ! grep -q "swift-tflite<[^>]*@$tag>" <<<"$deps"; then
  echo "check-consumer: expected exactly one dependency, swift-tflite at $tag" >&2
  exit 1
fi

# (c) Build (debug) and run.
# The log is shown only on failure: a dependency's progress lines would bury the result.
if ! swift build "${spm[@]}" > "$tmp/build.log" 2>&1; then
  cat "$tmp/build.log" >&2
  echo "check-consumer: the consumer did not build" >&2
  exit 1
fi
tail -n 1 "$tmp/build.log"
"$(swift build "${spm[@]}" --show-bin-path)/Consumer" "$model"
echo "check-consumer: passed in $((SECONDS - start)) s (swift-tflite $head tagged $tag)"
