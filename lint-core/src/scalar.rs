//! Plain YAML scalars typed as kubectl types them.
//!
//! kubectl converts YAML to JSON with sigs.k8s.io/yaml, which reads it with its fork of go-yaml
//! v2 (YAML 1.1 rules, `resolve` in resolve.go). Its reading is not YAML 1.2's, and manifests
//! depend on it: `on` and `yes` are booleans, `0644` is the octal 420 (a file mode), `0o17`
//! and `0b101` are integers (Go's `strconv.ParseInt` with base 0), `1_000` is 1000, `08` is
//! the float 8, and `.inf` cannot be written as JSON at all. Keys are typed too, then written
//! back as JSON strings: `on:` is the key `"true"`, `0x10:` the key `"16"`.
//!
//! Timestamps (`2019-12-01`) stay the strings they were written as (sigs.k8s.io/yaml keeps
//! them), so they are strings here.

use crate::node::ScalarKind;

/// The type of a plain (unquoted, untagged) scalar, as go-yaml v2 resolves it.
pub fn resolve_plain(text: &str) -> ScalarKind {
    let Some(&first) = text.as_bytes().first() else {
        return ScalarKind::Null;
    };
    // go-yaml's resolve table: the first character decides what the scalar may be.
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            special_word(text).unwrap_or(ScalarKind::Str)
        }
        b'.' => match special_word(text) {
            Some(k) => k,
            None if dot_float(text) => ScalarKind::Float,
            None => ScalarKind::Str,
        },
        b'+' | b'-' | b'0'..=b'9' => {
            if let Some(k) = special_word(text) {
                return k;
            }
            let plain: String = text.chars().filter(|&c| c != '_').collect();
            if int_of(&plain).is_some() {
                ScalarKind::Int
            } else if float_of(&plain).is_some() {
                ScalarKind::Float
            } else {
                ScalarKind::Str
            }
        }
        _ => ScalarKind::Str,
    }
}

/// Whether a writer may put `text` down as a plain scalar: every reader takes it back as
/// the same string. kubectl's reading ([`resolve_plain`]) is not enough: a YAML 1.1 reader
/// (PyYAML, Ruby's Psych, go-yaml decoding into a typed field) takes `2019-12-01` and
/// `2019-12-01T13:50:44-07:00` for timestamps, `12:30:00` for the sexagesimal 45000, `=` for
/// the value key and `<<` for a merge, and YAML 1.2 readers read `0o17`-style numbers too.
/// Such strings are quoted.
pub fn plain_is_same_string(text: &str) -> bool {
    resolve_plain(text) == ScalarKind::Str
        && !yaml11_timestamp(text)
        && !sexagesimal(text)
        && !matches!(text, "=" | "<<")
}

/// A YAML 1.1 timestamp (<https://yaml.org/type/timestamp.html>): `YYYY-M-D`, optionally
/// followed by `T` or spaces, `H:MM:SS`, a fraction and a zone.
fn yaml11_timestamp(t: &str) -> bool {
    let b = t.as_bytes();
    let digits = |from: usize, min: usize, max: usize| -> Option<usize> {
        let n = b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (min..=max).contains(&n).then_some(from + n)
    };
    let Some(i) = digits(0, 4, 4) else {
        return false;
    };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    let Some(i) = digits(i + 1, 1, 2) else {
        return false;
    };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    let Some(i) = digits(i + 1, 1, 2) else {
        return false;
    };
    if i == b.len() {
        return true; // a date
    }
    let mut i = match b[i] {
        b'T' | b't' => i + 1,
        b' ' | b'\t' => {
            i + b[i..]
                .iter()
                .take_while(|c| matches!(c, b' ' | b'\t'))
                .count()
        }
        _ => return false,
    };
    // Hour (one or two digits), minute and second (two each).
    for (min, colon_after) in [(1, true), (2, true), (2, false)] {
        let Some(j) = digits(i, min, 2) else {
            return false;
        };
        i = j;
        if colon_after {
            if b.get(i) != Some(&b':') {
                return false;
            }
            i += 1;
        }
    }
    if b.get(i) == Some(&b'.') {
        i += 1 + b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    let rest = t[i..].trim_start_matches([' ', '\t']);
    rest.is_empty()
        || rest == "Z"
        || (rest.starts_with(['+', '-'])
            && rest[1..].split(':').enumerate().all(|(k, part)| {
                (if k == 0 {
                    (1..=2).contains(&part.len())
                } else {
                    k == 1 && part.len() == 2
                }) && part.bytes().all(|c| c.is_ascii_digit())
            }))
}

/// A YAML 1.1 sexagesimal integer or float (`190:20:30`, `-1:30.5`): digits, then `:` groups
/// of one or two digits.
fn sexagesimal(t: &str) -> bool {
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (whole, fraction) = match t.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (t, None),
    };
    let mut groups = whole.split(':');
    let head = groups.next().unwrap_or("");
    let mut rest = groups.peekable();
    rest.peek().is_some()
        && !head.is_empty()
        && head.bytes().all(|c| c.is_ascii_digit() || c == b'_')
        && rest.all(|g| (1..=2).contains(&g.len()) && g.bytes().all(|c| c.is_ascii_digit()))
        && fraction.is_none_or(|f| f.bytes().all(|c| c.is_ascii_digit() || c == b'_'))
}

