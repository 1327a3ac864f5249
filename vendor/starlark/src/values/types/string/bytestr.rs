/*
 * Copyright 2018 The Starlark in Rust Authors.
 * Copyright (c) Facebook, Inc. and its affiliates.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

//! ytt-rs patch (the whole file): strings are byte strings, as in Go's Starlark.
//!
//! Go's Starlark strings are sequences of bytes: `len` counts bytes, `s[i]` is the `i`-th
//! byte, slices and `find` offsets are in bytes, and a slice may cut a UTF-8 sequence in
//! two. A `StarlarkStr` holds UTF-8, so a byte string is carried in it with a reversible
//! mapping:
//!
//! - a byte that is not part of valid UTF-8 (always ≥ 0x80) is carried as one char of a
//!   reserved range, byte `b` ↦ U+10FF00 + `b` (U+10FF80..=U+10FFFF, the last code points
//!   of the Supplementary Private Use Area-B);
//! - a char of that range in the bytes is itself carried as its four UTF-8 bytes, each
//!   mapped as above, so nothing is ambiguous: `encode(&decode(b)) == b` for every byte
//!   string `b`.
//!
//! Every string is kept in the form [`decode`] gives (canonical): bytes that form valid
//! UTF-8 are chars, so two strings are equal exactly when their bytes are. Operations
//! that join strings ([`normalize`]) restore that form where carried bytes meet.
//!
//! Every reserved char encodes as `F4 8F BE xx` or `F4 8F BF xx`, and 0xF4 only leads
//! chars ≥ U+100000: a string without a 0xF4 byte carries nothing, and its bytes are its
//! UTF-8 bytes. That is the fast path of every operation here (see [`may_carry`]).

use std::borrow::Cow;
use std::cmp::Ordering;

/// The first reserved char is `BASE + 0x80`.
const BASE: u32 = 0x10FF00;

/// The lead byte of every reserved char (and of every char ≥ U+100000).
const F4: u8 = 0xF4;

/// The carried form of a byte ≥ 0x80.
#[inline]
pub(crate) fn carry(b: u8) -> char {
    char::from_u32(BASE + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The byte a reserved char carries.
#[inline]
pub(crate) fn carried(c: char) -> Option<u8> {
    let cp = c as u32;
    (cp >= BASE + 0x80).then(|| (cp - BASE) as u8)
}

/// Whether `s` may carry bytes (false means certainly not).
#[inline]
pub fn may_carry(s: &str) -> bool {
    has_f4(s.as_bytes())
}

/// Whether `bytes` hold a 0xF4 byte. Most strings are short, and most are ASCII: a short
/// one is tested a word at a time (the vectorised `memchr` costs more to set up).
#[inline]
pub(crate) fn has_f4(bytes: &[u8]) -> bool {
    if bytes.len() < 64 {
        return !bytes.is_ascii() && has_f4_short(bytes);
    }
    memchr::memchr(F4, bytes).is_some()
}

/// [`has_f4`] eight bytes at a time: a byte of `w ^ F4F4…` is zero where `w` has 0xF4.
fn has_f4_short(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let x =
            u64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]) ^ (ONES * 0xF4);
        if x.wrapping_sub(ONES) & !x & HIGH != 0 {
            return true;
        }
    }
    words.remainder().contains(&F4)
}

/// Bytes as text: valid UTF-8 stays as it is, other bytes are carried.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if !has_f4(bytes) {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(decode_slow(bytes))
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

/// The canonical form of a string made by joining canonical strings: carried bytes that
/// met and form UTF-8 become chars (`"caf\xc3" + "\xa9" == "café"`).
pub fn normalize(s: String) -> String {
    if !may_carry(&s) {
        return s;
    }
    match decode(&encode(&s)) {
        Cow::Borrowed(x) if x.len() == s.len() => s,
        d => d.into_owned(),
    }
}

/// Whether `s` may join what precedes it into UTF-8: only a carried byte can complete a
/// sequence, and a carried char starts with 0xF4 (one comparison, for pieces being joined).
#[inline]
pub(crate) fn may_join(s: &str) -> bool {
    s.as_bytes().first() == Some(&F4)
}

/// Whether `a + b` may need [`normalize`]: a carried byte ends `a` and one starts `b`.
#[inline]
pub(crate) fn joins_carried(a: &str, b: &str) -> bool {
    may_join(b)
        && b.chars().next().and_then(carried).is_some()
        && a.chars().next_back().and_then(carried).is_some()
}

/// The length in bytes.
#[inline]
pub(crate) fn len(s: &str) -> usize {
    if !may_carry(s) {
        return s.len();
    }
    // a carried byte takes four bytes of UTF-8
    s.len() - 3 * s.chars().filter(|c| carried(*c).is_some()).count()
}

/// The string of byte `b`.
#[inline]
pub(crate) fn byte_char(b: u8) -> char {
    if b < 0x80 { b as char } else { carry(b) }
}

/// The code point Go's Starlark sees for `c`: a carried byte is not UTF-8, so it reads as
/// U+FFFD.
#[inline]
pub(crate) fn rune(c: char) -> char {
    if carried(c).is_some() {
        char::REPLACEMENT_CHARACTER
    } else {
        c
    }
}

/// Bytes `start..end` of `bytes` with the optional `start`/`end` arguments of `find` and
/// the like: negative values count from the end, both are clamped to the string, and an
/// end before the start is the empty string at the start.
pub(crate) fn range(len: usize, start: Option<i32>, end: Option<i32>) -> (usize, usize) {
    let index = |i: i32| {
        let i = i as i64;
        let i = if i < 0 { i + len as i64 } else { i };
        i.clamp(0, len as i64) as usize
    };
    let start = start.map_or(0, index);
    let end = end.map_or(len, index);
    (start, end.max(start))
}

/// The code points Go's Starlark reads in `bytes`: each valid UTF-8 sequence is one, each
/// byte that is not part of one is one (U+FFFD). Yields each one's byte range, and its
/// char (`None` for such a byte).
pub(crate) fn runes(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, Option<char>)> + '_ {
    let mut at = 0;
    bytes.utf8_chunks().flat_map(move |chunk| {
        let start = at;
        at += chunk.valid().len() + chunk.invalid().len();
        let valid = chunk
            .valid()
            .char_indices()
            .map(move |(i, c)| (start + i, start + i + c.len_utf8(), Some(c)));
        let bad = start + chunk.valid().len();
        let invalid = (0..chunk.invalid().len()).map(move |i| (bad + i, bad + i + 1, None));
        valid.chain(invalid)
    })
}

/// The order of two strings: their bytes' order.
pub(crate) fn compare(a: &str, b: &str) -> Ordering {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    let Some(p) = x.iter().zip(y).position(|(p, q)| p != q) else {
        return x.len().cmp(&y.len());
    };
    // the char that differs starts at the same byte on both sides
    let start = (0..=p).rev().find(|&i| a.is_char_boundary(i)).unwrap_or(0);
    if x[start] == F4 || y[start] == F4 {
        encode(&a[start..]).cmp(&encode(&b[start..]))
    } else {
        x[p].cmp(&y[p])
    }
}

/// Where `needle` first (or last, `rev`) occurs in bytes `start..end` of `s` (see
/// [`range`]), in bytes from the start of `s`.
pub(crate) fn find(
    s: &str,
    needle: &str,
    start: Option<i32>,
    end: Option<i32>,
    rev: bool,
) -> Option<usize> {
    let (h, n) = (encode(s), encode(needle));
    let (start, end) = range(h.len(), start, end);
    let hay = &h[start..end];
    let at = if rev {
        memchr::memmem::rfind(hay, &n)
    } else {
        memchr::memmem::find(hay, &n)
    };
    at.map(|i| start + i)
}

/// How many times `needle` occurs in bytes `start..end` of `s`, without overlaps; the
/// empty string occurs once more than there are code points.
pub(crate) fn count(s: &str, needle: &str, start: Option<i32>, end: Option<i32>) -> usize {
    let (h, n) = (encode(s), encode(needle));
    let (start, end) = range(h.len(), start, end);
    let hay = &h[start..end];
    if n.is_empty() {
        runes(hay).count() + 1
    } else {
        memchr::memmem::find_iter(hay, &n).count()
    }
}

/// Whether bytes `start..end` of `s` start (or end, `suffix`) with `affix`.
#[inline(always)]
pub(crate) fn has_affix(
    s: &str,
    affix: &str,
    start: Option<i32>,
    end: Option<i32>,
    suffix: bool,
) -> bool {
    if start.is_none() && end.is_none() && affix.is_ascii() {
        // ASCII found in bytes is ASCII of the string
        return if suffix {
            s.ends_with(affix)
        } else {
            s.starts_with(affix)
        };
    }
    has_affix_in_bytes(s, affix, start, end, suffix)
}

fn has_affix_in_bytes(
    s: &str,
    affix: &str,
    start: Option<i32>,
    end: Option<i32>,
    suffix: bool,
) -> bool {
    let (h, a) = (encode(s), encode(affix));
    let (start, end) = range(h.len(), start, end);
    let hay = &h[start..end];
    if suffix {
        hay.ends_with(&a)
    } else {
        hay.starts_with(&a)
    }
}

/// `s` split at `sep`, which carries bytes, from the start (or the end, `rev`), at most
/// `max` times: the parts in order.
pub(crate) fn split(s: &str, sep: &str, max: Option<usize>, rev: bool) -> Vec<String> {
    let (h, n) = (encode(s), encode(sep));
    let max = max.unwrap_or(usize::MAX);
    let at: Vec<usize> = if rev {
        // non-overlapping matches from the end, in order
        let mut at: Vec<usize> = memchr::memmem::rfind_iter(&h, &n).take(max).collect();
        at.reverse();
        at
    } else {
        memchr::memmem::find_iter(&h, &n).take(max).collect()
    };
    let mut parts = Vec::with_capacity(at.len() + 1);
    let mut last = 0;
    for i in at {
        parts.push(decode(&h[last..i]).into_owned());
        last = i + n.len();
    }
    parts.push(decode(&h[last..]).into_owned());
    parts
}

/// `s` with `old`, which carries bytes, replaced by `new`, at most `max` times.
pub(crate) fn replace(s: &str, old: &str, new: &str, max: Option<usize>) -> String {
    let (h, o, n) = (encode(s), encode(old), encode(new));
    let mut out = Vec::with_capacity(h.len());
    let mut last = 0;
    // the empty string is found before each code point and at the end
    let at: Vec<usize> = if o.is_empty() {
        runes(&h).map(|(i, ..)| i).chain([h.len()]).collect()
    } else {
        memchr::memmem::find_iter(&h, &o).collect()
    };
    for i in at.into_iter().take(max.unwrap_or(usize::MAX)) {
        out.extend_from_slice(&h[last..i]);
        out.extend_from_slice(&n);
        last = i + o.len();
    }
    out.extend_from_slice(&h[last..]);
    decode(&out).into_owned()
}

/// `s` with each byte that is not UTF-8 read as U+FFFD, as Go's case mappings read it.
#[inline]
pub(crate) fn as_runes(s: &str) -> Cow<'_, str> {
    if !may_carry(s) {
        return Cow::Borrowed(s);
    }
    let b = encode(s);
    let mut out = String::with_capacity(s.len());
    for (i, j, c) in runes(&b) {
        match c {
            None => out.push(char::REPLACEMENT_CHARACTER),
            Some(_) => out.push_str(&decode(&b[i..j])),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_text_is_borrowed_both_ways() {
        for s in ["", "abc", "é日本語", "emoji 😀", "\u{FFFD}"] {
            assert!(matches!(decode(s.as_bytes()), Cow::Borrowed(x) if x == s));
            assert!(matches!(encode(s), Cow::Borrowed(x) if x == s.as_bytes()));
            assert_eq!(len(s), s.len());
        }
    }

    #[test]
    fn bytes_round_trip() {
        let cases: Vec<Vec<u8>> = vec![
            b"caf\xe9".to_vec(),
            vec![0x80, 0xFF, 0x00, 0x41, 0xC3],
            "x\u{10FF80}y\u{10FFFF}".as_bytes().to_vec(),
            (0..=255u8).collect(),
            vec![0xF4, 0x8F, 0xBE],
        ];
        for b in cases {
            let d = decode(&b);
            assert_eq!(&*encode(&d), &b[..], "{b:x?}");
            assert_eq!(len(&d), b.len(), "{b:x?}");
        }
    }

    #[test]
    fn joined_bytes_become_chars() {
        let a = decode(b"caf\xc3").into_owned();
        let b = decode(b"\xa9").into_owned();
        assert!(joins_carried(&a, &b));
        assert_eq!(normalize(a + &b), "café");
        assert!(!joins_carried("caf", "é"));
        assert_eq!(normalize("x".to_owned()), "x");
    }

    #[test]
    fn f4_is_found_at_every_place() {
        for len in 0..80 {
            for at in 0..len {
                let mut b = vec![b'a'; len];
                b[at] = 0xC3;
                assert!(!has_f4(&b), "{len} {at}");
                b[at] = F4;
                assert!(has_f4(&b), "{len} {at}");
            }
        }
    }

    #[test]
    fn ranges_clamp_as_go_does() {
        assert_eq!(range(4, None, None), (0, 4));
        assert_eq!(range(4, Some(10), None), (4, 4));
        assert_eq!(range(4, Some(-10), None), (0, 4));
        assert_eq!(range(4, Some(2), Some(1)), (2, 2));
        assert_eq!(range(4, Some(-2), None), (2, 4));
        assert_eq!(range(4, Some(0), Some(-1)), (0, 3));
    }
}
