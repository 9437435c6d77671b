#!/usr/bin/env bash
# hooks.startClient of `wfmck run --persona device`, written the way a vendor's would be: the client under test runs
# in a process of its own. This one starts the kit's own client (`wfmck client`); put your client's start command in
# its place. stdin: the startClient JSON (wfm, caPem, certPem, keyPem, kind, restart, ...); stdout: {"handle", ...}.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
wfmck=(node "$here/../../bin/wfmck.mjs")
tmp="${TMPDIR:-/tmp}"
# What the client keeps across a stop and a start (restart keep-state), one file per certificate.
state="${WFMCK_CLIENT_STATE:-$tmp/wfmck-client-state}"
dir="$(mktemp -d "$tmp/wfmck-client-XXXXXX")"
cat > "$dir/client.json"
chmod 600 "$dir/client.json"
# A session of its own: the kit ends the hook's process group when the hook returns, and the client must outlive it.
setsid "${wfmck[@]}" client "$dir" --state "$state" > "$dir/client.log" 2>&1 < /dev/null &
echo $! > "$dir/pid"
for _ in $(seq 300); do [ -f "$dir/started" ] && break; sleep 0.1; done
if [ ! -f "$dir/started" ]; then cat "$dir/client.log" >&2; exit 1; fi
# The answer: the handle stopClient gets back (this folder), and what the client says it is (answer.json).
node -e 'const [dir] = process.argv.slice(1); const a = JSON.parse(require("fs").readFileSync(`${dir}/answer.json`, "utf8")); process.stdout.write(JSON.stringify({ handle: dir, ...a }))' "$dir"
