#!/bin/sh
# Seeds the fuzz corpus with real ocloc output: every tests/kernels/*.cl for every platform in
# both formats. Needs ocloc (scripts/setup-oracles).
set -e
cd "$(dirname "$0")"
mkdir -p corpus/parse_program
for f in ../tests/kernels/*.cl; do
  for d in skl icllp tgllp acm-g10; do
    for fmt in patchtokens zebin; do
      out=$(mktemp -d)
      extra=""
      [ "$fmt" = zebin ] && extra="--format zebin"
      if ocloc -q -file "$f" -device "$d" -out_dir "$out" -output out -output_no_suffix -options -cl-std=CL2.0 $extra >/dev/null 2>&1; then
        cp "$out/out" "corpus/parse_program/$(basename "$f" .cl)-$d-$fmt"
      fi
      rm -rf "$out"
    done
  done
done
