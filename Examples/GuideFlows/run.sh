#!/usr/bin/env bash
# Builds the guide-style programs (Swift 6 and Swift 5 language modes), publishes the
# demo models with `tflite publish` to a model server on 127.0.0.1 (python3 -m
# http.server), and runs both programs against it with a fresh model cache. Fails if
# either program reports a failed check.
#
#   Examples/GuideFlows/run.sh [path/to/tflite]
#
# Without an argument, `tflite` is built from the repository (debug).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tflite="${1:-}"
if [ -z "$tflite" ]; then
  (cd "$root" && swift build --product tflite 2>&1 | tail -n 3)
  tflite="$(cd "$root" && swift build --show-bin-path)/tflite"
fi
(cd "$here" && swift build 2>&1 | tail -n 20)
bin="$(cd "$here" && swift build --show-bin-path)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/guide-flows.XXXXXX")"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$tflite" publish "$root/Fixtures/models/mobilenet_float.tflite" --name classifier --version 1 --to "$tmp/server" >/dev/null
"$tflite" publish "$root/Fixtures/bundles/digits" --name digits --version 1 --to "$tmp/server" >/dev/null
"$tflite" publish "$root/Fixtures/bundles/shapes" --name shapes --version 1 --to "$tmp/server" >/dev/null

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$tmp/server" >"$tmp/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
  sleep 0.1
done

export TFLITE_MODEL_SERVER="http://127.0.0.1:$port"
for program in GuideFlows GuideFlowsSwift5; do
  echo "== $program"
  rm -rf "$tmp/cache"
  TFLITE_MODEL_CACHE="$tmp/cache" "$bin/$program" "$root"
done
