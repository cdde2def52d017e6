#!/bin/sh
# Build the compiled core's wheel: native/build-wheel.sh PYTHON OUT_DIR (`make native` and the Dockerfile both run it).
# PYTHON is the interpreter the wheel is for and must have maturin installed; cargo stays offline and takes PyO3's
# crates from Debian's registry (native/.cargo/config.toml, read from the directory cargo runs in: native/).
set -eu
python=$1
out=$2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
cd "$(dirname "$0")"
"$python" -m maturin build --release --quiet --interpreter "$python" --out "$out"
