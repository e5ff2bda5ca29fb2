#!/bin/sh
# tests/deps/deps_test.sh: scripts/install-deps.sh on a bare Debian 12, played by stubs. A copy
# of the script runs in a scratch tree with a PATH of stubs (apt-get, apt-cache, dpkg-query,
# id, node, npm) and the few real tools it uses, and INSTALL_DEPS_ROOT pointing its file
# probes at an empty directory. The stub apt-get "installs" Debian 12's nodejs (18.19.0) and
# npm; the stub npm's `install -g node@20` puts a node 20 ahead of it. Each stub writes
# what it was asked into a log, and the checks read the log and the script's output.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
passed=0
failed=0
check() { # check NAME COMMAND...
  name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
}

# The real tools the script needs besides the stubs.
mkdir -p "$tmp/tools"
for tool in sh sed awk grep dirname cat chmod cp mkdir; do
  ln -s "$(command -v "$tool")" "$tmp/tools/$tool" || exit 1
done

# stub NAME BODY: an executable shell script in the stub directory.
stub() {
  printf '#!/bin/sh\n%s\n' "$2" > "$stubs/$1"
  chmod +x "$stubs/$1"
}

# A scenario's tree: the script, a package-lock.json, stubs, an empty root, a log.
# setup USER NODE NPM: USER is root or user; NODE the node there at first ("" none, or a
# version); NPM yes or no.
setup() {
  case_dir=$tmp/case$((passed + failed))
  stubs=$case_dir/stubs
  mkdir -p "$case_dir/repo/scripts" "$stubs" "$case_dir/root"
  cp "$here/scripts/install-deps.sh" "$case_dir/repo/scripts/"
  echo '{}' > "$case_dir/repo/package-lock.json"
  log=$case_dir/log
  : > "$log"
  uid=0
  [ "$1" = root ] || uid=1000
  stub id "[ \"\$1\" = -u ] && echo $uid"
  stub dpkg-query 'exit 1'
  stub apt-cache "echo \"apt-cache \$*\" >> '$log'; echo 'nodejs:'; echo '  Candidate: 18.19.0+dfsg-6~deb12u2'"
  # apt-get: --print-uris lists one 1 MiB package a name; install -y "installs" nodejs 18 and npm
  stub apt-get "echo \"apt-get \$*\" >> '$log'
case \" \$* \" in
  *' --print-uris '*) for p in \"\$@\"; do case \$p in -*|install) ;; *) echo \"'http://deb.debian.org/\$p.deb' \$p.deb 1048576 SHA256:0\" ;; esac; done ;;
  *' -y '*) case \" \$* \" in *' nodejs '*) printf '#!/bin/sh\necho v18.19.0\n' > '$stubs/node'; chmod +x '$stubs/node' ;; esac
            case \" \$* \" in *' npm '*) cp '$case_dir/npm' '$stubs/npm' ;; esac ;;
esac"
  # npm: install -g node@20 puts a node 20 first on the PATH; ci fills node_modules
  cat > "$case_dir/npm" <<NPM
#!/bin/sh
echo "npm \$*" >> '$log'
case " \$* " in
  *" install -g "*"node@20"*) mkdir -p '$case_dir/global'; printf '#!/bin/sh\\necho v20.19.0\\n' > '$case_dir/global/node'; chmod +x '$case_dir/global/node' ;;
  *" ci "*) mkdir -p node_modules; echo '{}' > node_modules/.package-lock.json ;;
  *" prefix -g "*) echo '$case_dir/global' ;;
esac
NPM
  chmod +x "$case_dir/npm"
  [ "$3" = yes ] && cp "$case_dir/npm" "$stubs/npm"
  [ -n "$2" ] && stub node "echo v$2"
  return 0
}

# run_script: the copy, with the stubs and tools as the whole PATH (npm's global bin first,
# as /usr/local/bin is on Debian), on a bare root; output in $case_dir/out, status in $status.
run_script() {
  PATH="$case_dir/global:$stubs:$tmp/tools" INSTALL_DEPS_ROOT="$case_dir/root" \
    sh "$case_dir/repo/scripts/install-deps.sh" > "$case_dir/out" 2>&1
  status=$?
}
logged() { grep -q -- "$1" "$log"; }
not() { ! "$@"; }
said() { grep -q -- "$1" "$case_dir/out"; }
lines_saying() { grep -c -- "$1" "$case_dir/out"; }
# the line number of the first log line holding $1
at() { grep -n -- "$1" "$log" | head -n 1 | cut -d: -f1; }

