//! `@ytt:md5` and `@ytt:sha256`: `md5.sum(s)`, `sha256.sum(s)` → lowercase hex digest of
//! the string's bytes.

use md5::Md5;
use sha2::{Digest, Sha256};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use ytt::module_api::{check_positional, string_arg};

pub fn register_md5(builder: &mut GlobalsBuilder) {
    builder.namespace("md5", md5_members);
}

pub fn register_sha256(builder: &mut GlobalsBuilder) {
    builder.namespace("sha256", sha256_members);
}

#[starlark_module]
fn md5_members(builder: &mut GlobalsBuilder) {
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        hex_sum::<Md5>("md5.sum", &args.items, &kwargs)
    }
}

#[starlark_module]
fn sha256_members(builder: &mut GlobalsBuilder) {
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        hex_sum::<Sha256>("sha256.sum", &args.items, &kwargs)
    }
}

/// `sum(s)` of either module: one string argument, its digest in lowercase hex.
fn hex_sum<D: Digest>(
    fname: &str,
    args: &[Value],
    kwargs: &SmallMap<String, Value>,
) -> anyhow::Result<String> {
    check_positional(fname, args, kwargs, 1, 1)?;
    let s = string_arg(fname, args, 0)?;
    Ok(hex(&D::digest(ytt::bytestr::encode(s))))
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn sums() {
        assert_eq!(eval("md5.sum('')"), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            eval("load('@ytt:md5', 'md5')\nmd5.sum('data')"),
            "8d777f385d3dfec8815d20f7496026dc"
        );
        assert_eq!(
            eval("sha256.sum('')"),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            eval("load('@ytt:sha256', 'sha256')\nsha256.sum('data')"),
            "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7"
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_summed_as_themselves() {
        // "\xff" read from a file is carried as a private-use character (ytt::bytestr)
        let ff = ytt::bytestr::decode(b"\xff").into_owned();
        let code = format!("md5.sum('{ff}') + ' ' + sha256.sum('{ff}')");
        assert_eq!(
            eval(&code),
            "00594fd4f42ba43fc1ca0427a0576295 \
             a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89"
        );
    }

    #[test]
    fn errors() {
        for m in ["md5", "sha256"] {
            assert_eq!(
                eval(&format!("{m}.sum('a', 'b')")),
                format!("ERR {m}.sum: got 2 arguments, want 1")
            );
            assert_eq!(
                eval(&format!("{m}.sum()")),
                format!("ERR {m}.sum: got 0 arguments, want 1")
            );
            assert_eq!(
                eval(&format!("{m}.sum(1)")),
                format!("ERR {m}.sum: for parameter 1: got int, want string")
            );
            assert_eq!(
                eval(&format!("{m}.sum(s='a')")),
                format!("ERR {m}.sum: unexpected keyword arguments")
            );
        }
    }
}
