#!/usr/bin/env bash
# Runs the whole test suite under ThreadSanitizer, in its own build directory. The
# concurrency tests (ReliabilityTests: 8 interpreters sharing one Model, thread counts
# 1/2/4) are what it is mostly for; TSan's report makes the run fail.
#
#   scripts/test-tsan.sh [swift test arguments, e.g. --filter ReliabilityTests]
set -euo pipefail
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"
swift test --sanitize=thread --scratch-path .build-tsan "$@"
