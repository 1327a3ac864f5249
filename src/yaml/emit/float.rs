//! Go-compatible float formatting (`strconv.FormatFloat` with the 'g', 'e' and 'f' verbs).
//!
//! All formatters work from a decimal digit string (`Digits`): the shortest round-trip
//! digits (from `ryu`) or the digits rounded to a fixed number of significant digits.

use std::fmt::Write as _;

/// Significant decimal digits of a non-negative finite float: value = 0.d1d2d3... × 10^dp.
/// No leading or trailing zeros; `nd == 0` means zero.
pub(crate) struct Digits {
    buf: [u8; 40],
    nd: usize,
    dp: i32,
}

impl Digits {
    fn digits(&self) -> &[u8] {
        &self.buf[..self.nd]
    }

    /// Parses a decimal text such as `1.5e-7`, `123.0`, `0.0001` (no sign).
    fn from_decimal_text(s: &str) -> Digits {
        let mut d = Digits {
            buf: [0; 40],
            nd: 0,
            dp: 0,
        };
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], s[i + 1..].parse::<i32>().unwrap_or(0)),
            None => (s, 0),
        };
        let mut seen_point = false;
        let mut int_len: i32 = 0;
        let mut leading_zeros_after_point: i32 = 0;
        for &b in mant.as_bytes() {
            match b {
                b'.' => seen_point = true,
                b'0'..=b'9' => {
                    if d.nd == 0 && b == b'0' {
                        // leading zero: it shifts the decimal point only after the point
                        if seen_point {
                            leading_zeros_after_point += 1;
                        }
                        continue;
                    }
                    if !seen_point {
                        int_len += 1;
                    }
                    if d.nd < d.buf.len() {
                        d.buf[d.nd] = b;
                        d.nd += 1;
                    }
                }
                _ => {}
            }
        }
        // trim trailing zeros
        while d.nd > 0 && d.buf[d.nd - 1] == b'0' {
            d.nd -= 1;
        }
        if d.nd == 0 {
            d.dp = 0;
        } else {
            d.dp = int_len - leading_zeros_after_point + exp;
        }
        d
    }

    /// Shortest digits that round-trip (Go's `prec == -1`). `f` must be finite.
    pub(crate) fn shortest(f: f64) -> Digits {
        let f = f.abs();
        if f == 0.0 {
            return Digits {
                buf: [0; 40],
                nd: 0,
                dp: 0,
            };
        }
        let mut b = ryu::Buffer::new();
        Digits::from_decimal_text(b.format_finite(f))
    }

    /// Digits rounded (half to even on exact ties) to `prec` significant digits.
    pub(crate) fn rounded(f: f64, prec: usize) -> Digits {
        let f = f.abs();
        if f == 0.0 {
            return Digits::shortest(0.0);
        }
        let prec = prec.clamp(1, 17);
        // the shortest digits are the rounded ones when they are no more: a normal
        // float's neighbours are closer than a unit of the 15th digit (not so for a
        // subnormal one: 5e-324 is 4.94066e-324 to six digits)
        if f.is_normal() && prec <= 15 {
            let shortest = Digits::shortest(f);
            if shortest.nd <= prec {
                return shortest;
            }
        }
        // 36 significant digits of the exact binary value are plenty to decide the rounding.
        let mut s = String::with_capacity(48);
        let _ = write!(s, "{:.35e}", f);
        let exact = Digits::from_decimal_text(&s);
        let mut d = Digits {
            buf: [0; 40],
            nd: prec,
            dp: exact.dp,
        };
        d.buf[..prec].copy_from_slice(&exact.buf[..prec]);
        let rest = &exact.digits()[prec.min(exact.nd)..];
        let round_up = match rest.first() {
            None => false,
            Some(&c) if c > b'5' => true,
            Some(&c) if c < b'5' => false,
            Some(_) => {
                if rest[1..].iter().any(|&c| c != b'0') {
                    true
                } else {
                    // exact tie: round half to even
                    (d.buf[prec - 1] - b'0') % 2 == 1
                }
            }
        };
        if round_up {
            let mut i = prec;
            loop {
                if i == 0 {
                    // all nines: 999 -> 1000
                    d.buf[0] = b'1';
                    d.nd = 1;
                    d.dp += 1;
                    break;
                }
                i -= 1;
                if d.buf[i] == b'9' {
                    d.nd = i; // drop the trailing nine (it becomes a trailing zero)
                } else {
                    d.buf[i] += 1;
                    d.nd = i + 1;
                    break;
                }
            }
        }
        while d.nd > 0 && d.buf[d.nd - 1] == b'0' {
            d.nd -= 1;
        }
        d
    }
}

