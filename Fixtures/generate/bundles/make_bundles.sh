#!/usr/bin/env bash
# Regenerates the demo bundles and their test images:
#   Fixtures/bundles/digits   image labeler (make_digits.py)
#   Fixtures/images/astronaut.*  face photo and the faces MediaPipe finds (make_faces.py)
#   Fixtures/bundles/shapes   object detector and its test scenes (make_shapes.py)
# Each script trains/converts deterministically on one thread, so a rerun rewrites the
# same bytes. Uses the virtualenv from ../venv.sh (FIXTURE_VENV selects another one).
# Run a subset by naming it: make_bundles.sh digits faces shapes
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="$("$here/../venv.sh")"
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-3}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(digits faces shapes)
for t in "${targets[@]}"; do
  [ -f "$here/make_$t.py" ] || { echo "make_bundles.sh: no make_$t.py" >&2; exit 2; }
done
for t in "${targets[@]}"; do
  "$py" "$here/make_$t.py"
done
