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
flags="-std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$out -I$src/cli -I$src/cli/commands -I$src/cli/formats -I$src/cli/util"
common="$src/cli/util/cmdutil.c $src/cli/util/intern.c $src/cli/util/tuplemap.c"
clang $flags -o "$out/fuzz_callgrind" "$here/fuzz_callgrind.c" $common \
    "$src/cli/formats/callgrind_reader.c" "$src/cli/commands/cost_rank.c"
clang $flags -o "$out/fuzz_pprof" "$here/fuzz_pprof.c" $common \
    "$src/cli/formats/pprof_reader.c" "$src/cli/formats/stack_profile.c" \
    "$src/cli/formats/flamegraph_svg.c" "$src/cli/formats/pprof_costs.c" \
    "$src/cli/formats/callgrind_reader.c" "$src/cli/commands/cost_rank.c" \
    "$out/profile.pb-c.c" -lz -lprotobuf-c
clang $flags -DLR_INITIAL=4096u -o "$out/fuzz_stacks" "$here/fuzz_stacks.c" \
    "$src/cli/formats/stacks_reader.c" "$src/cli/util/line_reader.c" "$src/cli/formats/stack_merge.c" \
    "$src/cli/util/cmdutil.c"
echo "built $out/fuzz_callgrind $out/fuzz_pprof $out/fuzz_stacks"
