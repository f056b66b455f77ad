# Z. The zkVM model (docs/zkvm.md): --zk-model and --zk-segment-po2.
# shellcheck shell=bash

# zk_refused NAME OPTIONS...: the tool stops before the program with a
# non-zero exit and a message naming NAME.
zk_refused() {
    local name=$1 rc
    shift
    vg --tool=cycprof --pprof=no "$@" /bin/true >out.txt 2>err.txt
    rc=$?
    [ $rc -ne 0 ] || note "$* was accepted (exit 0)"
    grep -q -- "$name" err.txt out.txt || note "$*: no message naming $name"
}

# Bad values are refused as other options' are; RISC Zero's range is
# risc0-zkp's MIN_CYCLES_PO2 13 to MAX_CYCLES_PO2 24.
t_zkvm_options() {
    need_tool
    zk_refused --zk-model --zk-model=sp1
    zk_refused --zk-model --zk-model=
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=12
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=25
    zk_refused --zk-segment-po2 --zk-model=risc0 --zk-segment-po2=x
    zk_refused --zk-segment-po2 --zk-segment-po2=20
    local o
    for o in "--zk-model=none" "--zk-model=risc0" "--zk-model=risc0 --zk-segment-po2=13" \
        "--zk-model=risc0 --zk-segment-po2=24"; do
        # shellcheck disable=SC2086
        vg --tool=cycprof --pprof=no --cycprof-out-file="$PWD/ok.out" $o /bin/true \
            >out.txt 2>&1 || note "$o was refused: $(tail -n 2 out.txt | tr '\n' ' ')"
    done
}
register zkvm-options t_zkvm_options
