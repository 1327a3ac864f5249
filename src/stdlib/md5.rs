//! `@ytt:md5`: `md5.sum(s)` → lowercase hex digest.

use ::md5::{Digest, Md5};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use super::common::check_positional;

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("md5", members);
}

/// The positional argument `index` as a string, with the reference's wording.
pub(crate) fn string_arg<'v>(
    fname: &str,
    args: &[Value<'v>],
    index: usize,
) -> anyhow::Result<&'v str> {
    match args.get(index) {
        Some(v) => v.unpack_str().ok_or_else(|| {
            anyhow::anyhow!(
                "{fname}: for parameter {}: got {}, want string",
                index + 1,
                v.get_type()
            )
        }),
        None => anyhow::bail!("{fname}: missing argument for parameter {}", index + 1),
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Lowercase hex MD5 digest of a string.
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        check_positional("md5.sum", &args.items, &kwargs, 1, 1)?;
        let s = string_arg("md5.sum", &args.items, 0)?;
        Ok(hex(&Md5::digest(crate::bytestr::encode(s))))
    }
}

#[cfg(test)]
mod tests {
    use crate::stdlib::testutil::eval;

    #[test]
    fn sums() {
        assert_eq!(eval("md5.sum('')"), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            eval("load('@ytt:md5', 'md5')\nmd5.sum('data')"),
            "8d777f385d3dfec8815d20f7496026dc"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            eval("md5.sum('a', 'b')"),
            "ERR md5.sum: got 2 arguments, want 1"
        );
        assert_eq!(eval("md5.sum()"), "ERR md5.sum: got 0 arguments, want 1");
        assert_eq!(
            eval("md5.sum(1)"),
            "ERR md5.sum: for parameter 1: got int, want string"
        );
    }
}
