#!/usr/bin/env bash
# Type-checks, on this x86-64 machine, the aarch64 branches of the sources that only an
# aarch64 build compiles: the runtime's calls into the aarch64 kernel levels
# (`#if arch(arm64)` in Sources/TFLiteRuntime) and the Swift Testing front of the aarch64
# kernel checks (Tests/MicrokernelsTests/ARMKernelTests.swift with ARM/). The toolchain
# cannot build the package for aarch64 (it ships no aarch64 Linux standard library), and
# the kernel modules themselves are compiled and run under emulation by
# scripts/test-arm-kernels.sh; what is left is that the callers agree with the kernels'
# signatures. So: stub modules declare the aarch64 levels' entry points (each `public func`
# of Sources/Microkernels/{NEON,DotProd,I8MM}, with an empty body), the sources are copied
# with `arch(arm64)` true and `arch(x86_64)` false, and they are type-checked against the
# stubs and the modules of the last x86-64 debug build (`swift build --build-tests`).
#
#   scripts/typecheck-arm-sources.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
start=$SECONDS
bin="$(swift build --show-bin-path)"
[ -d "$bin/Modules" ] && [ -f .build/debug.yaml ] || { echo "typecheck-arm-sources: run swift build --build-tests first" >&2; exit 1; }
out="$(mktemp -d "${TMPDIR:-/tmp}/arm-typecheck.XXXXXX")"
trap 'rm -rf "$out"' EXIT

# The flags SwiftPM gave the runtime's compile that the copies need too: clang modules
# (CPU features, OpenBLAS) and the package name (`package` declarations).
mapfile -t clang_flags < <(python3 - <<'PY'
import json
lines = open(".build/debug.yaml").read().splitlines()
for i, line in enumerate(lines):
    if line.strip().startswith('"C.TFLiteRuntime-') and line.strip().endswith('-debug.module":'):
        args = next(json.loads(l.strip()[len("args: "):]) for l in lines[i:] if l.strip().startswith("args: "))
        break
for i, a in enumerate(args):
    if a == "-Xcc" and args[i + 1].startswith("-fmodule-map-file="):
        print("-Xcc"); print(args[i + 1])
    elif a.startswith("-I") and a != "-I":
        print(a)
    elif a == "-package-name":
        print(a); print(args[i + 1])
PY
)

# The stubs: every public entry point of the aarch64 level modules, body removed.
mkdir -p "$out/stubs"
for level in NEON DotProd I8MM; do
  python3 - "Sources/Microkernels/$level" > "$out/stubs/Microkernels$level.swift" <<'PY'
import pathlib, re, sys
print("import Microkernels\n")
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.swift")):
    text = path.read_text()
    # `@export(interface) @inline(never)` entry points: their signature up to the body.
    for match in re.finditer(r"@export\(interface\) @inline\(never\)\n(public func [^{]*?\))\s*\{", text, re.S):
        print(match.group(1) + " {}\n")
PY
  swiftc -parse-as-library -swift-version 6 -I "$bin/Modules" "${clang_flags[@]}" -module-name "Microkernels$level" -emit-module \
    -emit-module-path "$out/stubs/Microkernels$level.swiftmodule" "$out/stubs/Microkernels$level.swift"
done

# sources DIR...: copies of the Swift files with the aarch64 branches on.
sources() {
  local file copy
  for file in "$@"; do
    copy="$out/src/$file"
    mkdir -p "$(dirname "$copy")"
    sed -e 's/arch(x86_64)/TYPECHECK_X86_64/g' -e 's/arch(arm64)/TYPECHECK_ARM64/g' "$file" > "$copy"
    echo "$copy"
  done
}
typecheck() { # NAME FILES...
  local name="$1"; shift
  if swiftc -typecheck -parse-as-library -swift-version 6 -D TYPECHECK_ARM64 -I "$out/stubs" -I "$bin/Modules" \
    "${clang_flags[@]}" -module-name "$name" "$@" > "$out/$name.log" 2>&1 && [ ! -s "$out/$name.log" ]; then
    echo "ok    $name with its aarch64 branches"
  else
    cat "$out/$name.log" >&2
    echo "typecheck-arm-sources: $name FAILED" >&2
    exit 1
  fi
}
mapfile -t runtime < <(sources $(find Sources/TFLiteRuntime -name '*.swift' | sort))
typecheck TFLiteRuntime "${runtime[@]}"
mapfile -t tests < <(sources Tests/MicrokernelsTests/KernelCases.swift Tests/MicrokernelsTests/ARMKernelTests.swift \
  Tests/MicrokernelsTests/ARM/*.swift)
typecheck MicrokernelsTests "${tests[@]}"
echo "typecheck-arm-sources: passed in $((SECONDS - start)) s"
