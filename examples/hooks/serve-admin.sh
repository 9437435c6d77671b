#!/usr/bin/env bash
# Every P5 hook of the kit's own reference services run as a target (`wfmck serve`): the hook's JSON goes to the admin
# API the serve line names (WFMCK_ADMIN, WFMCK_ADMIN_TOKEN), and its answer comes back. The kit names the hook in
# WFMCK_HOOK_NAME, so one script serves them all; a vendor's hooks would call their own operator API instead.
# curl when there is one (a hook runs once per operator action, and Node's start-up cost ~10x curl's per call).
set -euo pipefail
: "${WFMCK_ADMIN:?the admin URL wfmck serve printed}" "${WFMCK_ADMIN_TOKEN:?the adminToken wfmck serve printed}"
url="${WFMCK_ADMIN}/hooks/${WFMCK_HOOK_NAME}"
if command -v curl >/dev/null; then
  # The token goes in a header read from a file descriptor, never on the command line (ps shows arguments).
  answer=$(curl -sS -X POST -H @<(printf 'authorization: Bearer %s\n' "$WFMCK_ADMIN_TOKEN") \
    -H 'content-type: application/json' --data-binary @- -w '\n%{http_code}' "$url") ||
    { echo "${WFMCK_HOOK_NAME}: admin API unreachable at ${WFMCK_ADMIN}" >&2; exit 1; }
  status=${answer##*$'\n'}
  body=${answer%$'\n'*}
  if [ "$status" -lt 200 ] || [ "$status" -ge 300 ]; then
    echo "${WFMCK_HOOK_NAME}: admin API answered ${status}: ${body}" >&2
    exit 1
  fi
  printf '%s' "$body"
  exit 0
fi
exec node -e '
const input = require("fs").readFileSync(0, "utf8");
fetch(`${process.env.WFMCK_ADMIN}/hooks/${process.env.WFMCK_HOOK_NAME}`, {
  method: "POST",
  headers: { authorization: `Bearer ${process.env.WFMCK_ADMIN_TOKEN}`, "content-type": "application/json" },
  body: input,
}).then(async (res) => {
  const text = await res.text();
  if (!res.ok) { process.stderr.write(`${process.env.WFMCK_HOOK_NAME}: admin API answered ${res.status}: ${text}\n`); process.exit(1); }
  process.stdout.write(text);
}, (e) => { process.stderr.write(`${process.env.WFMCK_HOOK_NAME}: ${e.message}\n`); process.exit(1); });
'
