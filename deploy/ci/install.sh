#!/usr/bin/env bash
# Installs the kit for a CI gate (action.yml, wfmck.gitlab-ci.yml), run in the folder that holds your config.
# WFMCK_KIT: the kit's folder (the action's own checkout, or node_modules/wfmck). In the kit's own repository that is
# the current folder: `npm ci` there. Elsewhere the kit's dependencies are installed in its folder and the kit is
# linked into this folder's node_modules (`npm install --no-save`), so `npx wfmck` works in your hooks and later steps.
# A step whose packages are already in place installs nothing (a workflow that ran `npm ci` itself, a cache).
set -euo pipefail
: "${WFMCK_KIT:?names the folder of the kit (github.action_path, or node_modules/wfmck)}"
kit=$(cd "$WFMCK_KIT" && pwd -P)
here=$(pwd -P)
installed() { (cd "$1" && npm ls --depth=0 "${@:2}" >/dev/null 2>&1); }
npm_quiet=(--no-audit --no-fund)
if [ "$kit" = "$here" ]; then
  if installed "$kit"; then echo "wfmck: the kit's packages are installed in $kit"; else npm ci "${npm_quiet[@]}"; fi
  exit 0
fi
# Installed as a package (a tarball, a git URL): npm placed its dependencies beside it already.
case "$kit" in */node_modules/wfmck)
  echo "wfmck: the kit is the installed package $kit"
  exit 0
  ;;
esac
if installed "$kit" --omit=dev; then
  echo "wfmck: the kit's packages are installed in $kit"
else
  (cd "$kit" && npm ci --omit=dev "${npm_quiet[@]}")
fi
if [ "$(cd node_modules/wfmck 2>/dev/null && pwd -P)" = "$kit" ]; then
  echo "wfmck: the kit is node_modules/wfmck here"
else
  npm install --no-save "${npm_quiet[@]}" "$kit"
fi
