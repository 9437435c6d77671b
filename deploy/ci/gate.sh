#!/usr/bin/env bash
# The CI gate: `wfmck run` with the gate's settings, then its verdict as Markdown for the job summary. One script for
# action.yml and wfmck.gitlab-ci.yml, and for a try on your machine:
#   WFMCK_GATE_CONFIG=wfmck.config.yaml bash deploy/ci/gate.sh --grep CAP-PUT
# Settings (env; empty = the kit's default): WFMCK_GATE_CONFIG, WFMCK_GATE_PERSONA, WFMCK_GATE_EDITION,
# WFMCK_GATE_SIGN (true|false), WFMCK_GATE_ARGS (more `wfmck run` arguments, quoted as in a shell, never expanded),
# WFMCK_GATE_OUT (report folder, default wfmck-report), WFMCK_GATE_SUMMARY (the Markdown file, appended to; default
# $GITHUB_STEP_SUMMARY, else wfmck-summary.md), WFMCK_KIT (the kit's folder; default: `npx wfmck`).
# Arguments after the settings go to `wfmck run` as they are. Exit: wfmck run's (0 conformant or incomplete, 1 a
# requirement failed, 2 no verdict). With --defer-exit (GitHub: the report is uploaded first) it writes exit-code and
# report-dir to $GITHUB_OUTPUT and exits 0; a later step exits with that code.
set -uo pipefail
defer=false
if [ "${1:-}" = --defer-exit ]; then defer=true; shift; fi
if [ -n "${WFMCK_KIT:-}" ]; then wfmck=(node "$WFMCK_KIT/bin/wfmck.mjs"); else wfmck=(npx --no-install wfmck); fi
out=${WFMCK_GATE_OUT:-wfmck-report}
summary=${WFMCK_GATE_SUMMARY:-${GITHUB_STEP_SUMMARY:-wfmck-summary.md}}

args=(run --out "$out")
[ -n "${WFMCK_GATE_CONFIG:-}" ] && args+=(--config "$WFMCK_GATE_CONFIG")
[ -n "${WFMCK_GATE_PERSONA:-}" ] && args+=(--persona "$WFMCK_GATE_PERSONA")
[ -n "${WFMCK_GATE_EDITION:-}" ] && args+=(--edition "$WFMCK_GATE_EDITION")
case "${WFMCK_GATE_SIGN:-false}" in
  true) args+=(--sign) ;;
  false | '') ;;
  *) echo "wfmck gate: sign: '${WFMCK_GATE_SIGN}' is neither true nor false" >&2; exit 2 ;;
esac
if [ -n "${WFMCK_GATE_ARGS:-}" ]; then
  # xargs splits as a shell would (quotes kept together) and expands nothing: no globs, no $(...).
  mapfile -t extra < <(printf '%s' "$WFMCK_GATE_ARGS" | xargs printf '%s\n') || { echo "wfmck gate: args: unbalanced quotes" >&2; exit 2; }
  args+=("${extra[@]}")
fi
# A report folder left by an earlier run would be summarized as this one's.
rm -f "$out/conformance.json"

"${wfmck[@]}" "${args[@]}" "$@"
code=$?

if [ -s "$out/conformance.json" ]; then
  "${wfmck[@]}" summary "$out" --markdown >>"$summary" || echo "wfmck gate: no summary written (wfmck summary failed)" >&2
else
  printf '## ⛔ wfmck: NO VERDICT: `wfmck run` exited %s and wrote no report\n\nA usage or configuration error, or an unreadable input: the job log says which.\n' "$code" >>"$summary"
fi

if $defer; then
  printf 'exit-code=%s\nreport-dir=%s\n' "$code" "$out" >>"${GITHUB_OUTPUT:?--defer-exit writes to GITHUB_OUTPUT}"
  exit 0
fi
exit "$code"
