#!/usr/bin/env bash
# Create .venv and install the project into it on first use, and again whenever pyproject.toml changes.
# Usage: source scripts/ensure-env.sh EXTRAS   (EXTRAS like "test" or "" for the plain install)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras="${1:-}"
py=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    py="$candidate"; break
  fi
done
if [ -z "$py" ]; then
  echo "cassino needs Python 3.11 or newer (python3.11, python3.12 ...), and none was found on PATH." >&2
  exit 1
fi
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "Setting up $venv (first use) ..." >&2
  "$py" -m venv "$venv"
fi
stamp="$venv/.installed-${extras:-base}"
# Installed again when the project's metadata, its build or the compiled engine's sources change
# (the engine is compiled by mypyc at install: setup.py), or CASSINO_PURE asks for another build.
engine="$("$py" -c 'import ast,sys; t=ast.parse(open(sys.argv[1]).read()); print(" ".join(next(ast.literal_eval(n.value) for n in t.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "COMPILED_MODULES")))' "$root/src/cassino/native.py")"
want="$( (cat "$root/pyproject.toml" "$root/setup.py"; for m in $engine; do cat "$root/src/cassino/${m//.//}.py"; done; echo "pure=${CASSINO_PURE:-}") | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing cassino${extras:+[$extras]} into .venv (compiling its engine where a C compiler is present) ..." >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  if [[ "$extras" == *test* || "$extras" == *train* ]] && ! "$venv/bin/python" -c 'import torch' 2>/dev/null; then
    # Training runs on the CPU: a CPU build of PyTorch where the package sources offer one (a
    # fraction of the size of the default build), the default build otherwise.
    cpu="$("$venv/bin/python" -m pip index versions torch 2>/dev/null | tr ', ' '\n\n' | grep -m1 '+cpu$' || true)"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "torch${cpu:+==$cpu}" >&2
  fi
  if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root${extras:+[$extras]}" >&2; then
    echo "The compiled build failed: installing the pure Python engine instead (CASSINO_PURE=1)." >&2
    CASSINO_PURE=1 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root${extras:+[$extras]}" >&2
  fi
  echo "$want" > "$stamp"
fi
