//! Fibonacci three ways, as in RISC Zero's profiling example: plain
//! iterative, batched iterative and matrix exponentiation. `cargo cycprof`
//! shows exactly how many instructions each one costs.
//!
//! fib(k) is computed for every k up to n (the command-line argument),
//! because a single matrix-exponentiation fib(n) is a few hundred
//! instructions: too little to show up next to the program's start-up.
//! Numbers are taken modulo a prime with plain `while` loops and `%`, so
//! that no standard-library code is inlined: each function's cost is one
//! row of the report, not spread over rows of core's source files. No
//! HashMap either (its random seed changes the count from run to run):
//! two runs count exactly the same.

const M: u64 = 1_000_000_007;

/// One addition per step.
#[inline(never)]
fn fib_iterative(n: u64) -> u64 {
    let (mut a, mut b, mut k) = (0, 1, 0);
    while k < n {
        let t = (a + b) % M;
        a = b;
        b = t;
        k += 1;
    }
    a
}

/// Eight steps per loop iteration, then one at a time: fewer loop tests
/// and fewer reductions for the same additions.
#[inline(never)]
fn fib_batched(n: u64) -> u64 {
    let (mut a, mut b, mut k) = (0, 1, n);
    while k >= 8 {
        // Each term is below 55 * M, far from overflowing a u64.
        let c = a + b;
        let d = b + c;
        let e = c + d;
        let f = d + e;
        let g = e + f;
        let h = f + g;
        a = (g + h) % M;
        b = (h + g + h) % M;
        k -= 8;
    }
    while k > 0 {
        let t = (a + b) % M;
        a = b;
        b = t;
        k -= 1;
    }
    a
}

type Mat = [u64; 4]; // [a b; c d], row-major

fn mat_mul(x: Mat, y: Mat) -> Mat {
    let m = |p: u64, q: u64, r: u64, s: u64| (p * q % M + r * s % M) % M;
    [
        m(x[0], y[0], x[1], y[2]),
        m(x[0], y[1], x[1], y[3]),
        m(x[2], y[0], x[3], y[2]),
        m(x[2], y[1], x[3], y[3]),
    ]
}

/// [1 1; 1 0]^n = [fib(n+1) fib(n); fib(n) fib(n-1)], by repeated
/// squaring: O(log n) matrix products.
#[inline(never)]
fn fib_matrix(n: u64) -> u64 {
    let (mut acc, mut base, mut e): (Mat, Mat, u64) = ([1, 0, 0, 1], [1, 1, 1, 0], n);
    while e > 0 {
        if e & 1 == 1 {
            acc = mat_mul(acc, base);
        }
        base = mat_mul(base, base);
        e >>= 1;
    }
    acc[1]
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    // #[inline(never)] keeps each a call with its own cost in the profile
    // (std::hint::black_box would too, but needs Rust 1.66; Debian 12 has
    // 1.63).
    let mut last = 0;
    let mut k = 0;
    while k <= n {
        // Named regions (the cycprof crate): `cargo cycprof` prints their
        // table after the report, like SP1's cycle tracker.
        let i = cycprof::region("fib_iterative", || fib_iterative(k));
        let b = cycprof::region("fib_batched", || fib_batched(k));
        let m = cycprof::region("fib_matrix", || fib_matrix(k));
        assert!(i == b && b == m, "fib({k}): {i} {b} {m}");
        last = i;
        k += 1;
    }
    println!("fib({n}) mod {M} = {last} (iterative, batched and matrix agree for every k <= {n})");
}
