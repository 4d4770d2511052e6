//! Kubernetes resource quantities (`5Gi`, `500M`, `1.5e3`, `100m`), parsed with the
//! grammar of k8s.io/apimachinery `resource.ParseQuantity` and compared exactly.

use std::cmp::Ordering;
use std::fmt;

/// value = mantissa × 10^exp10 × 2^exp2, with the sign kept apart.
///
/// The mantissa is kept as two `u64` halves: a `u128` field would align the quantity, and every
/// claim and volume that holds one, to 16 bytes (a quantity is 40 bytes instead of 48).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantity {
    pub text: crate::string::Str,
    negative: bool,
    /// At most 60 (`Ei`).
    exp2: u8,
    exp10: i32,
    /// (low, high) halves of the mantissa: see [`Quantity::mantissa`].
    halves: [u64; 2],
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Quantity>() == 40);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantityError(pub String);

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

const HINT: &str =
    "quantities must match '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', e.g. 30Gi, 500Mi, 1G";

impl Quantity {
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let err =
            |why: &str| QuantityError(format!("\"{text}\" is not a valid quantity: {why}; {HINT}"));
        if text.is_empty() {
            return Err(err("it is empty"));
        }
        let (negative, rest) = match text.as_bytes()[0] {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (num, suffix) = rest.split_at(num_len);
        if num.is_empty() || num == "." {
            return Err(err("it has no number"));
        }
        if num.matches('.').count() > 1 {
            return Err(err("the number has more than one '.'"));
        }
        let (int_part, frac_part) = num.split_once('.').unwrap_or((num, ""));
        let digits: String = format!("{int_part}{frac_part}");
        let digits = digits.trim_start_matches('0');
        let mantissa: u128 = if digits.is_empty() {
            0
        } else if digits.len() > 38 {
            return Err(err("the number has too many digits"));
        } else {
            digits.parse().map_err(|_| err("bad digits"))?
        };
        let mut exp10 = -(frac_part.len() as i32);
        let mut exp2 = 0u8;
        match suffix {
            "" => {}
            "Ki" => exp2 = 10,
            "Mi" => exp2 = 20,
            "Gi" => exp2 = 30,
            "Ti" => exp2 = 40,
            "Pi" => exp2 = 50,
            "Ei" => exp2 = 60,
            "n" => exp10 -= 9,
            "u" => exp10 -= 6,
            "m" => exp10 -= 3,
            "k" => exp10 += 3,
            "M" => exp10 += 6,
            "G" => exp10 += 9,
            "T" => exp10 += 12,
            "P" => exp10 += 15,
            "E" => exp10 += 18,
            s if s.starts_with(['e', 'E']) => {
                let e = &s[1..];
                let body = e.strip_prefix(['+', '-']).unwrap_or(e);
                if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) || body.len() > 6 {
                    return Err(err(&format!("bad exponent \"{s}\"")));
                }
                let v: i32 = e.parse().map_err(|_| err("bad exponent"))?;
                exp10 += v;
            }
            s => {
                let why = match s {
                    "K" => {
                        "unknown suffix \"K\" (decimal kilo is \"k\", binary is \"Ki\")".to_string()
                    }
                    "gi" | "mi" | "ki" | "ti" => format!(
                        "unknown suffix \"{s}\" (suffixes are case-sensitive: {}i)",
                        s[..1].to_ascii_uppercase()
                    ),
                    "GB" | "MB" | "KB" | "TB" => {
                        format!("unknown suffix \"{s}\" (use {} or {}i)", &s[..1], &s[..1])
                    }
                    _ => format!("unknown suffix \"{s}\""),
                };
                return Err(err(&why));
            }
        }
        Ok(Quantity {
            text: crate::string::Str::new(text),
            negative: negative && mantissa != 0,
            exp2,
            exp10,
            halves: [mantissa as u64, (mantissa >> 64) as u64],
        })
    }

    fn mantissa(&self) -> u128 {
        u128::from(self.halves[0]) | (u128::from(self.halves[1]) << 64)
    }

    pub fn is_negative(&self) -> bool {
        self.negative
    }

    pub fn is_zero(&self) -> bool {
        self.mantissa() == 0
    }

    /// The value as apimachinery's `Quantity.Value()` gives it (rounded up to an integer:
    /// bytes for a storage size), as text: what the external-provisioner's messages print.
    pub fn bytes_text(&self) -> String {
        let v = self.key().div_ceil(1000);
        if self.negative && v > 0 {
            format!("-{v}")
        } else {
            v.to_string()
        }
    }

    /// A sort key: the value in thousandths, rounded down and saturating. Equal keys may hide
    /// a difference below 0.001; compare with `Ord` when that matters.
    pub fn key(&self) -> u128 {
        if self.negative || self.mantissa() == 0 {
            return 0;
        }
        let mut m = self.mantissa();
        let e = self.exp10 + 3;
        if e >= 0 {
            for _ in 0..e {
                m = m.saturating_mul(10);
            }
        } else {
            for _ in 0..(-e) {
                m /= 10;
            }
        }
        if self.exp2 > 0 {
            if m.leading_zeros() < u32::from(self.exp2) {
                return u128::MAX;
            }
            m <<= u32::from(self.exp2);
        }
        m
    }

    fn cmp_magnitude(&self, other: &Quantity) -> Ordering {
        if self.mantissa() == 0 || other.mantissa() == 0 {
            return self.mantissa().cmp(&other.mantissa());
        }
        // Bring both to the same power of ten, then apply the binary exponent; all checked.
        let common = self.exp10.min(other.exp10);
        let scale = |q: &Quantity| -> Option<u128> {
            let mut m = q.mantissa();
            for _ in 0..(q.exp10 - common) {
                m = m.checked_mul(10)?;
            }
            if q.exp2 > 0 {
                if m.leading_zeros() < u32::from(q.exp2) {
                    return None;
                }
                m <<= u32::from(q.exp2);
            }
            Some(m)
        };
        match (scale(self), scale(other)) {
            (Some(a), Some(b)) => a.cmp(&b),
            // Beyond u128 (values above 10^38 after scaling): compare logarithms, which is
            // exact for any two quantities that differ by more than rounding error.
            _ => {
                let la = (self.mantissa() as f64).log10()
                    + self.exp10 as f64
                    + f64::from(self.exp2) * 2f64.log10();
                let lb = (other.mantissa() as f64).log10()
                    + other.exp10 as f64
                    + f64::from(other.exp2) * 2f64.log10();
                la.partial_cmp(&lb).unwrap_or(Ordering::Equal)
            }
        }
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn parses_and_compares_exactly() {
        assert_eq!(q("1Gi").cmp(&q("1024Mi")), Ordering::Equal);
        assert_eq!(q("1G").cmp(&q("1Gi")), Ordering::Less);
        assert_eq!(q("1.5Gi").cmp(&q("1536Mi")), Ordering::Equal);
        assert_eq!(q("1e9").cmp(&q("1G")), Ordering::Equal);
        assert_eq!(q("1E3").cmp(&q("1k")), Ordering::Equal);
        assert_eq!(q("100m").cmp(&q("0.1")), Ordering::Equal);
        assert_eq!(q("10Gi").cmp(&q("1Gi")), Ordering::Greater);
        assert_eq!(q("-1").cmp(&q("0")), Ordering::Less);
        assert_eq!(q("0.000000001").cmp(&q("1n")), Ordering::Equal);
        assert_eq!(q("8Ei").cmp(&q("9223372036854775808")), Ordering::Equal);
        assert_eq!(q("1e40").cmp(&q("1e39")), Ordering::Greater);
        assert_eq!(q("+5").cmp(&q("5")), Ordering::Equal);
        assert_eq!(q(".5Gi").cmp(&q("512Mi")), Ordering::Equal);
    }

    #[test]
    fn rejects_what_kubernetes_rejects() {
        for bad in [
            "30GG", "10gi", "1.5.5Gi", "10 Gi", "", "Gi", "10KB", "1K", "1e", "--1", ".",
        ] {
            assert!(Quantity::parse(bad).is_err(), "{bad} should be rejected");
        }
        let e = Quantity::parse("10gi").unwrap_err().0;
        assert!(e.contains("case-sensitive"), "{e}");
    }
}
