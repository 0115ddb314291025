#!/usr/bin/env bash
# Runs a command with the project's Node (major version from .nvmrc) first on PATH. When the machine's own Node is
# older, the pinned version comes from the npm registry's per-platform `node-<os>-<arch>` packages (the official
# binaries, published by the Node project) into .tools/, once; the system's Node is never touched. Nothing is
# fetched from anywhere but the npm registry.
#   bash scripts/with-node.sh npm ci
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want="$(tr -d '[:space:]v' < "$root/.nvmrc")"
want_major="${want%%.*}"

have_major=0
if command -v node >/dev/null 2>&1; then
  have_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
fi

if [ "$have_major" -lt "$want_major" ]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "with-node: install Node $want_major (https://nodejs.org) on this system" >&2; exit 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "with-node: no Node package for $(uname -m); install Node $want_major yourself" >&2; exit 1 ;;
  esac
  home="$root/.tools/node-$want-$os-$arch"
  if [ ! -x "$home/bin/node" ]; then
    echo "with-node: the system has Node ${have_major}; fetching node-$os-$arch@$want from the npm registry" >&2
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && npm pack --silent "node-$os-$arch@$want" >/dev/null)
    mkdir -p "$work/unpacked"
    tar -xzf "$work"/node-"$os"-"$arch"-*.tgz -C "$work/unpacked"
    "$work/unpacked/package/bin/node" -e 'process.exit(0)' || {
      echo "with-node: the downloaded Node does not run on this machine" >&2
      exit 1
    }
    mkdir -p "$root/.tools"
    rm -rf "$home"
    mv "$work/unpacked/package" "$home"
  fi
  export PATH="$home/bin:$PATH"
fi
exec "$@"
