//! What the benchmarks share: timing two operations side by side.

use std::time::Instant;

/// Operations per second of `a` and of `b`, timed in alternating slices of 250 ms over
/// about 3 s, so that a machine busy with other work slows both alike.
pub fn rates(a: &dyn Fn(), b: &dyn Fn()) -> (f64, f64) {
    let mut totals = [(0u32, 0f64); 2];
    for _ in 0..6 {
        for (i, f) in [a, b].into_iter().enumerate() {
            f();
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed().as_millis() < 250 {
                f();
                n += 1;
            }
            totals[i].0 += n;
            totals[i].1 += start.elapsed().as_secs_f64();
        }
    }
    let per_second = |(n, secs): (u32, f64)| f64::from(n) / secs;
    (per_second(totals[0]), per_second(totals[1]))
}
