#!/usr/bin/env bash
# Builds a native OpenSCAD of the 2025 generation (Manifold, headless) from its sources, with
# Debian's libraries, for OPENSCAD_BINARY (docs/native-engine.md). About 17 minutes on 2 cores.
#
#   scripts/build-native-openscad.sh SOURCE_DIR [PREFIX]
#
# SOURCE_DIR is a checkout of openscad/openscad (tried: master of 2025-07-17, dc1998e4) with the
# submodules it pins in place under submodules/ (manifold, Clipper2, mimalloc, sanitizers-cmake):
# `git clone --recurse-submodules https://github.com/openscad/openscad` where GitHub is reachable,
# or each repository unpacked at its pinned commit where it is not. PREFIX (default /opt/openscad)
# receives bin/openscad. Needs root for apt-get unless the packages are there.
#
# OPENSCAD_VERSION names the build (its cadVersion is `<version>-native`): by default the commit's
# date in a git checkout, else the day of the build, as OpenSCAD names an untagged build itself.
set -euo pipefail

source_dir=$(realpath "${1:?usage: $0 SOURCE_DIR [PREFIX]}")
prefix=${2:-/opt/openscad}
build_dir="$source_dir/build-native"
version=${OPENSCAD_VERSION:-$(git -C "$source_dir" log -1 --format=%cd --date=format:%Y.%m.%d 2>/dev/null || true)}

for submodule in manifold Clipper2 mimalloc sanitizers-cmake; do
  [ -n "$(ls -A "$source_dir/submodules/$submodule" 2>/dev/null)" ] || { echo "$source_dir/submodules/$submodule is empty: put the pinned commit there" >&2; exit 1; }
done

packages=(build-essential cmake ninja-build bison flex gettext pkg-config
  libboost-program-options-dev libboost-regex-dev libboost-filesystem-dev libboost-system-dev libboost-thread-dev
  libeigen3-dev libcgal-dev libgmp-dev libmpfr-dev libharfbuzz-dev libfontconfig-dev libfreetype-dev
  libglib2.0-dev libxml2-dev libdouble-conversion-dev libzip-dev libtbb-dev)
missing=()
for package in "${packages[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Headless, no GUI libraries, Manifold with TBB; without a release tag OpenSCAD names itself by its build date.
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXPERIMENTAL=ON -DENABLE_MANIFOLD=ON \
  -DHEADLESS=ON -DNULLGL=ON -DENABLE_TESTS=OFF -DUSE_BUILTIN_OPENCSG=OFF -DENABLE_CAIRO=OFF -DENABLE_HIDAPI=OFF -DENABLE_SPNAV=OFF \
  ${version:+-DOPENSCAD_VERSION=$version}
ninja -C "$build_dir" openscad

install -D -m 0755 "$build_dir/openscad" "$prefix/bin/openscad"
"$prefix/bin/openscad" --version
echo "OPENSCAD_BINARY=$prefix/bin/openscad"
