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
common="$src/cli/util/cmdutil.c $src/cli/model/intern.c $src/cli/model/hash_index.c $src/cli/model/tuplemap.c $src/cli/model/event_names.c"
clang $flags -o "$out/fuzz_callgrind" "$here/fuzz_callgrind.c" $common \
    "$src/cli/read/callgrind_reader.c" "$src/cli/read/name_ids.c" "$src/cli/read/profile_costs.c" \
    "$src/cli/read/pprof_reader.c" "$src/cli/read/pb_fields.c" \
    "$src/cli/read/stacks_reader.c" "$src/cli/util/line_reader.c" \
    "$src/cli/model/profile.c" "$src/cli/model/cost_tables.c" \
    "$src/cli/analyse/cost_rank.c" "$out/profile.pb-c.c" -lz -lprotobuf-c
clang $flags -o "$out/fuzz_pprof" "$here/fuzz_pprof.c" $common \
    "$src/cli/read/pprof_reader.c" "$src/cli/read/pb_fields.c" "$src/cli/read/pprof_stacks.c" \
    "$src/cli/read/stacks_reader.c" "$src/cli/util/line_reader.c" \
    "$src/cli/model/profile.c" "$src/cli/model/stack_profile.c" \
    "$src/cli/write/flamegraph_svg.c" "$src/cli/read/profile_costs.c" \
    "$src/cli/model/cost_tables.c" "$src/cli/analyse/cost_rank.c" \
    "$out/profile.pb-c.c" -lz -lprotobuf-c
clang $flags -DLR_INITIAL=4096u -o "$out/fuzz_stacks" "$here/fuzz_stacks.c" \
    "$src/cli/read/stacks_reader.c" "$src/cli/util/line_reader.c" "$src/cli/analyse/stack_merge.c" \
    "$src/cli/model/hash_index.c" "$src/cli/util/cmdutil.c"
echo "built $out/fuzz_callgrind $out/fuzz_pprof $out/fuzz_stacks"
