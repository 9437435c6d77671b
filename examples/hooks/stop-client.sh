#!/usr/bin/env bash
# hooks.stopClient: stops the client start-client.sh started (its handle is its folder) and waits until it is gone,
# so it has written what it keeps before the kit starts it again.
set -euo pipefail
dir="$(node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0, "utf8")).handle ?? ""))')"
if [ ! -f "$dir/pid" ]; then echo "stopClient: no client folder '$dir'" >&2; exit 1; fi
pid="$(cat "$dir/pid")"
touch "$dir/done"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then kill "$pid"; sleep 0.5; fi
echo '{}'
