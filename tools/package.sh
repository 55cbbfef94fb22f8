#!/usr/bin/env bash
# Builds the Debian package mpiwrite_<version>_<arch>.deb (CPack DEB, cmake/package.cmake).
# Usage: tools/package.sh [BUILD_DIR]   (default: build-package)
# A BUILD_DIR that is already built (tools/build.sh BUILD_DIR) is reused: CPack installs it
# into a staging tree and only rebuilds what is out of date. The .deb is left in BUILD_DIR and
# its path printed. Needs dpkg-dev (dpkg-shlibdeps), which tools/install-deps.sh installs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-package}
if [ ! -f "$build/CPackConfig.cmake" ]; then
  "$root/tools/build.sh" "$build" -DMPIWRITE_BUILD_TESTS=OFF
fi
command -v dpkg-shlibdeps >/dev/null || {
  echo "package.sh: error: dpkg-shlibdeps is missing: apt-get install dpkg-dev" >&2
  exit 2
}
cd "$build"
cpack -G DEB >cpack.log || { cat cpack.log >&2; exit 1; }
deb=$(sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p' cpack.log)
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  cat cpack.log >&2
  echo "package.sh: error: CPack made no .deb" >&2
  exit 1
fi
echo "$deb"
