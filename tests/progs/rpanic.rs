// REPS times: catcher() runs thrower1->thrower2->thrower3 under catch_unwind;
// thrower3 panics; after the catch, catcher calls after_catch().
use std::sync::atomic::{AtomicU64, Ordering};
// std::hint::black_box needs Rust 1.66 and Debian 12's rustc is 1.63: a
// volatile read hides the value from the optimizer on both.
#[inline(always)]
fn black_box(x: u64) -> u64 {
    unsafe { std::ptr::read_volatile(&x) }
}

static SINK: AtomicU64 = AtomicU64::new(0);

#[inline(never)]
fn thrower3(x: u64) {
    SINK.fetch_add(x, Ordering::Relaxed);
    if black_box(x) < u64::MAX {
        panic!("boom");
    }
}
#[inline(never)]
fn thrower2(x: u64) { SINK.fetch_add(1, Ordering::Relaxed); thrower3(x); }
#[inline(never)]
fn thrower1(x: u64) { SINK.fetch_add(1, Ordering::Relaxed); thrower2(x); }
#[inline(never)]
fn after_catch() {
    for i in 0..30u64 { SINK.fetch_add(black_box(i), Ordering::Relaxed); }
}
#[inline(never)]
fn catcher(x: u64) {
    let r = std::panic::catch_unwind(|| thrower1(x));
    if r.is_err() {
        after_catch();
    }
}
fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let reps: u64 = std::env::args().nth(1).map(|s| s.parse().unwrap()).unwrap_or(300);
    for i in 0..reps { catcher(i); }
    println!("{}", SINK.load(Ordering::Relaxed) > 0);
}
