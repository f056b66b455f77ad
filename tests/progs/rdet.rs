// A std HashMap (its RandomState seeds from getrandom) and a loop timed by
// Instant (the clock): without --deterministic=yes the instruction count
// changes from run to run; with it the count repeats.
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn main() {
    let mut map = HashMap::new();
    for i in 0..20_000u64 {
        map.insert(format!("key{}", i), i * 3);
    }
    let mut sum = 0u64;
    for (k, v) in &map {
        sum = sum.wrapping_add(*v ^ k.len() as u64);
    }
    // Work until a fixed amount of (virtual) time has passed.
    let start = Instant::now();
    let mut rounds = 0u64;
    while start.elapsed() < Duration::from_micros(300) {
        rounds += 1;
        sum = sum.wrapping_mul(6364136223846793005).wrapping_add(rounds);
    }
    println!("{} {}", map.len(), sum & 1);
}
