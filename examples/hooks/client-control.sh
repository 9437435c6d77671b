#!/usr/bin/env bash
# hooks.removeChild, hooks.disconnectChild and hooks.changeCapabilities for a client start-client.sh started: the
# request goes to the client through its folder (control/<id>.json) and the hook waits for its answer. The kit names
# the hook in WFMCK_HOOK_NAME, so one script serves all three; yours would tell your client (or its test rig) instead.
set -euo pipefail
input="$(cat)"
dir="$(node -e 'process.stdout.write(String(JSON.parse(process.argv[1]).handle ?? ""))' "$input")"
if [ ! -f "$dir/pid" ]; then echo "$WFMCK_HOOK_NAME: no client folder '$dir'" >&2; exit 1; fi
mkdir -p "$dir/control"
id="$(date +%s%N)-$$"
node -e 'const [i, hook] = process.argv.slice(1); process.stdout.write(JSON.stringify({ ...JSON.parse(i), hook }))' "$input" "$WFMCK_HOOK_NAME" > "$dir/control/$id.tmp"
mv "$dir/control/$id.tmp" "$dir/control/$id.json"
for _ in $(seq 300); do
  if [ -f "$dir/control/$id.error" ]; then cat "$dir/control/$id.error" >&2; exit 1; fi
  if [ -f "$dir/control/$id.answer" ]; then cat "$dir/control/$id.answer"; exit 0; fi
  sleep 0.1
done
echo "$WFMCK_HOOK_NAME: the client did not answer within 30 s" >&2
exit 1
