//! Three ways to compute Fibonacci numbers, for `cargo cycprof`: the
//! profile shows exactly how many instructions each one costs.
//! Deterministic on purpose (no HashMap, whose random seed changes the
//! instruction count from run to run), so two runs count the same.

/// Exponential: the call tree makes a tall tower in the flame graph.
#[inline(never)]
fn fib_recursive(n: u32) -> u64 {
    if n < 2 {
        n as u64
    } else {
        fib_recursive(n - 1) + fib_recursive(n - 2)
    }
}

/// Linear, with a memo table.
#[inline(never)]
fn fib_memo(n: u32, memo: &mut Vec<Option<u64>>) -> u64 {
    if let Some(v) = memo[n as usize] {
        return v;
    }
    let v = if n < 2 {
        n as u64
    } else {
        fib_memo(n - 1, memo) + fib_memo(n - 2, memo)
    };
    memo[n as usize] = Some(v);
    v
}

/// Linear, two variables.
#[inline(never)]
fn fib_iterative(n: u32) -> u64 {
    let (mut a, mut b) = (0u64, 1u64);
    for _ in 0..n {
        let t = a.wrapping_add(b);
        a = b;
        b = t;
    }
    a
}

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let r = fib_recursive(n);
    let mut memo = vec![None; n as usize + 1];
    let m = fib_memo(n, &mut memo);
    let i = fib_iterative(n);
    assert!(r == m && m == i);
    println!("fib({n}) = {r}");
}
