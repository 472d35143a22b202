#!/bin/sh
# Seeds the fuzz corpora with real ocloc output: every tests/kernels/*.cl for every platform in
# both formats; `dispatch` inputs start with umd::fuzz::SEED_HEADER (written out below). Needs
# ocloc (scripts/setup-oracles).
set -e
cd "$(dirname "$0")"
mkdir -p corpus/parse_program corpus/dispatch
header=$(mktemp)
printf '\000\100\000\001\001\001\001\001\000\001\004\010\010\003\000\000' > "$header"
for f in ../tests/kernels/*.cl ../../intel-gpu-run/examples/fill.cl; do
  for d in skl icllp tgllp acm-g10; do
    for fmt in patchtokens zebin; do
      out=$(mktemp -d)
      extra=""
      [ "$fmt" = zebin ] && extra="--format zebin"
      if ocloc -q -file "$f" -device "$d" -out_dir "$out" -output out -output_no_suffix -options -cl-std=CL2.0 $extra >/dev/null 2>&1; then
        name="$(basename "$f" .cl)-$d-$fmt"
        cp "$out/out" "corpus/parse_program/$name"
        cat "$header" "$out/out" > "corpus/dispatch/$name"
      fi
      rm -rf "$out"
    done
  done
done
rm -f "$header"
