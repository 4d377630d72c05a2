#!/usr/bin/env bash
# Creates (or reuses) the fixture generator's virtualenv and prints its python path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${FIXTURE_VENV:-$here/.venv}"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$here/requirements.txt" "$venv/.requirements"; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --upgrade pip >&2
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt" >&2
  cp "$here/requirements.txt" "$venv/.requirements"
fi
echo "$venv/bin/python"
