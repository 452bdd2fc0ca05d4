#!/usr/bin/env bash
# The services the web tests use, from Debian packages: Chromium (/usr/bin/chromium, driven by
# Playwright), Node.js (the page's own tests, tests/js) and a private PostgreSQL server on a free
# local port. Installs what is missing (apt-get, needs root), starts the server if it is not
# running, and prints the variables to use:
#   eval "$(scripts/ensure-services.sh)"     # sets CASSINO_TEST_POSTGRES
# It also fetches axe-core (the accessibility checker the browser tests inject) from the npm registry
# into .cache/npm, and prints CASSINO_AXE, the path of its built file.
# Settings: CASSINO_PG_DIR (default /tmp/cassino-pg), CASSINO_PG_PORT (default 54329).
set -euo pipefail
pgdir="${CASSINO_PG_DIR:-/tmp/cassino-pg}"
port="${CASSINO_PG_PORT:-54329}"

say() { echo "ensure-services: $*" >&2; }

bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || missing+=(postgresql)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    say "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})"
    exit 1
  fi
  say "installing ${missing[*]} ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >&2
  bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
fi

# Run PostgreSQL's tools as the postgres user when we are root (it refuses to run as root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$pgdir" && chown postgres: "$pgdir"
else
  mkdir -p "$pgdir"
fi
if [ ! -f "$pgdir/data/PG_VERSION" ]; then
  say "creating a PostgreSQL cluster in $pgdir/data ..."
  as_owner "$bindir/initdb" -D "$pgdir/data" -U postgres --auth=trust -E UTF8 >/dev/null
fi
if ! as_owner "$bindir/pg_ctl" -D "$pgdir/data" status >/dev/null 2>&1; then
  say "starting PostgreSQL on 127.0.0.1:$port ..."
  as_owner "$bindir/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w -t 60 \
    -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
fi
if ! as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc \
  "SELECT 1 FROM pg_database WHERE datname = 'cassino_test'" postgres | grep -q 1; then
  as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres cassino_test
fi
say "PostgreSQL is up: postgresql://postgres@127.0.0.1:$port/cassino_test; Chromium: /usr/bin/chromium"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
axe="$root/.cache/npm/node_modules/axe-core/axe.min.js"
if [ ! -f "$axe" ]; then
  say "fetching axe-core from the npm registry into .cache/npm ..."
  npm install --silent --no-audit --no-fund --prefix "$root/.cache/npm" axe-core@4.10 >&2
fi
echo "export CASSINO_AXE=$axe"
echo "export CASSINO_TEST_POSTGRES=postgresql://postgres@127.0.0.1:$port/cassino_test"
