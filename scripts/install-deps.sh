#!/bin/sh
# Installs what the build and the tests need and this machine lacks: Debian's packages
# (apt-get, as root) and the locked npm packages (npm ci). Says what it installs and how
# much it downloads; quiet and quick when nothing is missing. Tried on Debian 12
# (bookworm). Browsers and toolchains come from Debian only: nothing downloads one.
set -eu
cd "$(dirname "$0")/.."

# playwright-core 1.65 needs Node.js 20; Debian 12's own nodejs is 18.
NODE_MAJOR=20

# Debian package, and what shows it is there: a file, a command, or "dpkg" for a package
# that dpkg lists as installed.
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

refuse_node() { # refuse_node WHAT-WAS-FOUND
  echo "install-deps: found $1, but the tests need Node.js $NODE_MAJOR or newer (playwright-core 1.65); install Node.js $NODE_MAJOR or newer (Debian 12 and its backports have only 18; one way: npm install -g node@$NODE_MAJOR, a prebuilt Node.js from the npm registry), then run this again" >&2
  exit 1
}

missing=""
for entry in $needs; do
  package=${entry%%:*}
  probe=${entry#*:}
  case $probe in
    /*) [ -e "$probe" ] || missing="$missing $package" ;;
    dpkg) dpkg-query -W -f '${Status}\n' "$package" 2> /dev/null | grep -q ' installed$' ||
      missing="$missing $package" ;;
    *) command -v "$probe" > /dev/null 2>&1 || missing="$missing $package" ;;
  esac
done

# A Node.js that is there but too old is refused before anything is installed.
if command -v node > /dev/null 2>&1; then
  found=$(node --version)
  if too_old "$found"; then refuse_node "Node.js $found ($(command -v node))"; fi
fi

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
  case " $missing " in
    *" nodejs "*)
      candidate=$(apt-cache policy nodejs | sed -n 's/^ *Candidate: //p')
      if too_old "${candidate:-0}"; then refuse_node "Debian's nodejs ${candidate:-(none)} to install"; fi
      ;;
  esac
  # shellcheck disable=SC2086 # one word per package
  size=$($apt install -qq --print-uris $missing | awk '$1 ~ /^'"'"'/ { s += $3 } END { printf "%.1f", s / 1048576 }')
  echo "install-deps: installing$missing and what they need: $size MiB to download"
  # shellcheck disable=SC2086
  $apt install -y $missing
fi

# The npm packages, as package-lock.json pins them, when node_modules is older.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "install-deps: npm ci (the npm packages in package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
fi
