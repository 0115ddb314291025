#!/usr/bin/env bash
# electron-builder's architecture flag for the runner this runs on: on macOS each runner (Apple silicon, Intel)
# builds and smoke-tests its own arch, once (electron-builder.json's mac targets name no arch, which would override
# this flag); elsewhere nothing, so the platform's default (x64) is built. Reads GitHub's RUNNER_OS/RUNNER_ARCH, else uname.
set -euo pipefail
os="${RUNNER_OS:-$(uname -s)}"
arch="${RUNNER_ARCH:-$(uname -m)}"
case "$os" in
  macOS | Darwin)
    case "$arch" in
      ARM64 | arm64 | aarch64) echo --arm64 ;;
      *) echo --x64 ;;
    esac
    ;;
  *) echo "" ;;
esac
