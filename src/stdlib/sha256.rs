//! `@ytt:sha256`: `sha256.sum(s)` → lowercase hex digest.

use sha2::{Digest, Sha256};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use super::common::check_positional;
use super::md5::{hex, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("sha256", members);
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Lowercase hex SHA-256 digest of a string.
    fn sum<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        check_positional("sha256.sum", &args.items, &kwargs, 1, 1)?;
        let s = string_arg("sha256.sum", &args.items, 0)?;
        Ok(hex(&Sha256::digest(crate::bytestr::encode(s))))
    }
}

#[cfg(test)]
mod tests {
    use crate::stdlib::testutil::eval;

    #[test]
    fn sums() {
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
    fn errors() {
        assert_eq!(
            eval("sha256.sum('a', 'b')"),
            "ERR sha256.sum: got 2 arguments, want 1"
        );
        assert_eq!(
            eval("sha256.sum()"),
            "ERR sha256.sum: got 0 arguments, want 1"
        );
        assert_eq!(
            eval("sha256.sum(1)"),
            "ERR sha256.sum: for parameter 1: got int, want string"
        );
    }
}
