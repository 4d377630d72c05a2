#!/usr/bin/env bash
# Checks that Package.swift's kernel level targets (Microkernels*) build for any target
# from any host: every target's sources are compiled with the flags the manifest gives
# them, in a release and in a debug build (which adds the engine's optimization), for
# aarch64 (Embedded Swift, whose standard library the toolchain has for
# aarch64-none-none-elf) and for x86-64, whichever level they belong to (a level's sources
# are empty on the other architecture, its flags are not). Then clang, given each target's
# -Xcc flags, must turn on exactly that level's features, quietly, for the Linux, Android
# and Apple triples of both architectures (Apple spells aarch64 `arm64`).
# Fails on any error, and on any diagnostic at all: a flag that reaches the wrong
# architecture shows up as one.
#
#   scripts/check-level-flags.sh         # needs libc6-dev-arm64-cross (aarch64 headers)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
start=$SECONDS
sysroot=/usr/aarch64-linux-gnu
[ -f "$sysroot/include/sys/auxv.h" ] || { echo "check-level-flags: $sysroot headers missing (libc6-dev-arm64-cross)" >&2; exit 1; }
clang="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang"

out="$(mktemp -d "${TMPDIR:-/tmp}/level-flags.XXXXXX")"
trap 'rm -rf "$out"' EXIT

declare -A dir flags
targets=()
manifest="$(swift package dump-package)"
for config in release debug; do
  while IFS=$'\t' read -r name path rest; do
    [ "$config" = release ] && targets+=("$name")
    dir[$name]="$path"
    flags[$config.$name]="$rest"
  done < <(python3 scripts/level-target-flags.py "$config" <<<"$manifest")
done
[ ${#targets[@]} -ge 6 ] || { echo "check-level-flags: expected the portable and five level targets" >&2; exit 1; }

failed=0
# compile CONFIG ARCH TARGET: the target's sources with its manifest flags in that build
# configuration (on top of -Onone, as SwiftPM's debug builds); must print nothing. The
# objects go one per source file, as SwiftPM's output file map has them (multi-threaded
# whole-module builds, `-num-threads`, write no single object); the map's module entry ("")
# places the single object of a release build's whole-module compile, which would
# otherwise land in the current directory.
compile() {
  local config="$1" arch="$2" name="$3" log="$out/$1-$2-$3.log"
  local -a cmd extra=()
  [ -n "${flags[$config.$name]}" ] && IFS=$'\t' read -r -a extra <<<"${flags[$config.$name]}"
  mkdir -p "$out/$arch" "$out/$config-$arch-$name"
  python3 -c 'import json, os, sys
m = {f: {"object": os.path.join(sys.argv[1], os.path.basename(f) + ".o")} for f in sys.argv[2:]}
m[""] = {"object": os.path.join(sys.argv[1], "module.o")}
print(json.dumps(m))' \
    "$out/$config-$arch-$name" "${dir[$name]}"/*.swift >"$out/$config-$arch-$name.json"
  case "$arch" in
  aarch64)
    cmd=(swiftc -target aarch64-none-none-elf -enable-experimental-feature Embedded
      -Xcc --target=aarch64-unknown-linux-gnu -Xcc -isystem -Xcc "$sysroot/include") ;;
  x86_64) cmd=(swiftc -target x86_64-unknown-linux-gnu) ;;
  esac
  cmd+=(-wmo -parse-as-library -Onone -swift-version 6 -I Sources/CPUFeatures -I "$out/$arch" "${extra[@]}"
    -module-name "$name" -emit-module -emit-module-path "$out/$arch/$name.swiftmodule"
    "${dir[$name]}"/*.swift -c -output-file-map "$out/$config-$arch-$name.json")
  if "${cmd[@]}" >"$log" 2>&1 && [ ! -s "$log" ]; then
    echo "ok    $config $arch $name"
  else
    echo "FAIL  $config $arch $name:" >&2
    cat "$log" >&2
    failed=1
  fi
}
for config in release debug; do
  for arch in aarch64 x86_64; do
    for name in "${targets[@]}"; do compile "$config" "$arch" "$name"; done # Microkernels comes first
  done
done

# on TRIPLE [CLANG-FLAGS...]: which of the features below clang turns on for TRIPLE.
all_features=(+avx2 +fma +avx512f +avx512vnni +dotprod +i8mm)
on() {
  local triple="$1"; shift
  local cc1 feature list=()
  cc1="$("$clang" -target "$triple" "$@" -fsyntax-only -x c /dev/null -### 2>&1)" || { echo "error: $cc1"; return; }
  if grep -qE "^clang[-0-9]*: (warning|error)" <<<"$cc1"; then grep -E "^clang[-0-9]*: " <<<"$cc1"; return; fi
  for feature in "${all_features[@]}"; do
    grep -q "\"-target-feature\" \"$feature\"" <<<"$cc1" && list+=("$feature")
  done
  echo "${list[*]:-}"
}
# features TARGET TRIPLE WANTED...: the target's -Xcc flags must add exactly WANTED to what
# clang turns on for TRIPLE anyway (an Apple M1 has dotprod), and say nothing.
features() {
  local name="$1" triple="$2"; shift 2
  local -a extra=() xcc=()
  [ -n "${flags[release.$name]}" ] && IFS=$'\t' read -r -a extra <<<"${flags[release.$name]}"
  local i
  for ((i = 0; i < ${#extra[@]}; i++)); do
    if [ "${extra[$i]}" = -Xcc ]; then xcc+=("${extra[$((i + 1))]}"); i=$((i + 1)); fi
  done
  local base got want feature
  base="$(on "$triple")"
  got="$(on "$triple" "${xcc[@]}")"
  want=""
  for feature in "${all_features[@]}"; do
    if [[ " $base $* " == *" $feature "* ]]; then want="${want:+$want }$feature"; fi
  done
  if [ "$got" = "$want" ]; then
    echo "ok    clang $triple $name: ${got:-no level features}"
  else
    echo "FAIL  clang $triple $name: features '$got', expected '$want'" >&2
    failed=1
  fi
}
for triple in x86_64-unknown-linux-gnu x86_64-apple-macosx13 x86_64-apple-ios16-simulator; do
  features MicrokernelsAVX2 "$triple" +avx2 +fma
  features MicrokernelsAVX512 "$triple" +avx2 +fma +avx512f +avx512vnni
  features MicrokernelsDotProd "$triple"
  features MicrokernelsI8MM "$triple"
done
for triple in aarch64-unknown-linux-gnu aarch64-linux-android arm64-apple-macosx13 arm64-apple-ios16; do
  features MicrokernelsAVX2 "$triple"
  features MicrokernelsAVX512 "$triple"
  features MicrokernelsDotProd "$triple" +dotprod
  features MicrokernelsI8MM "$triple" +dotprod +i8mm
done

echo "check-level-flags: $([ $failed -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit $failed
