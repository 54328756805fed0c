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
  # OpenSTA, the static timer of `make synth` (synth/sta.py)
  [opensta]="sta"
  [libsystemc-dev]="/usr/include/systemc.h"
  [gnuplot-nox]="gnuplot"
  [zlib1g-dev]="/usr/include/zlib.h"
  # Verilated models' C++ compiled once where they share it (the Makefile's OBJCACHE)
  [ccache]="ccache"
  [clang]="clang"
  # libFuzzer and the sanitizer runtimes for clang (tests/fuzz, make asan); clang only recommends them
  [libclang-rt-dev]="/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a"
  # the browser page (make web, docs/web.md): clang to WebAssembly against wasi-libc, its linker and
  # compiler-rt builtins, and Chromium to test the page headless
  [wasi-libc]="/usr/include/wasm32-wasi/stdio.h"
  [lld]="wasm-ld"
  [libclang-rt-dev-wasm32]="/usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a"
  [chromium]="chromium"
  # the Python binding's tests run under Debian's /usr/bin/python3 (tests/lib.sh: PYTHON)
  [python3-numpy]="/usr/lib/python3/dist-packages/numpy/__init__.py"
  [python3-pytest]="/usr/lib/python3/dist-packages/pytest/__init__.py"
  # SCHED=slurm of the sharded regressions (tools/regress/run.sh): sbatch, and a one-node slurmctld and
  # slurmd with munged for tests/t_rtl_regress_slurm.sh
  [slurm-wlm]="/usr/sbin/slurmctld"
  [munge]="/usr/sbin/munged"
)

missing=()
for pkg in build-essential make python3 verilator yosys opensta libsystemc-dev gnuplot-nox zlib1g-dev ccache clang libclang-rt-dev \
           wasi-libc lld libclang-rt-dev-wasm32 chromium python3-numpy python3-pytest slurm-wlm munge; do
  what=${probe[$pkg]}
  if [[ $what == /* ]]; then
    compgen -G "$what" >/dev/null && continue  # a path, or a pattern where the version is part of it
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
