//! Times as people read them, in integer arithmetic: core's float formatting would add its
//! code to the wasm for a few labels.

use alloc::format;
use alloc::string::String;

/// `4.2 ms`, `73 ms`, `1.25 s`, `12.5 s`, `180 s`.
pub fn ms(ms: f64) -> String {
    let ms = if ms.is_finite() && ms > 0.0 { ms } else { 0.0 };
    if ms < 10.0 {
        return format!("{} ms", decimals(ms, 1));
    }
    if ms < 1000.0 {
        return format!("{} ms", round(ms));
    }
    let s = ms / 1000.0;
    match s {
        _ if s < 10.0 => format!("{} s", decimals(s, 2)),
        _ if s < 100.0 => format!("{} s", decimals(s, 1)),
        _ => format!("{} s", round(s)),
    }
}

/// `f64::floor`, which is in std, not core, for the small finite sizes the player computes.
pub fn floor(x: f64) -> f64 {
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

fn round(x: f64) -> u64 {
    (x + 0.5) as u64
}

/// `x` with `d` decimals, trailing zeros dropped (`1.50` -> `1.5`, `2.00` -> `2`).
fn decimals(x: f64, d: u32) -> String {
    let scale = 10u64.pow(d);
    let n = round(x * scale as f64);
    let (whole, mut frac, mut width) = (n / scale, n % scale, d as usize);
    if frac == 0 {
        return format!("{whole}");
    }
    while frac % 10 == 0 {
        frac /= 10;
        width -= 1;
    }
    format!("{whole}.{frac:0width$}")
}

#[cfg(test)]
mod tests {
    use super::ms;

    #[test]
    fn times_read_as_people_write_them() {
        assert_eq!(ms(4.23), "4.2 ms");
        assert_eq!(ms(0.0), "0 ms");
        assert_eq!(ms(0.04), "0 ms");
        assert_eq!(ms(73.4), "73 ms");
        assert_eq!(ms(999.4), "999 ms");
        assert_eq!(ms(1250.0), "1.25 s");
        assert_eq!(ms(5060.0), "5.06 s");
        assert_eq!(ms(5000.0), "5 s");
        assert_eq!(ms(12_500.0), "12.5 s");
        assert_eq!(ms(180_000.0), "180 s");
        assert_eq!(ms(-3.0), "0 ms");
    }
}
