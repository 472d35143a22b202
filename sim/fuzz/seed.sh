#!/bin/sh
# Seeds the ioctl corpus: inputs only reach an ioctl after the pick byte and the 256-byte
# scratch seed (see sim::fuzz), which libFuzzer's slowly growing lengths take long to get
# past. One input per (platform, driver) pick, each then naming every known request in turn.
set -e
cd "$(dirname "$0")"
mkdir -p corpus/ioctl
for pick in 0 1 2 3 4 5 6 7; do
  {
    printf "\\$(printf %03o "$pick")"
    head -c 256 /dev/zero
    tag=0
    while [ "$tag" -lt 128 ]; do
      printf "\\$(printf %03o "$tag")"
      tag=$((tag + 1))
    done
  } > "corpus/ioctl/seed-$pick"
done
