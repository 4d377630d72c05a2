#!/usr/bin/env bash
# Builds the aarch64 microkernels (Sources/Microkernels/{Portable,NEON,DotProd,I8MM}) and
# their checks (Tests/MicrokernelsTests/ARM, against the reference loops and cases of
# Tests/MicrokernelsTests/KernelCases.swift) as one Embedded Swift program for aarch64
# Linux, with the flags Package.swift gives each target, and runs it under qemu-user for
# CPU models at each level:
#
#   cortex-a72    neon      (ARMv8.0: no dot product)
#   cortex-a76    dotprod   (ARMv8.2 + SDOT/UDOT)
#   neoverse-n1   dotprod
#   max           i8mm      (every extension qemu has, SMMLA/UMMLA among them)
#
# Each run first checks that the level detected from the emulated CPU's hardware
# capabilities (getauxval) is the model's, then runs every check that level allows. Probes
# then run one dot-product and one matrix-multiply kernel on the models without them,
# which must stop on SIGILL: the emulated CPUs really lack what detection says they lack.
#
#   scripts/test-arm-kernels.sh            # needs qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
#
# The toolchain has no aarch64 Linux standard library, but it has Embedded Swift's for
# aarch64-none-none-elf, which the kernels (raw pointers and SIMD types) need no more of;
# clang sees an aarch64 Linux target (`--target`, the cross glibc headers) so that the
# detection shim takes its Linux path, and the objects link with the cross gcc.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
start=$SECONDS
for tool in swiftc aarch64-linux-gnu-gcc qemu-aarch64 python3; do
  command -v "$tool" >/dev/null || {
    echo "test-arm-kernels: $tool not found (apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2
    exit 1
  }
done
sysroot=/usr/aarch64-linux-gnu
[ -f "$sysroot/include/sys/auxv.h" ] || { echo "test-arm-kernels: $sysroot headers missing (libc6-dev-arm64-cross)" >&2; exit 1; }
embedded_lib="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift/embedded/aarch64-none-none-elf"

out="$(mktemp -d "${TMPDIR:-/tmp}/arm-kernels.XXXXXX")"
trap 'rm -rf "$out"' EXIT

# Each level target's manifest flags (tab-separated: name, directory, flags).
declare -A dir flags
while IFS=$'\t' read -r name path rest; do
  dir[$name]="$path"
  flags[$name]="$rest"
done < <(swift package dump-package | python3 scripts/level-target-flags.py)

swift_aarch64=(
  swiftc -target aarch64-none-none-elf -enable-experimental-feature Embedded -wmo -parse-as-library -O
  -swift-version 6 -Xcc --target=aarch64-unknown-linux-gnu -Xcc -isystem -Xcc "$sysroot/include"
  -I Sources/CPUFeatures -I "$out"
)
# module NAME SOURCES... : compiles one module (its manifest flags, if it is a level target).
module() {
  local name="$1"; shift
  local -a extra=()
  [ -n "${flags[$name]:-}" ] && IFS=$'\t' read -r -a extra <<<"${flags[$name]}"
  "${swift_aarch64[@]}" "${extra[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    "$@" -c -o "$out/$name.o"
}
echo "== building the aarch64 kernels and their checks (Embedded Swift)"
module SeededRandom Tests/Support/SeededRandom/*.swift
for target in Microkernels MicrokernelsNEON MicrokernelsDotProd MicrokernelsI8MM; do
  module "$target" "${dir[$target]}"/*.swift
done
module ARMKernelChecks Tests/MicrokernelsTests/KernelCases.swift Tests/MicrokernelsTests/ARM/*.swift \
  Tests/MicrokernelsEmbedded/main.swift
# A non-PIE link fails on a protected symbol of the Embedded runtime: static PIE.
aarch64-linux-gnu-gcc -fPIE -static-pie "$out"/*.o "$embedded_lib/libswiftUnicodeDataTables.a" -lm -o "$out/arm-kernel-checks"
echo "built in $((SECONDS - start)) s"

status=0
# run MODEL LEVEL
run() {
  local t0=$SECONDS
  echo "== qemu-aarch64 -cpu $1 (expected level: $2)"
  if EXPECT_KERNEL_LEVEL="$2" qemu-aarch64 -cpu "$1" "$out/arm-kernel-checks"; then
    echo "-- $1: passed in $((SECONDS - t0)) s"
  else
    echo "-- $1: FAILED" >&2
    status=1
  fi
}
run cortex-a72 neon
run cortex-a76 dotprod
run neoverse-n1 dotprod
run max i8mm

# probe MODEL LEVEL WANT: runs one kernel of LEVEL; WANT is "sigill" or "pass".
probe() {
  local code
  # In a subshell with its stderr dropped, so that the shell's "Illegal instruction" line
  # for an expected SIGILL stays out of the log.
  code=$( (ARM_KERNEL_PROBE="$2" qemu-aarch64 -cpu "$1" "$out/arm-kernel-checks" >/dev/null 2>&1; echo $?) 2>/dev/null)
  # 132 = 128 + SIGILL (4).
  if { [ "$3" = sigill ] && [ $code -eq 132 ]; } || { [ "$3" = pass ] && [ $code -eq 0 ]; }; then
    echo "probe: $2 kernel on $1: $3, as expected"
  else
    echo "probe: $2 kernel on $1 exited $code, expected $3" >&2
    status=1
  fi
}
probe cortex-a72 dotprod sigill
probe cortex-a76 i8mm sigill
probe cortex-a76 dotprod pass
probe max i8mm pass

echo "test-arm-kernels: $([ $status -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit $status
