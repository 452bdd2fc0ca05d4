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
want="$(cat "$root/pyproject.toml" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "Installing cassino${extras:+[$extras]} into .venv ..." >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root${extras:+[$extras]}" >&2
  echo "$want" > "$stamp"
fi
