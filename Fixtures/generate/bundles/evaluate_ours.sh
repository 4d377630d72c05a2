#!/usr/bin/env bash
# Held-out accuracy and mAP of the demo bundles computed by our runtime and by LiteRT,
# written to Fixtures/bundles/EVALUATION.json. Run from anywhere.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
py="$("$here/../venv.sh")"
(cd "$root" && swift build -c release --product tflite >&2)
cd "$root"
TF_CPP_MIN_LOG_LEVEL=2 PYTHONPATH="$here" "$py" "$here/evaluate_ours.py" "$root/.build/release/tflite"
