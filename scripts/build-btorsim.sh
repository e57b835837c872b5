#!/bin/sh
# Builds btorsim, the BTOR2 simulator of btor2tools (Niemetz, Preiner, Wolf and Biere), from a
# checkout of https://github.com/Boolector/btor2tools, with gcc and g++ alone (no cmake), for
# the peer check of `tests/btor2.rs` (BITMC_BTORSIM=PATH/btorsim).
#
#   scripts/build-btorsim.sh [CHECKOUT] [OUT]
#
# CHECKOUT defaults to ../peers/btor2tools (cloned there when missing), OUT to ../peers/btorsim.
set -eu
src=${1:-../peers/btor2tools}
out=${2:-../peers/btorsim}
if [ ! -d "$src/src/btorsim" ]; then
    git clone --depth 1 https://github.com/Boolector/btor2tools "$src"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src/src"
for f in btor2parser/btor2parser.c btorsim/btorsimbv.c btorsim/btorsimrng.c; do
    gcc -O2 -w -I. -Ibtor2parser -c "$f" -o "$tmp/$(basename "$f").o"
done
g++ -O2 -std=gnu++17 -fpermissive -w -I. -Ibtor2parser -Ibtorsim \
    btorsim/btorsim.cpp btorsim/btorsimam.cpp btorsim/btorsimhelpers.cpp \
    btorsim/btorsimstate.cpp btorsim/btorsimvcd.cpp "$tmp"/*.o -o "$tmp/btorsim"
cd - > /dev/null
cp "$tmp/btorsim" "$out"
echo "built $out"
