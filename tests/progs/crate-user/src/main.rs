//! Uses the cycprof crate as a dependency: count() around a call that runs
//! only when the first argument is 1 (the difference of the two reads goes
//! to the file named by the second, as 8 raw bytes), then regions: a guard
//! and a closure, nested.  The closure calls inner_work, called nowhere
//! else, so that cachegrind's self cost of inner_work is the cost of that one
//! call (its body differs from work's, so that rustc does not merge them).
use std::io::Write;

#[inline(never)]
fn work(n: u64) -> u64 {
    let mut s = 0u64;
    let mut i = 0;
    while i < n {
        s = s.wrapping_mul(31).wrapping_add(i);
        i += 1;
    }
    s
}

#[inline(never)]
fn inner_work(n: u64) -> u64 {
    (0..n).fold(1u64, |s, i| s.wrapping_mul(17) ^ i)
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let doit = arg.as_bytes().first().map(|b| (b - b'0') as u64).unwrap_or(0);
    let c0 = cycprof::count();
    let s = work(1000 * doit);
    let c1 = cycprof::count();
    let d = c1 - c0;
    let path = std::env::args().nth(2).unwrap_or_default();
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(&d.to_le_bytes()).unwrap();
    let t = {
        let _outer = cycprof::Region::new("outer");
        cycprof::region("inner", || inner_work(500))
    };
    std::process::exit(((s ^ t) & 1) as i32);
}
