//! Byte strings carried in UTF-8 strings.
//!
//! ytt's strings are byte strings (Go's Starlark and go-yaml): a file read with
//! `data.read()`, the result of `base64.decode()` or a text template may hold bytes that
//! are not UTF-8, and they come out unchanged. starlark-rust's strings, and this
//! project's node tree, hold `str`. So text is carried with a reversible mapping:
//!
//! - a byte that is not part of valid UTF-8 (always ≥ 0x80) is carried as one char of a
//!   reserved range, byte `b` ↦ U+10FF00 + `b` (U+10FF80..=U+10FFFF, the last code points
//!   of the Supplementary Private Use Area-B);
//! - a char of that range found in the input is itself carried as its four UTF-8 bytes,
//!   each mapped as above, so nothing is ambiguous: `encode(&decode(b)) == b` for every
//!   byte string `b`.
//!
//! [`decode`] is applied where bytes become text (text templates, plain text files and
//! Starlark files, `data.read()`, `base64.decode()`, `!!binary` YAML scalars), [`encode`]
//! where text becomes bytes (text outputs, `base64.encode()`, `md5`, `sha256`). The
//! emitters follow the reference for strings that are not UTF-8: YAML writes them as
//! `!!binary` base64 (go-yaml), JSON replaces each invalid byte by `\ufffd` (Go's
//! `encoding/json`).
//!
//! Cost on ordinary text: the reserved chars encode as `F4 8F BE xx` / `F4 8F BF xx`, and
//! a 0xF4 byte only appears in chars ≥ U+100000, so both directions first look for a
//! 0xF4 byte (one `memchr`) and return their input unchanged (borrowed) when there is
//! none.

use std::borrow::Cow;

/// The first reserved char is `BASE + 0x80`.
const BASE: u32 = 0x10FF00;

/// The lead byte of every reserved char (and of every char ≥ U+100000).
const F4: u8 = 0xF4;

/// The carried form of a byte ≥ 0x80.
fn carry(b: u8) -> char {
    char::from_u32(BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The byte a reserved char carries.
#[inline]
fn carried(c: char) -> Option<u8> {
    let cp = c as u32;
    (cp >= BASE + 0x80).then(|| (cp - BASE) as u8)
}

/// Bytes as text: valid UTF-8 stays as it is, other bytes are carried.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        if !has_f4(bytes) {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(decode_slow(bytes))
}

/// [`decode`] of bytes known to be UTF-8.
pub fn decode_str(s: &str) -> Cow<'_, str> {
    if may_carry(s) {
        Cow::Owned(decode_slow(s.as_bytes()))
    } else {
        Cow::Borrowed(s)
    }
}

/// [`decode`] of an owned buffer (no copy when it is ordinary UTF-8).
pub fn decode_vec(bytes: Vec<u8>) -> String {
    if !has_f4(&bytes) {
        match String::from_utf8(bytes) {
            Ok(s) => return s,
            Err(e) => return decode_slow(e.as_bytes()),
        }
    }
    decode_slow(&bytes)
}

fn decode_slow(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 16);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if carried(c).is_some() {
                let mut buf = [0u8; 4];
                for &b in c.encode_utf8(&mut buf).as_bytes() {
                    out.push(carry(b));
                }
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.push(carry(b));
        }
    }
    out
}

/// Whether `s` may carry bytes (a quick test: false means certainly not).
#[inline]
pub fn may_carry(s: &str) -> bool {
    has_f4(s.as_bytes())
}

/// Whether `bytes` hold a 0xF4 byte (a vectorized search: inputs are whole files).
fn has_f4(bytes: &[u8]) -> bool {
    memchr::memchr(F4, bytes).is_some()
}

/// Text as the bytes it stands for.
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    if !may_carry(s) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    let mut buf = [0u8; 4];
    for c in s.chars() {
        match carried(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    Cow::Owned(out)
}

/// [`encode`] of an owned string.
pub fn encode_string(s: String) -> Vec<u8> {
    match encode(&s) {
        Cow::Borrowed(_) => s.into_bytes(),
        Cow::Owned(v) => v,
    }
}

/// What the text stands for, when that is UTF-8 text: `Ok` with the text (borrowed when
/// nothing is carried), or `Err` with the bytes.
pub fn as_utf8(s: &str) -> Result<Cow<'_, str>, Vec<u8>> {
    match encode(s) {
        Cow::Borrowed(_) => Ok(Cow::Borrowed(s)),
        Cow::Owned(v) => String::from_utf8(v)
            .map(Cow::Owned)
            .map_err(|e| e.into_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_borrowed_both_ways() {
        for s in ["", "abc", "é日本語", "emoji 😀", "\u{FFFD}"] {
            assert!(matches!(decode(s.as_bytes()), Cow::Borrowed(x) if x == s));
            assert!(matches!(encode(s), Cow::Borrowed(x) if x == s.as_bytes()));
            assert_eq!(decode_vec(s.as_bytes().to_vec()), s);
        }
    }

    #[test]
    fn bytes_round_trip() {
        let cases: Vec<Vec<u8>> = vec![
            b"caf\xe9".to_vec(),                          // Latin-1
            vec![0x80, 0xFF, 0x00, 0x41, 0xC3],           // stray bytes, truncated sequence
            "x\u{10FF80}y\u{10FFFF}".as_bytes().to_vec(), // reserved chars in the input
            "\u{100000}\u{10FF7F}".as_bytes().to_vec(),   // near the range
            (0..=255u8).collect(),
            vec![0xF4, 0x8F, 0xBE], // a truncated reserved char
        ];
        for b in cases {
            let d = decode(&b);
            assert_eq!(&*encode(&d), &b[..], "{b:x?}");
            assert_eq!(decode_vec(b.clone()), d, "{b:x?}");
            assert_eq!(encode_string(d.into_owned()), b);
        }
    }

    #[test]
    fn carried_bytes_are_one_char_each() {
        let d = decode(b"a\xe9b");
        assert_eq!(d.chars().count(), 3);
        assert_eq!(as_utf8(&d), Err(b"a\xe9b".to_vec()));
        // a reserved char of the input comes back as itself
        let d = decode("\u{10FF80}".as_bytes());
        assert_eq!(d.chars().count(), 4);
        assert_eq!(as_utf8(&d).unwrap(), "\u{10FF80}");
        assert_eq!(as_utf8("plain").unwrap(), "plain");
    }
}
