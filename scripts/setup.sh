#!/usr/bin/env bash
# Installs what mmaref needs from Debian packages (zlib: Verilator's FST waveforms), only what is missing.  Root runs apt-get directly;
# anyone else goes through sudo.  Safe to run again: with everything present it does nothing.
set -euo pipefail

# package -> a command or file that shows it is installed
declare -A probe=(
  [build-essential]="gcc"
  [make]="make"
  [python3]="python3"
  [verilator]="verilator"
  [yosys]="yosys"
  [libsystemc-dev]="/usr/include/systemc.h"
  [gnuplot-nox]="gnuplot"
  [zlib1g-dev]="/usr/include/zlib.h"
)

missing=()
for pkg in build-essential make python3 verilator yosys libsystemc-dev gnuplot-nox zlib1g-dev; do
  what=${probe[$pkg]}
  if [[ $what == /* ]]; then
    [[ -e $what ]] && continue
  else
    command -v "$what" >/dev/null 2>&1 && continue
  fi
  missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "setup: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