/// Go `%e` layout of the digits: `d.ddde±XX` (at least two exponent digits).
fn write_e(out: &mut String, d: &Digits) {
    let digits = d.digits();
    if digits.is_empty() {
        out.push_str("0e+00");
        return;
    }
    out.push(digits[0] as char);
    if digits.len() > 1 {
        out.push('.');
        // digits are ASCII
        out.push_str(std::str::from_utf8(&digits[1..]).unwrap_or(""));
    }
    let exp = d.dp - 1;
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let a = exp.unsigned_abs();
    if a < 10 {
        out.push('0');
    }
    let _ = write!(out, "{a}");
}

/// Go `%f` layout with exactly the significant digits (no extra precision).
fn write_f(out: &mut String, d: &Digits) {
    let digits = std::str::from_utf8(d.digits()).unwrap_or("");
    if digits.is_empty() {
        out.push('0');
        return;
    }
    let dp = d.dp;
    if dp <= 0 {
        out.push_str("0.");
        for _ in 0..(-dp) {
            out.push('0');
        }
        out.push_str(digits);
    } else if dp as usize >= digits.len() {
        out.push_str(digits);
        for _ in 0..(dp as usize - digits.len()) {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..dp as usize]);
        out.push('.');
        out.push_str(&digits[dp as usize..]);
    }
}

