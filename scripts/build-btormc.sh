#!/bin/sh
# Builds btormc, the BTOR2 bounded model checker (BMC and k-induction) of Boolector (Niemetz,
# Preiner, Wolf and Biere), with gcc and g++ alone (no cmake), for the peer check of bitmc's
# BTOR2 exports. Sources: a checkout of https://github.com/Boolector/boolector (3.2.x), its SAT
# back end CaDiCaL from https://github.com/arminbiere/cadical at the commit Boolector's
# contrib/setup-cadical.sh pins (cb89cbf, CaDiCaL 1.0.3; newer CaDiCaL releases dropped parts of
# the C API Boolector calls), and btor2parser from https://github.com/Boolector/btor2tools (the
# checkout scripts/build-btorsim.sh uses). Hand-written stand-ins replace the headers that
# CaDiCaL's configure (build.hpp) and Boolector's CMake (btorconfig.h) would generate; the
# flags follow their release builds (-O3 -DNDEBUG, no logging, CaDiCaL the only SAT solver).
#
#   scripts/build-btormc.sh [BOOLECTOR] [CADICAL] [BTOR2TOOLS] [OUT]
#
# BOOLECTOR defaults to ../peers/btormc-build/boolector, CADICAL to ../peers/btormc-build/cadical,
# BTOR2TOOLS to ../peers/btor2tools (each cloned there when missing), OUT to ../peers/btormc.
# Compiles one file at a time (set CC/CXX to change compilers, e.g. CC="nice gcc").
set -eu
boolector=${1:-../peers/btormc-build/boolector}
cadical=${2:-../peers/btormc-build/cadical}
btor2tools=${3:-../peers/btor2tools}
out=${4:-../peers/btormc}
cadical_commit=cb89cbfa16f47cb7bf1ec6ad9855e7b6d5203c18
CC=${CC:-gcc}
CXX=${CXX:-g++}
if [ ! -f "$boolector/src/btormcmain.c" ]; then
    git clone --depth 1 https://github.com/Boolector/boolector "$boolector"
fi
if [ ! -f "$cadical/src/ccadical.h" ]; then
    git init -q "$cadical"
    git -C "$cadical" fetch -q --depth 1 https://github.com/arminbiere/cadical "$cadical_commit"
    git -C "$cadical" checkout -q FETCH_HEAD
fi
if [ ! -f "$btor2tools/src/btor2parser/btor2parser.c" ]; then
    git clone --depth 1 https://github.com/Boolector/btor2tools "$btor2tools"
fi
boolector=$(cd "$boolector" && pwd)
cadical=$(cd "$cadical" && pwd)
btor2tools=$(cd "$btor2tools" && pwd)
gitid() { git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/inc" "$tmp/obj"

# CaDiCaL: the library, i.e. src/*.cpp without the two front ends.
cxxflags="-Wall -Wextra -O3 -DNDEBUG"
{
    echo "#define VERSION \"$(cat "$cadical/VERSION")\""
    echo "#define IDENTIFIER \"$(gitid "$cadical")\""
    echo "#define COMPILER \"$($CXX --version | head -1)\""
    echo "#define FLAGS \"$cxxflags\""
    echo "#define DATE \"$(date -u) $(uname -srmn)\""
} > "$tmp/inc/build.hpp"
for f in "$cadical"/src/*.cpp; do
    case $f in */cadical.cpp | */mobical.cpp) continue ;; esac
    $CXX $cxxflags -w -I"$tmp/inc" -c "$f" -o "$tmp/obj/cadical_$(basename "$f" .cpp).o"
done

# Boolector: the library sources of src/CMakeLists.txt (SAT back ends other than CaDiCaL compile
# to nothing without their BTOR_USE_* macro), btor2parser, and the btormc front end.
version=$(sed -n 's/^set(VERSION "\(.*\)")$/\1/p' "$boolector/CMakeLists.txt")
cflags="-O3 -DNDEBUG -DNBTORLOG -DBTOR_HAVE_SIGNALS -DBTOR_HAVE_PTHREADS -DBTOR_USE_CADICAL"
cat > "$tmp/inc/btorconfig.h" <<EOF
#ifndef BTORCONFIG_H_INCLUDED
#define BTORCONFIG_H_INCLUDED
#define BTOR_CC          "$($CC --version | head -1)"
#define BTOR_CXX         "$($CXX --version | head -1)"
#define BTOR_CFLAGS      "$cflags"
#define BTOR_CXXFLAGS    "$cflags"
#define BTOR_OS          "$(uname -sr)"
#define BTOR_COMPILED    "$(date -u)"
#define BTOR_SRC_DIR     "$boolector/src/"
#define BTOR_BIN_DIR     "$boolector/build/bin/"
#define BTOR_TEST_DIR    "$boolector/test/"
#define BTOR_LOG_DIR     "$boolector/build/test/"
#define BTOR_OUT_DIR     "$boolector/test/log/"
#define BTOR_CONTRIB_DIR "$boolector/contrib/"
#define BTOR_RELEASED    "$(date -u)"
#define BTOR_VERSION     "$version"
#define BTOR_GIT_ID      "$(gitid "$boolector")"
#endif
EOF
inc="-I$tmp/inc -I$boolector/src -I$btor2tools/src -I$btor2tools/src/btor2parser -I$cadical/src"
srcs=$(sed -n '/^set(libboolector_src_files/,/^)/p' "$boolector/src/CMakeLists.txt" | sed -n 's/^  *\([^ ]*\.c[c]*\)$/\1/p')
for f in $srcs; do
    o="$tmp/obj/btor_$(echo "$f" | tr / _).o"
    case $f in
        *.cc) $CXX $cflags -w $inc -c "$boolector/src/$f" -o "$o" ;;
        *) $CC $cflags -w $inc -c "$boolector/src/$f" -o "$o" ;;
    esac
done
$CC $cflags -w $inc -c "$btor2tools/src/btor2parser/btor2parser.c" -o "$tmp/obj/btor2parser.o"
$CC $cflags -w $inc -c "$boolector/src/btormcmain.c" -o "$tmp/btormcmain.o"
$CXX "$tmp/btormcmain.o" "$tmp"/obj/*.o -lpthread -lm -o "$tmp/btormc"
cp "$tmp/btormc" "$out"
echo "built $out ($("$out" --version))"
