// SP1's cycle-tracker markers, printed as a zkVM guest prints them, run
// natively: cycprof turns them into regions.  work_a/work_b are separate
// functions so that cachegrind gives each one's cost.
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

fn main() {
    println!("cycle-tracker-start: setup");
    let a = work_a(1000);
    println!("cycle-tracker-start: inner");
    let b = work_b(5000);
    println!("cycle-tracker-end: inner");
    println!("cycle-tracker-end: setup");
    println!("cycle-tracker-report-start: verify");
    let c = work_a(2000);
    println!("cycle-tracker-report-end: verify");
    println!("{}", a ^ b ^ c);
}
