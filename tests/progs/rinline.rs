// Built with rustc -O -g (tests/run): mix() and step() are inlined into
// hot(), so the pprof profile must show them as "(inline)" frames above hot.
// std::hint::black_box needs Rust 1.66 and Debian 12's rustc is 1.63: a
// volatile read hides the value from the optimizer on both.
#[inline(always)]
fn black_box(x: u64) -> u64 {
    unsafe { std::ptr::read_volatile(&x) }
}

#[inline(always)]
fn mix(x: u64) -> u64 {
    (x ^ (x >> 7)).wrapping_mul(2654435761)
}

#[inline(always)]
fn step(x: u64, i: u64) -> u64 {
    mix(x.wrapping_add(i)) ^ black_box(i)
}

#[inline(never)]
fn hot(n: u64) -> u64 {
    let mut x = 1;
    for i in 0..n {
        x = step(x, i);
    }
    x
}

fn main() {
    let n: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(5000);
    println!("{}", hot(black_box(n)) != 0);
}
