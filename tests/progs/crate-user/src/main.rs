//! Uses the cycprof crate as a dependency: count() around a call that runs
//! only when the argument is 1 (the difference of the two reads goes to
//! fd 3 as 8 raw bytes), then regions: a guard and a closure, nested.
use std::io::Write;
use std::os::unix::io::FromRawFd;

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

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let doit = arg.as_bytes().first().map(|b| (b - b'0') as u64).unwrap_or(0);
    let c0 = cycprof::count();
    let s = work(1000 * doit);
    let c1 = cycprof::count();
    let d = c1 - c0;
    // SAFETY: fd 3 is opened by the test.
    let mut f = unsafe { std::fs::File::from_raw_fd(3) };
    f.write_all(&d.to_le_bytes()).unwrap();
    let t = {
        let _outer = cycprof::Region::new("outer");
        cycprof::region("inner", || work(500))
    };
    std::process::exit(((s ^ t) & 1) as i32);
}
