#!/bin/sh
# What makes a committed page's bytes besides its sources: the Emscripten that compiles its
# module and the zopfli that packs it. Another version of either gives other bytes
# for the same sources (Debian 13 has emscripten 3.1.69, Debian 12 3.1.6), so the tests that
# hold web/widget.html and web/explorer.html equal to a fresh build compare bytes only when
# this machine's pair is the one web/BUILT_WITH records for the page (tests/js/support.mjs).
#
#   scripts/built_with.sh --version         this machine's pair: "emcc 3.1.6, zopfli 1.0.3-1"
#   scripts/built_with.sh PAGE...           records it in web/BUILT_WITH for each page (make widget, make explorer)
#   scripts/built_with.sh --matches PAGE... exits 0 when each page's record is this machine's
set -eu
cd "$(dirname "$0")/.."
record=web/BUILT_WITH

version() {
  emcc=$(NODE_PATH=/usr/share/nodejs emcc --version 2> /dev/null | sed -n '1s/.*) \([0-9][0-9.]*\).*/\1/p')
  zopfli=$(dpkg-query -W -f '${Version}' zopfli 2> /dev/null || true)
  echo "emcc ${emcc:-none}, zopfli ${zopfli:-none}"
}

case ${1:-} in
  --version) version ;;
  --matches)
    shift
    now=$(version)
    for page in "$@"; do
      grep -qxF "$page: $now" "$record" 2> /dev/null || exit 1
    done
    ;;
  '' | -*) echo "usage: scripts/built_with.sh --version | --matches PAGE... | PAGE..." >&2; exit 2 ;;
  *)
    now=$(version)
    touch "$record"
    for page in "$@"; do
      { grep -vF "$page: " "$record" || true; echo "$page: $now"; } | sort > "$record.tmp"
      mv "$record.tmp" "$record"
    done
    ;;
esac