/// Go `%g` layout: exponent form when the exponent is < -4 or >= `eprec`.
fn write_g(out: &mut String, d: &Digits, eprec: i32) {
    let exp = d.dp - 1;
    if d.nd > 0 && (exp < -4 || exp >= eprec) {
        write_e(out, d);
    } else {
        write_f(out, d);
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)` for a finite `f`, appended to `out`.
pub(crate) fn write_go_g_shortest(out: &mut String, f: f64) {
    if f.is_sign_negative() {
        out.push('-');
    }
    write_g(out, &Digits::shortest(f), 6);
}

/// Float as the YAML emitter prints it (`.inf`, `-.inf`, `.nan`, else Go 'g' shortest).
pub(crate) fn write_float_yaml(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str(".nan");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
    } else {
        write_go_g_shortest(out, f);
    }
}

/// Float as Go's `fmt` `%v` prints it (used by the `pos` format).
pub(crate) fn write_float_go_v(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("NaN");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        write_go_g_shortest(out, f);
    }
}

/// Float as Go's `encoding/json` prints it: 'f' unless |f| < 1e-6 or |f| >= 1e21, then
/// 'e' with `e-07` shortened to `e-7`. `f` must be finite.
pub(crate) fn write_float_json(out: &mut String, f: f64) {
    if f.is_sign_negative() {
        out.push('-');
    }
    let abs = f.abs();
    let d = Digits::shortest(abs);
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let start = out.len();
        write_e(out, &d);
        // clean up e-09 to e-9
        let b = out.as_bytes();
        let n = b.len();
        if n - start >= 4 && b[n - 4] == b'e' && b[n - 3] == b'-' && b[n - 2] == b'0' {
            let last = b[n - 1] as char;
            out.truncate(n - 2);
            out.push(last);
        }
    } else {
        write_f(out, &d);
    }
}

/// The YAML spelling of a float: Go `strconv.FormatFloat(f, 'g', -1, 64)` (shortest
/// round trip; whole numbers without `.0`; `1e+21` style exponents), with `.inf`, `-.inf`
/// and `.nan`.
pub fn format_float_yaml(f: f64) -> String {
    let mut s = String::with_capacity(24);
    write_float_yaml(&mut s, f);
    s
}

/// Starlark `str(float)` in the reference: Go `strconv.FormatFloat(f, 'g', 6, 64)`
/// (`0.1+0.2` → `0.3`, `1.0` → `1`, `1e20` → `1e+20`, `1234567.0` → `1.23457e+06`);
/// infinities and NaN as Go spells them (`+Inf`, `-Inf`, `NaN`).
pub fn format_float_str(f: f64) -> String {
    let mut s = String::with_capacity(16);
    if f.is_nan() {
        s.push_str("NaN");
    } else if f.is_infinite() {
        s.push_str(if f > 0.0 { "+Inf" } else { "-Inf" });
    } else {
        if f.is_sign_negative() {
            s.push('-');
        }
        write_g(&mut s, &Digits::rounded(f, 6), 6);
    }
    s
}

/// Go `encoding/json` float text, or `None` for infinities and NaN.
pub fn format_float_json(f: f64) -> Option<String> {
    if !f.is_finite() {
        return None;
    }
    let mut s = String::with_capacity(24);
    write_float_json(&mut s, f);
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_floats() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (0.0, "0"),
            (-0.0, "-0"),
            (1.5, "1.5"),
            (0.5, "0.5"),
            (-0.5, "-0.5"),
            (1e3, "1000"),
            (1500.0, "1500"),
            (0.001, "0.001"),
            (685230.15, "685230.15"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e20, "1e+20"),
            (1e21, "1e+21"),
            (1e-7, "1e-07"),
            (2.5e-10, "2.5e-10"),
            (123456789.0, "1.23456789e+08"),
            (123456789012345678901234567890.0, "1.2345678901234568e+29"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (10.5, "10.5"),
            (f64::INFINITY, ".inf"),
            (f64::NEG_INFINITY, "-.inf"),
            (f64::NAN, ".nan"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
        ];
        for (f, want) in cases {
            assert_eq!(format_float_yaml(*f), *want, "{f:?}");
        }
    }

    #[test]
    fn starlark_str_floats() {
        let cases: &[(f64, &str)] = &[
            (0.1 + 0.2, "0.3"),
            (1.0, "1"),
            (1e20, "1e+20"),
            (1234567.0, "1.23457e+06"),
            (1.0 / 3.0, "0.333333"),
            (2.0 / 3.0, "0.666667"),
            (100000.0, "100000"),
            (999999.5, "1e+06"),
            (1e6, "1e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123.456789, "123.457"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (0.0, "0"),
            (1234565.0, "1.23456e+06"),
            (1234575.0, "1.23458e+06"),
            (9.9999999, "10"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
            (5e-324, "4.94066e-324"),
            (-0.0, "-0"),
            (1e21, "1e+21"),
            (1e-7, "1e-07"),
            (123456.7, "123457"),
            (1e16, "1e+16"),
            (1000.0, "1000"),
        ];
        for (f, want) in cases {
            assert_eq!(format_float_str(*f), *want, "{f:?}");
        }
    }

    #[test]
    fn json_floats() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (123456789.0, "123456789"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.2345678901234568e29, "1.2345678901234568e+29"),
            (-1.5e-10, "-1.5e-10"),
            (2.5e-100, "2.5e-100"),
            (0.0, "0"),
            (-0.0, "-0"),
            (685230.15, "685230.15"),
        ];
        for (f, want) in cases {
            assert_eq!(format_float_json(*f).unwrap(), *want, "{f:?}");
        }
        assert!(format_float_json(f64::NAN).is_none());
    }
}
