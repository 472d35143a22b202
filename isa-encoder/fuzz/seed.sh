#!/bin/sh
# Seeds the fuzz corpora with real IGC output: every kernel of the isa-encoder test corpora, compiled
# by ocloc for each platform; `decode` gets the raw kernel heaps, `parse` their iga64 listings.
# Needs ocloc and iga64 (scripts/setup-oracles).
set -e
cd "$(dirname "$0")"
mkdir -p corpus/decode corpus/parse
for f in ../tests/corpus/*.cl ../tests/compact_corpus/*.cl; do
  for pair in skl:9 icllp:11 tgllp:12p1 acm-g10:12p71; do
    d=${pair%%:*}
    iga=${pair#*:}
    out=$(mktemp -d)
    if ocloc -q -file "$f" -device "$d" -out_dir "$out" -output out -output_no_suffix >/dev/null 2>&1 &&
      ocloc disasm -file "$out/out" -device "$d" -dump "$out/dump" >/dev/null 2>&1; then
      for heap in "$out"/dump/*_KernelHeap.*; do
        [ -e "$heap" ] || continue
        name="$(basename "$(dirname "$f")")-$(basename "$f" .cl)-$(basename "$heap" | sed 's/_KernelHeap.*//')-$d"
        cp "$heap" "corpus/decode/$name"
        iga64 -d -p="$iga" "$heap" -o "corpus/parse/$name.asm" >/dev/null 2>&1 || rm -f "corpus/parse/$name.asm"
      done
    fi
    rm -rf "$out"
  done
done
