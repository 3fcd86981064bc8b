#!/usr/bin/env bash
# Sets warpsim up on Debian 12: installs the build dependencies with apt-get (when missing), builds
# the release preset, and runs the main job. Re-running it is cheap: installed packages are skipped
# and the build is incremental.
set -euo pipefail
cd "$(dirname "$0")"

packages=(build-essential cmake ninja-build pkg-config
          libboost-program-options-dev libboost-iostreams-dev libeigen3-dev libtbb-dev
          libprotobuf-dev protobuf-compiler libgtest-dev libgmock-dev libbenchmark-dev
          libzstd-dev liblzma-dev clang)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake --preset release
cmake --build --preset release

# The main job: the presets, then a demo simulation of saxpy (its CUDA twin's SASS) on the H200.
./build/release/warpsim arch list
./build/release/warpsim run --arch h200 --workload saxpy --param n=1048576