# 1. A bare Debian 12 as root: no node, no npm. apt-get installs everything, npm among the
# packages; Node.js is 18, so npm installs Node.js 20, says so in one line, and goes on to npm ci.
setup root "" no
run_script
check "bare Debian 12: exits 0" [ "$status" -eq 0 ]
check "bare Debian 12: apt-get installs npm with the other packages" logged "apt-get .* install -y gcc make libjsmn-dev libcmocka-dev emscripten zopfli chromium nodejs npm python3 clang libclang-rt-dev"
check "bare Debian 12: then npm install -g node@20" logged "npm install -g .*node@20"
check "bare Debian 12: says so in one line" [ "$(lines_saying 'node@20')" -eq 1 ]
check "bare Debian 12: the line names the version it found" said "Node.js v18.19.0 is older than 20: installing Node.js 20 from the npm registry"
check "bare Debian 12: goes on to npm ci" logged "npm ci"
check "bare Debian 12: in that order" [ "$(at 'install -y')0" -lt "$(at 'node@20')0" -a "$(at 'node@20')0" -lt "$(at 'npm ci')0" ]
check "bare Debian 12: node_modules filled" [ -f "$case_dir/repo/node_modules/.package-lock.json" ]

# 2. Debian 12's nodejs 18 there already, npm not (issue 20: install-deps used to stop here,
# before installing the npm that its own advice needed).
setup root 18.19.0 no
run_script
check "node 18 without npm: exits 0" [ "$status" -eq 0 ]
check "node 18 without npm: installs npm" logged "install -y .* npm python3"
check "node 18 without npm: not nodejs" not logged "install -y .*nodejs"
check "node 18 without npm: then Node.js 20 from npm" logged "npm install -g .*node@20"
check "node 18 without npm: npm ci" logged "npm ci"

# 3. Everything there, node 20 (Debian 13): no apt-get, no npm install -g; only npm ci.
setup root 20.19.2 yes
for path in /usr/bin/gcc /usr/bin/make /usr/include/jsmn.h /usr/include/cmocka.h /usr/bin/emcc /usr/bin/zopfli /usr/bin/chromium /usr/bin/clang; do
  mkdir -p "$case_dir/root$(dirname "$path")"
  : > "$case_dir/root$path"
done
stub python3 'exit 0'
stub dpkg-query 'echo "install ok installed"'
run_script
check "Debian 13: exits 0" [ "$status" -eq 0 ]
check "Debian 13: no apt-get" not logged "apt-get"
check "Debian 13: no npm install -g" not logged "install -g"
check "Debian 13: npm ci" logged "npm ci"

# 4. Not root, node 18 and npm there, nothing else missing but the files: it names the
# packages and stops before anything; with nothing missing, it names the npm command.
setup user 18.19.0 yes
run_script
check "not root: exits 1" [ "$status" -eq 1 ]
check "not root: names the packages" said "sudo apt-get install gcc"
check "not root: runs neither apt-get nor npm" [ ! -s "$log" ]
for path in /usr/bin/gcc /usr/bin/make /usr/include/jsmn.h /usr/include/cmocka.h /usr/bin/emcc /usr/bin/zopfli /usr/bin/chromium /usr/bin/clang; do
  mkdir -p "$case_dir/root$(dirname "$path")"
  : > "$case_dir/root$path"
done
stub python3 'exit 0'
stub dpkg-query 'echo "install ok installed"'
run_script
check "not root, only node old: exits 1" [ "$status" -eq 1 ]
check "not root, only node old: one line" [ "$(wc -l < "$case_dir/out")" -eq 1 ]
check "not root, only node old: naming the command" said "sudo npm install -g node@20"

# 5. npm's node 20 lands where the PATH does not reach first: refused in one line.
setup root 18.19.0 yes
for path in /usr/bin/gcc /usr/bin/make /usr/include/jsmn.h /usr/include/cmocka.h /usr/bin/emcc /usr/bin/zopfli /usr/bin/chromium /usr/bin/clang; do
  mkdir -p "$case_dir/root$(dirname "$path")"
  : > "$case_dir/root$path"
done
stub python3 'exit 0'
stub dpkg-query 'echo "install ok installed"'
PATH="$stubs:$tmp/tools:$case_dir/global" INSTALL_DEPS_ROOT="$case_dir/root" \
  sh "$case_dir/repo/scripts/install-deps.sh" > "$case_dir/out" 2>&1
status=$?
check "node 20 behind node 18 on the PATH: exits 1" [ "$status" -eq 1 ]
check "node 20 behind node 18 on the PATH: says where to look" said "node on the PATH is still v18.19.0"
check "node 20 behind node 18 on the PATH: no npm ci" not logged "npm ci"

echo "deps_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
