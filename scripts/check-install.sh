#!/usr/bin/env bash
# The package as a user gets it: build the sdist and the wheel from it, as `python -m build` does
# (each in a fresh build environment made from pyproject.toml's [build-system], as `pip install .`
# builds), check both with twine, install the wheel into a fresh venv and run it from another
# folder. `cassino --version` must say the engine is compiled where a C compiler is present (pure
# Python where none is, or with CASSINO_PURE=1), and `cassino perft` must give the counts of
# tests/data/perft_public.jsonl. Takes about a minute: mypyc and the C compiler.
# Usage: scripts/check-install.sh [PYTHON]  (a Python with build and twine: the test extra; .venv's
# by default, which ./test sets up before calling this)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${1:-$root/.venv/bin/python}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }

if ! "$py" -m build --outdir "$tmp/dist" "$root" >"$tmp/build.log" 2>&1; then
  cat "$tmp/build.log" >&2
  fail "python -m build failed"
fi
sdist="$(echo "$tmp"/dist/*.tar.gz)"
wheel="$(echo "$tmp"/dist/*.whl)"
"$py" -m twine check --strict "$sdist" "$wheel" >"$tmp/twine.log" 2>&1 || { cat "$tmp/twine.log" >&2; fail "twine check failed"; }
# An editable install keeps its compiled modules and their record in src/: none may reach the sdist.
if tar -tzf "$sdist" | grep -E '\.(so|pyd)$|/_build\.json$' >&2; then
  fail "the sdist holds build output of this tree"
fi

# The page's files travel in both: the card art and Pyodide (vendored, with their licences) most of
# all; and the engine's Python sources, which the page that plays offline runs (web/site.py).
sdist_files="$(tar -tzf "$sdist")" wheel_files="$("$py" -m zipfile -l "$wheel")"
for part in web/static/index.html web/static/vendor/svg-cards/svg-cards.svg web/static/vendor/svg-cards/LICENSE \
  web/static/worker.js web/static/sw.js web/static/icons/icon-512.png web/static/vendor/pyodide/pyodide.asm.wasm \
  web/static/vendor/pyodide/python_stdlib.zip web/static/vendor/pyodide/LICENSE state.py web/offline.py \
  players/data/hand_points.json; do
  grep -q "/src/cassino/$part$" <<<"$sdist_files" || fail "the sdist lacks cassino/$part"
  grep -q "^cassino/$part " <<<"$wheel_files" || fail "the wheel lacks cassino/$part"
done

"$py" -m venv --without-pip "$tmp/venv"
"$py" -m pip --python "$tmp/venv/bin/python" install --quiet --no-deps --no-index "$wheel"
mkdir "$tmp/elsewhere"
# From another folder, with no PYTHONPATH, so that only the installed package can be imported.
installed() { (cd "$tmp/elsewhere" && env -u PYTHONPATH -u CASSINO_PURE "$tmp/venv/bin/$1" "${@:2}"); }
where="$(installed python -c 'import cassino; print(cassino.__file__)')"
[[ "$where" == "$tmp/venv/"* ]] || fail "cassino was imported from $where, not from the fresh venv"

compiler="$("$py" -c 'import shutil, sysconfig; print(shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) or "")')"
if [ "${CASSINO_PURE:-}" = 1 ]; then
  want="pure Python engine: installed without compiling" why="CASSINO_PURE=1: the pure Python build"
elif [ -z "$compiler" ]; then
  want="pure Python engine: installed without compiling" why="no C compiler here: the pure Python build"
else
  want="engine compiled with mypyc" why="compiled with $compiler"
fi
version="$(installed cassino --version)"
[[ "$version" == *"($want)" ]] || fail "cassino --version says '$version', but this build should run the $want"

checked=0
while IFS=$'\t' read -r position count; do
  got="$(installed cassino perft "$position" 4)"
  [ "$got" = "$count" ] || fail "cassino perft POSITION 4 gave $got, not $count, for $position"
  checked=$((checked + 1))
done < <(head -n 3 "$root/tests/data/perft_public.jsonl" |
  "$py" -c 'import json, sys; [print(json.dumps(r["position"]), r["perft"]["4"], sep="\t") for r in map(json.loads, sys.stdin)]')
[ "$checked" = 3 ] || fail "read $checked positions from tests/data/perft_public.jsonl, not 3"
echo "check-install: the wheel built from the sdist installs and runs ($why): $version; perft right on $checked positions" >&2
