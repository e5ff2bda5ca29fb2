#!/bin/sh
# Installs what the build and the tests need and this machine lacks: Debian's packages
# (apt-get, as root) and the locked npm packages (npm ci). Says what it installs and how
# much it downloads; quiet and quick when nothing is missing. Tried on Debian 12
# (bookworm) and 13 (trixie). Browsers and toolchains come from Debian only: nothing
# downloads one. The one exception is Node.js on Debian 12, whose nodejs is 18: Node.js 20
# then comes from the npm registry's `node` package (below).
set -eu
cd "$(dirname "$0")/.."

# playwright-core 1.65 needs Node.js 20; Debian 12's own nodejs is 18 (Debian 13's is 20).
NODE_MAJOR=20
# Where the file probes below look: "" (the machine itself); tests/deps_test.sh points it at
# an empty directory to play a bare Debian.
root=${INSTALL_DEPS_ROOT:-}

# Debian package, and what shows it is there: a file, a command, or "dpkg" for a package
# that dpkg lists as installed.
needs="
gcc:/usr/bin/gcc
make:/usr/bin/make
libjsmn-dev:/usr/include/jsmn.h
libcmocka-dev:/usr/include/cmocka.h
emscripten:/usr/bin/emcc
zopfli:/usr/bin/zopfli
chromium:/usr/bin/chromium
nodejs:node
npm:npm
python3:python3
clang:/usr/bin/clang
libclang-rt-dev:dpkg
"

# too_old VERSION: VERSION (18.20.4, v18.20.4, 1:18.20.4+dfsg-1) is below NODE_MAJOR.
too_old() {
  v=${1#*:}
  v=${v#v}
  major=${v%%[!0-9]*}
  [ "${major:-0}" -lt "$NODE_MAJOR" ]
}

missing=""
for entry in $needs; do
  package=${entry%%:*}
  probe=${entry#*:}
  case $probe in
    /*) [ -e "$root$probe" ] || missing="$missing $package" ;;
    dpkg) dpkg-query -W -f '${Status}\n' "$package" 2> /dev/null | grep -q ' installed$' ||
      missing="$missing $package" ;;
    *) command -v "$probe" > /dev/null 2>&1 || missing="$missing $package" ;;
  esac
done

if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing Debian packages:$missing" >&2
    echo "install-deps: run as root, or: sudo apt-get install$missing" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # Wait for another apt-get or dpkg (an unattended upgrade, say) rather than fail.
  apt="apt-get -q -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0"
  echo "install-deps: missing Debian packages:$missing"
  echo "install-deps: apt-get update"
  $apt update
  # shellcheck disable=SC2086 # one word per package
  size=$($apt install -qq --print-uris $missing | awk '$1 ~ /^'"'"'/ { s += $3 } END { printf "%.1f", s / 1048576 }')
  echo "install-deps: installing$missing and what they need: $size MiB to download"
  # shellcheck disable=SC2086
  $apt install -y $missing
fi

# Node.js older than NODE_MAJOR (Debian 12's 18): Node.js NODE_MAJOR from the npm registry's
# `node` package, which installs a prebuilt Node.js into npm's global prefix (/usr/local/bin
# on Debian), ahead of Debian's /usr/bin on the PATH. It needs root, as the packages do.
found=$(node --version)
if too_old "$found"; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: Node.js $found ($(command -v node)) is older than $NODE_MAJOR, which playwright-core 1.65 needs: run as root, or: sudo npm install -g node@$NODE_MAJOR" >&2
    exit 1
  fi
  echo "install-deps: Node.js $found is older than $NODE_MAJOR: installing Node.js $NODE_MAJOR from the npm registry (npm install -g node@$NODE_MAJOR)"
  npm install -g --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR"
  hash -r 2> /dev/null || true
  found=$(node --version)
  if too_old "$found"; then
    echo "install-deps: npm installed Node.js $NODE_MAJOR, but node on the PATH is still $found ($(command -v node)): put $(npm prefix -g)/bin ahead of it on the PATH" >&2
    exit 1
  fi
fi

# The npm packages, as package-lock.json pins them, when node_modules is older.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install-deps: npm ci (the npm packages in package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
fi
