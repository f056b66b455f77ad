// SP1's cycle-tracker markers, printed as a zkVM guest prints them, run
// natively: cycprof turns them into regions.  Each region calls its own
// function (work_a, work_b, work_c), so that cachegrind's self cost of that
// function is the cost of that one call: a function called twice would give
// only the sum, which cannot be split (its cost per call is not a fixed
// multiple of n: LLVM unrolls the loop, with a prologue and a remainder).
// work_c's body differs from work_a's so that rustc does not merge the two.
#[inline(never)]
fn work_a(n: u64) -> u64 {
    let mut s = 0u64;
    let mut i = 0;
    while i < n {
        s = s.wrapping_mul(31).wrapping_add(i);
        i += 1;
    }
    s
}

#[inline(never)]
fn work_b(n: u64) -> u64 {
    let mut s = 1u64;
    let mut i = 0;
    while i < n {
        s = s.wrapping_mul(17) ^ i;
        i += 1;
    }
    s
}

#[inline(never)]
fn work_c(n: u64) -> u64 {
    let mut s = 7u64;
    let mut i = 0;
    while i < n {
        s = s.wrapping_mul(13).wrapping_add(i ^ 5);
        i += 1;
    }
    s
}

fn main() {
    println!("cycle-tracker-start: setup");
    let a = work_a(1000);
    println!("cycle-tracker-start: inner");
    let b = work_b(5000);
    println!("cycle-tracker-end: inner");
    println!("cycle-tracker-end: setup");
    println!("cycle-tracker-report-start: verify");
    let c = work_c(2000);
    println!("cycle-tracker-report-end: verify");
    println!("{}", a ^ b ^ c);
}
