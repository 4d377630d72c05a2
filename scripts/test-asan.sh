#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (+ LeakSanitizer on Linux), in its own
# build directory so it does not invalidate the normal debug build.
#
#   scripts/test-asan.sh [swift test arguments, e.g. --filter ReliabilityTests]
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}"
# False positives outside the library (toolchain XCTest, test-only tagged enum payloads).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}"
swift test --sanitize=address --scratch-path .build-asan "$@"
