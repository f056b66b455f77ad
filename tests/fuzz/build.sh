#!/bin/sh
# Build the libFuzzer harnesses: tests/fuzz/build.sh OUTDIR
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev),
# protoc-c, zlib and protobuf-c.
set -eu
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../cycprof
mkdir -p "$out"
protoc-c --proto_path="$src/proto" --c_out="$out" "$src/proto/profile.proto"
flags="-std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$out -I$src/cli"
common="$src/cli/cmdutil.c $src/cli/intern.c $src/cli/tuplemap.c"
clang $flags -o "$out/fuzz_callgrind" "$here/fuzz_callgrind.c" $common \
    "$src/cli/callgrind_reader.c" "$src/cli/cost_rank.c"
clang $flags -o "$out/fuzz_pprof" "$here/fuzz_pprof.c" $common \
    "$src/cli/pprof_reader.c" "$src/cli/stack_profile.c" \
    "$src/cli/flamegraph_svg.c" "$out/profile.pb-c.c" -lz -lprotobuf-c
clang $flags -DLR_INITIAL=4096u -o "$out/fuzz_stacks" "$here/fuzz_stacks.c" \
    "$src/cli/stacks_reader.c" "$src/cli/line_reader.c" "$src/cli/stack_merge.c" \
    "$src/cli/cmdutil.c"
echo "built $out/fuzz_callgrind $out/fuzz_pprof $out/fuzz_stacks"
