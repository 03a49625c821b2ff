//! Medians, means, percentiles, and how durations are printed.

use std::time::Duration;

/// Timings of one measurement, in seconds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Samples(pub Vec<f64>);

impl Samples {
    pub(crate) fn push(&mut self, elapsed: Duration) {
        self.0.push(elapsed.as_secs_f64());
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    fn sorted(&self) -> Vec<f64> {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        sorted
    }

    /// The median (the mean of the middle two for an even count).
    pub(crate) fn median(&self) -> f64 {
        let sorted = self.sorted();
        let n = sorted.len();
        match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => sorted[n / 2],
            _ => f64::midpoint(sorted[n / 2 - 1], sorted[n / 2]),
        }
    }

    pub(crate) fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    /// The nearest-rank percentile `p` (0..=100).
    pub(crate) fn percentile(&self, p: f64) -> f64 {
        let sorted = self.sorted();
        if sorted.is_empty() {
            return f64::NAN;
        }
        let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
        sorted[rank.clamp(1, sorted.len()) - 1]
    }
}

/// A duration in seconds, printed with a unit that keeps 3 significant digits.
pub(crate) fn time(seconds: f64) -> String {
    if seconds.is_nan() {
        "-".into()
    } else if seconds >= 10.0 {
        format!("{seconds:.1} s")
    } else if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 0.1 {
        format!("{:.0} ms", seconds * 1e3)
    } else if seconds >= 0.01 {
        format!("{:.1} ms", seconds * 1e3)
    } else if seconds >= 0.001 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.0} µs", seconds * 1e6)
    }
}

/// A size in bytes, in MiB (or KiB below one MiB).
pub(crate) fn size(bytes: u64) -> String {
    let bytes = bytes as f64;
    if bytes >= f64::from(1 << 20) {
        format!("{:.1} MiB", bytes / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", bytes / 1024.0)
    }
}

/// A ratio, as `12.3×`.
pub(crate) fn ratio(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}×")
    } else if value >= 10.0 {
        format!("{value:.1}×")
    } else {
        format!("{value:.2}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_percentile() {
        let samples = Samples(vec![3.0, 1.0, 2.0]);
        assert_eq!(samples.median(), 2.0);
        assert_eq!(Samples(vec![4.0, 1.0, 2.0, 3.0]).median(), 2.5);
        let hundred = Samples((1..=100).map(f64::from).collect());
        assert_eq!(hundred.percentile(99.0), 99.0);
        assert_eq!(hundred.percentile(100.0), 100.0);
        assert_eq!(hundred.mean(), 50.5);
    }

    #[test]
    fn units() {
        assert_eq!(time(12.345), "12.3 s");
        assert_eq!(time(0.5), "500 ms");
        assert_eq!(time(0.0123), "12.3 ms");
        assert_eq!(time(0.000_25), "250 µs");
        assert_eq!(size(3 << 20), "3.0 MiB");
        assert_eq!(ratio(31.25), "31.2×");
    }
}
