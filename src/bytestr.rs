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
//! Starlark's strings are byte strings too: `len`, indexing, slices, `find` offsets and
//! `elems()` count bytes, and joining strings turns carried bytes that meet into the chars
//! they form. That is the vendored starlark's patch (`vendor/starlark/PATCHES.md`), which
//! owns the mapping: [`decode`], [`encode`] and [`may_carry`] are its own.
//!
//! Cost on ordinary text: the reserved chars encode as `F4 8F BE xx` / `F4 8F BF xx`, and
//! a 0xF4 byte only appears in chars ≥ U+100000, so both directions first look for a
//! 0xF4 byte (an ASCII test for short text, a `memchr`) and return their input unchanged
//! (borrowed) when there is none.

use std::borrow::Cow;

pub use starlark::values::string::bytestr::{decode, encode, may_carry, normalize};

/// [`decode`] of bytes known to be UTF-8.
pub fn decode_str(s: &str) -> Cow<'_, str> {
    if may_carry(s) {
        decode(s.as_bytes())
    } else {
        Cow::Borrowed(s)
    }
}

/// [`decode`] of an owned buffer (no copy when it is ordinary UTF-8).
pub fn decode_vec(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) if !may_carry(&s) => s,
        Ok(s) => decode(s.as_bytes()).into_owned(),
        Err(e) => decode(e.as_bytes()).into_owned(),
    }
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

    /// Starlark's strings are Go's byte strings (the vendored starlark's patch): each line
    /// after the first three holds, measured against the reference. `c` cuts `é` after its
    /// first byte.
    #[test]
    fn starlark_strings_are_bytes() {
        let table = r#"
s = "café-über-日本"
c = s[:4]
e = "a😀b"
len(s) == 18 and len(c) == 4 and len(e) == 6 and len("") == 0
len(s[3]) == 1 and s[3] != "é" and s[3] + s[4] == "é" and s[3:5] == "é"
s[-1] == s[17] and s[-18] == "c"
s[:5] == "café" and s[4:6] + "x" == s[4] + "-x"
s[::3] == "c" + s[3] + s[6] + "e" + s[12] + s[15] and s[::-1][::-1] == s
e[1:5] == "😀" and e[1:4] + e[4:] == "😀b"
s.find("ü") == 6 and s.find("-", 6) == 11 and s.find("-", 6, 10) == -1
s.find("-", -8) == 11 and s.find("", 100) == 18 and s.find(s[3]) == 3
s.rfind("本") == 15 and s.rfind("-", 0, 8) == 5 and s.rfind(s[3]) == 6
s.index("-") == 5 and s.rindex("é", 0, 5) == 3
s.count(s[3]) == 2 and s.count("é", 0, 4) == 0 and s.count("") == 13 and c.count("") == 5
s.startswith("über", 6) and s.endswith("é", 0, 5) and not s.endswith("é", 0, 4)
s[3] in s and c in s and not (s[4] + s[3]) in s
list(c.elem_ords()) == [99, 97, 102, 195] and list(c.codepoint_ords()) == [99, 97, 102, 65533]
list(c.elems()) == ["c", "a", "f", s[3]] and list(c.codepoints()) == ["c", "a", "f", s[3]]
list(e.codepoints()) == ["a", "😀", "b"] and list(e.codepoint_ords()) == [97, 128512, 98]
"".join([s[3], s[4]]) == "é" and "%s%s" % (s[3], s[4]) == "é" and "{}{}".format(s[3], s[4]) == "é"
((s[4] + s[3]) * 2)[1:3] == "é" and {"café": 1}[s[:3] + s[3] + s[4]] == 1
s.split(s[3]) == ["caf", s[4] + "-", s[7:]] and s.partition(s[4]) == (c, s[4], s[5:])
c.strip(s[4]) == "caf" and c.upper() == "CAF\ufffd"
sorted(["é", s[3], "z", "a"]) == ["a", "z", s[3], "é"]
ord(s[3]) == 65533 and hash(c) == 3111221 and hash(e) == 4077187
repr(c) == '"caf\\xc3"'
"#;
        let mut lines = table.trim().lines();
        let prelude: Vec<&str> = lines.by_ref().take(3).collect();
        for check in lines {
            starlark::assert::is_true(&format!("{}\n{check}", prelude.join("\n")));
        }
    }
}
