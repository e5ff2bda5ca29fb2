#!/bin/sh
# make validate: the model against measured all-reduces, a line a system and GPU count.
# Usage: scripts/validate.sh GPUSPLIT MEASURED_DIR SYSTEM:SOURCE_DIR:LESSON_LINK:GPU:LINK ...
# (GPU and LINK empty when the catalogue has no entry for the system).
set -eu
bin=$1
dir=$2
shift 2
printf '%-22s %5s %20s %20s %20s\n' system GPUs "(a) lesson" "(b) catalogue+auto" "(c) calibrated"
for spec in "$@"; do
  IFS=: read -r name source lesson gpu link <<EOF_SPEC
$spec
EOF_SPEC
  set -- "$dir/${name}_nccl.csv" --name "$name" --source-dir "$source" --lesson-link "$lesson"
  [ -n "$gpu" ] && set -- "$@" --gpu "$gpu" --link "$link"
  "$bin" validate "$@"
done
echo "median / worst relative error from 8 KiB to 1 MiB: (a) the lesson's fast link (slow on PCIe"
echo "systems); (b) the catalogue's GPU and link with --nccl auto ('-': not in the catalogue);"
echo "(c) fitted to every other message size of the table, tested on the sizes left out."
