#!/usr/bin/env bash
# Regenerates the whole conformance corpus in Fixtures/conformance/: the op-level
# cases (generate.py), then the whole-model cases in models/ (cases_models.py).
# Creates or reuses the fixture virtualenv (Fixtures/generate/venv.sh; set
# FIXTURE_VENV to point at an existing one).  Extra arguments (--only, --jobs) go
# to both scripts.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="$("$here/../venv.sh")"
# Determinism: no hash randomisation, no GPU, one intra/inter-op thread pool,
# deterministic TF kernels.  Logs quiet.
export PYTHONHASHSEED=0 CUDA_VISIBLE_DEVICES="" TF_DETERMINISTIC_OPS=1 \
       TF_CPP_MIN_LOG_LEVEL=3 TF_ENABLE_ONEDNN_OPTS=0 PYTHONDONTWRITEBYTECODE=1
"$python" "$here/generate.py" "$@"
exec "$python" "$here/cases_models.py" "$@"