/// The words go-yaml v2 resolves by table (resolve.go's `resolveMap`).
pub(crate) fn special_word(text: &str) -> Option<ScalarKind> {
    Some(match text {
        "" | "~" | "null" | "Null" | "NULL" => ScalarKind::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            ScalarKind::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            ScalarKind::Bool(false)
        }
        _ if is_infinite_or_nan(text) => ScalarKind::Float,
        _ => return None,
    })
}

/// `.inf`, `-.Inf`, `.nan`, ...: floats to go-yaml, which JSON cannot hold (kubectl fails the
/// document: "json: unsupported value: +Inf").
pub fn is_infinite_or_nan(text: &str) -> bool {
    matches!(
        text,
        ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | ".nan"
            | ".NaN"
            | ".NAN"
    )
}

/// A scalar starting with `.` that Go's `strconv.ParseFloat` reads: `.5`, `.5e3`.
fn dot_float(text: &str) -> bool {
    let rest = &text[1..];
    let (frac, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
        && exp.is_none_or(|e| {
            let e = e.strip_prefix(['-', '+']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)` (go-yaml tries both):
/// an optional sign, then `0x`/`0o`/`0b` prefixes, a leading `0` for octal, else decimal.
/// `s` has no underscores (go-yaml removes them first).
fn int_of(s: &str) -> Option<i128> {
    let (neg, signed, body) = match s.as_bytes().first()? {
        b'-' => (true, true, &s[1..]),
        b'+' => (false, true, &s[1..]),
        _ => (false, false, s),
    };
    if body.is_empty() {
        return None;
    }
    let lower = |i: usize| body.as_bytes().get(i).map(u8::to_ascii_lowercase);
    let (base, digits) = if body.as_bytes()[0] == b'0' {
        match lower(1) {
            Some(b'b') if body.len() >= 3 => (2, &body[2..]),
            Some(b'o') if body.len() >= 3 => (8, &body[2..]),
            Some(b'x') if body.len() >= 3 => (16, &body[2..]),
            _ => (8, &body[1..]),
        }
    } else {
        (10, body)
    };
    let mut v: i128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(base)? as i128;
        v = v.checked_mul(base as i128)?.checked_add(d)?;
        if v > u64::MAX as i128 {
            return None;
        }
    }
    // ParseInt's range, or (unsigned, no sign) ParseUint's.
    let v = if neg { -v } else { v };
    let fits_i64 = v >= i64::MIN as i128 && v <= i64::MAX as i128;
    (fits_i64 || (!signed && v <= u64::MAX as i128)).then_some(v)
}

/// go-yaml's float: `yamlStyleFloat` (`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
/// and a finite `strconv.ParseFloat`. `s` has no underscores.
fn float_of(s: &str) -> Option<f64> {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let mant_ok = match mant.split_once('.') {
        Some(("", frac)) => !frac.is_empty() && digits(frac),
        Some((int, frac)) => !int.is_empty() && digits(int) && digits(frac),
        None => !mant.is_empty() && digits(mant),
    };
    let exp_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !(mant_ok && exp_ok) {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// The value of a scalar typed [`ScalarKind::Int`].
pub fn int_value(text: &str) -> Option<i128> {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    int_of(&plain)
}

/// The value of a scalar typed [`ScalarKind::Float`] (a finite one).
pub fn float_value(text: &str) -> Option<f64> {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    match plain.as_bytes().first() {
        Some(b'.') if dot_float(&plain) => plain.parse().ok(),
        _ => float_of(&plain),
    }
}

/// A typed plain key as the JSON key kubectl writes (sigs.k8s.io/yaml's
/// `convertToJSONableObject`): booleans as `true`/`false`, integers in decimal, floats as Go's
/// `strconv.FormatFloat(f, 'g', -1, 32)`. `None` for a key JSON cannot have (null).
pub fn json_key(text: &str, kind: ScalarKind) -> Option<String> {
    match kind {
        ScalarKind::Str => Some(text.to_string()),
        ScalarKind::Bool(b) => Some(b.to_string()),
        ScalarKind::Int => int_value(text).map(|v| v.to_string()),
        ScalarKind::Float => float_value(text).map(|f| go_format_f32(f as f32)),
        ScalarKind::Null => None,
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that read back as the same
/// float32, in `%e` form when the exponent is below -4 or at least 6 (the precision Go's 'g'
/// uses for this decision when the digits are the shortest: `1e+06`).
fn go_format_f32(f: f32) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Rust's `{:e}` prints the shortest round-trip digits: "1.5e3", "-1e-6".
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if !(-4..6).contains(&exp) {
        let frac = &digits[1..];
        let dot = if frac.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{}{dot}{frac}e{esign}{:02}", &digits[..1], exp.abs());
    }
    let n = digits.len() as i32;
    let body = if exp < 0 {
        format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
    } else if exp + 1 >= n {
        format!("{digits}{}", "0".repeat((exp + 1 - n) as usize))
    } else {
        format!(
            "{}.{}",
            &digits[..(exp + 1) as usize],
            &digits[(exp + 1) as usize..]
        )
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What kubectl 1.36 (`kubectl label --local -o json`) made of each plain scalar.
    #[test]
    fn strings_other_readers_take_for_other_types_are_not_plain() {
        for t in [
            "2019-12-01",
            "2019-12-01T13:50:44-07:00",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z",
            "2002-1-5",
            "12:30:00",
            "190:20:30",
            "-1:30.5",
            "=",
            "<<",
            "yes",
            "0755",
            "1e3",
        ] {
            assert!(!plain_is_same_string(t), "{t} must be quoted");
        }
        for t in [
            "2019-12",
            "v1.2.3",
            "12:3x",
            "a:b",
            "10.0.0.1",
            "pd-ssd",
            "2019-12-01x",
            ":30",
            "1:300",
        ] {
            assert!(plain_is_same_string(t), "{t} may stay plain");
        }
    }

    #[test]
    fn plain_scalars_resolve_like_kubectl() {
        use ScalarKind::*;
        for (text, kind) in [
            ("yes", Bool(true)),
            ("y", Bool(true)),
            ("N", Bool(false)),
            ("off", Bool(false)),
            ("3", Int),
            ("-0x1F", Int),
            ("+0x1F", Int),
            ("0755", Int),
            ("0o17", Int),
            ("0b101", Int),
            ("-0b11", Int),
            ("0b_101", Int),
            ("0x_1F", Int),
            ("1_000", Int),
            ("00", Int),
            ("9999999999999999999", Int),
            ("08", Float),
            ("1.5", Float),
            ("1e3", Float),
            ("1.5e+3", Float),
            ("1.", Float),
            (".5", Float),
            ("-.5", Float),
            ("1_0.5", Float),
            (".inf", Float),
            ("~", Null),
            ("", Null),
            ("Null", Null),
            ("0o", Str),
            ("1e", Str),
            ("12:30:00", Str),
            ("2019-12-01", Str),
            ("2019-12-01T13:50:44-07:00", Str),
            ("30Gi", Str),
            ("1.2.3", Str),
            ("25%", Str),
            ("e5", Str),
            (".", Str),
            ("_1", Str),
            ("-", Str),
            ("+", Str),
        ] {
            assert_eq!(resolve_plain(text), kind, "{text:?}");
        }
        assert_eq!(int_value("0755"), Some(493));
        assert_eq!(int_value("-0755"), Some(-493));
        assert_eq!(int_value("0o17"), Some(15));
        assert_eq!(int_value("0x_1F"), Some(31));
        assert_eq!(int_value("0b101"), Some(5));
        assert_eq!(int_value("1_000"), Some(1000));
        assert_eq!(int_value("0400"), Some(256));
        assert_eq!(float_value("08"), Some(8.0));
    }

    #[test]
    fn typed_keys_are_written_as_kubectl_writes_them() {
        for (text, want) in [
            ("on", Some("true")),
            ("n", Some("false")),
            ("0x10", Some("16")),
            ("1e3", Some("1000")),
            ("1.5", Some("1.5")),
            ("0.000001", Some("1e-06")),
            ("1e21", Some("1e+21")),
            ("1e6", Some("1e+06")),
            ("123456", Some("123456")),
            ("~", None),
        ] {
            assert_eq!(
                json_key(text, resolve_plain(text)).as_deref(),
                want,
                "{text:?}"
            );
        }
    }
}
