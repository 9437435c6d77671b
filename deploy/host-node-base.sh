#!/usr/bin/env bash
# Builds a container base image from this machine's own Node, for machines that reach no container registry (this
# kit's CI reaches only npm and Debian's mirror): node and npm where node:20-bookworm-slim has them, /bin/sh,
# /usr/bin/env (npm's and wfmck's shebangs) and cat (deploy/k8s/wfm-service.yaml reads the CA files with it), the
# libraries they load, the host's CA bundle (npm ci goes through it) and a user `node` of uid 1000. Needs buildah, as root.
#   buildah bud --build-arg BASE=localhost/wfmck-base:host -f deploy/Containerfile -t wfmck:0.1.0 .
# usage: deploy/host-node-base.sh [IMAGE] [buildah global options, e.g. --storage-driver vfs --root DIR]
set -euo pipefail
image=${1:-localhost/wfmck-base:host}
shift || true
global=("$@")
ctr=$(buildah "${global[@]}" from scratch)
trap 'buildah "${global[@]}" rm "$ctr" >/dev/null 2>&1 || true' EXIT
root=$(buildah "${global[@]}" mount "$ctr")

# Debian's merged /usr: /bin, /lib and /lib64 are links into /usr, as on the host the files come from.
mkdir -p "$root"/usr/{bin,lib,lib64} "$root"/usr/local/{bin,lib/node_modules} "$root"/etc/ssl/certs "$root"/tmp \
  "$root"/home/node
ln -s usr/bin "$root/bin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"
chmod 1777 "$root/tmp"

node=$(command -v node)
npm_dir=$(dirname "$(dirname "$(realpath "$(command -v npm)")")")
cp "$node" "$root/usr/local/bin/node"
cp "$(realpath /bin/sh)" "$root/usr/bin/sh"
cp "$(realpath /usr/bin/env)" "$root/usr/bin/env"
cp "$(realpath /usr/bin/cat)" "$root/usr/bin/cat"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# Every library the binaries load, at its real path (the links above make /lib/... resolve to it).
for lib in $(ldd "$node" "$(realpath /bin/sh)" /usr/bin/env /usr/bin/cat | grep -oE '/[^ ]+\.so[^ ]*' | sort -u); do
  dest="$root$(realpath "$lib")"
  mkdir -p "$(dirname "$dest")"
  cp -L "$lib" "$dest"
  # The name the loader asks for, when it is a link on the host (libc.so.6 -> libc.so.6 is common on Debian).
  [ "$(realpath "$lib")" = "$lib" ] || { mkdir -p "$root$(dirname "$lib")"; [ -e "$root$lib" ] || ln -s "$(realpath "$lib")" "$root$lib"; }
done
cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' >"$root/etc/group"
chown 1000:1000 "$root/home/node"

buildah "${global[@]}" config --env PATH=/usr/local/bin:/usr/bin --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt "$ctr"
buildah "${global[@]}" unmount "$ctr" >/dev/null
buildah "${global[@]}" commit --quiet "$ctr" "$image" >/dev/null
echo "$image"
