#!/usr/bin/env bash
# Fetches SV-COMP task folders from the public sv-benchmarks repository into a directory
# outside the checkout (tasks are never copied into bitmc's repository), at a fixed commit so
# that figures quoted for them can be reproduced.
#
#   scripts/fetch-svcomp-tasks.sh DEST [FOLDER ...]
#
# FOLDER defaults to c/ldv-regression (small programs with structures, the set the structure
# support was measured on) and c/properties is always fetched. SV_BENCHMARKS may name another
# clone URL or a local mirror; SV_BENCHMARKS_COMMIT another commit.
set -euo pipefail
dest=${1:?usage: scripts/fetch-svcomp-tasks.sh DEST [FOLDER ...]}
shift
folders=("$@")
[ ${#folders[@]} -gt 0 ] || folders=(c/ldv-regression)
url=${SV_BENCHMARKS:-https://github.com/sosy-lab/sv-benchmarks.git}
commit=${SV_BENCHMARKS_COMMIT:-25191159b7ff6bb205f4107be9f83c0163073c1b}
mkdir -p "$dest"
cd "$dest"
if [ ! -d .git ]; then
  git init -q
  git remote add origin "$url"
fi
git config core.sparseCheckout true
printf '%s/\n' c/properties "${folders[@]}" > .git/info/sparse-checkout
git fetch -q --depth 1 --filter=blob:none origin "$commit"
git checkout -q FETCH_HEAD
echo "fetched ${folders[*]} at $commit into $dest"
