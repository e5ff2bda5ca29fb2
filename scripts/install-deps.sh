#!/bin/sh
# Installs what the build and the tests need and this machine lacks: Debian's packages
# (apt-get, as root) and the locked npm packages (npm ci). Quiet and quick when nothing
# is missing. Browsers and toolchains come from Debian only: nothing downloads one.
set -eu
cd "$(dirname "$0")/.."

# Debian package, and a file or command that shows it is there.
needs="
gcc:/usr/bin/gcc
make:/usr/bin/make
libjsmn-dev:/usr/include/jsmn.h
libcmocka-dev:/usr/include/cmocka.h
emscripten:/usr/bin/emcc
chromium:/usr/bin/chromium
nodejs:node
npm:npm
python3:python3
"
missing=""
for entry in $needs; do
  package=${entry%%:*}
  probe=${entry#*:}
  case $probe in
    /*) [ -e "$probe" ] || missing="$missing $package" ;;
    *) command -v "$probe" > /dev/null 2>&1 || missing="$missing $package" ;;
  esac
done

if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages:$missing" >&2
    echo "install-deps: run as root, or: sudo apt-get install$missing" >&2
    exit 1
  fi
  echo "install-deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q > /dev/null
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y -q $missing > /dev/null
fi

# The npm packages, as package-lock.json pins them, when node_modules is older.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install-deps: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
