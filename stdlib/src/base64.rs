//! `@ytt:base64`: `encode(s, url=False, raw=False, strict=False)` and `decode(s, …)` with
//! Go's encodings (`url` → URL alphabet, `raw` → no padding, `strict` → reject non-zero
//! trailing bits; decoding ignores `\r` and `\n` like Go).

use ::base64::alphabet;
use ::base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use ::base64::{DecodeError, Engine};
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use ytt::module_api::{check_positional, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("base64", members);
}

struct Options {
    url: bool,
    raw: bool,
    strict: bool,
}

fn options(fname: &str, kwargs: &SmallMap<String, Value>) -> anyhow::Result<Options> {
    let mut o = Options {
        url: false,
        raw: false,
        strict: false,
    };
    for (k, v) in kwargs {
        let slot = match k.as_str() {
            "url" => &mut o.url,
            "raw" => &mut o.raw,
            "strict" => &mut o.strict,
            _ => anyhow::bail!("{fname}: unexpected keyword argument \"{k}\""),
        };
        *slot = v.to_bool();
    }
    Ok(o)
}

fn engine(o: &Options) -> GeneralPurpose {
    let config = GeneralPurposeConfig::new()
        .with_encode_padding(!o.raw)
        .with_decode_padding_mode(if o.raw {
            DecodePaddingMode::RequireNone
        } else {
            DecodePaddingMode::RequireCanonical
        })
        .with_decode_allow_trailing_bits(!o.strict);
    let alphabet = if o.url {
        &alphabet::URL_SAFE
    } else {
        &alphabet::STANDARD
    };
    GeneralPurpose::new(alphabet, config)
}

fn decode(s: &str, o: &Options) -> anyhow::Result<String> {
    let input: Vec<u8> = s.bytes().filter(|b| *b != b'\r' && *b != b'\n').collect();
    match engine(o).decode(&input) {
        // bytes that are not UTF-8 are carried, not replaced (see `ytt::bytestr`)
        Ok(bytes) => Ok(ytt::bytestr::decode_vec(bytes)),
        Err(e) => {
            // Go reports the offset of the first offending input byte.
            let offset = match e {
                DecodeError::InvalidByte(i, _) | DecodeError::InvalidLastSymbol(i, _) => i,
                DecodeError::InvalidLength(_) => input.len() - input.len() % 4,
                DecodeError::InvalidPadding => input
                    .iter()
                    .position(|b| *b == b'=')
                    .unwrap_or(input.len() - input.len() % 4),
            };
            anyhow::bail!("illegal base64 data at input byte {offset}")
        }
    }
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Base64-encodes a string.
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        const F: &str = "base64.encode";
        check_positional(F, &args.items, &SmallMap::new(), 1, 1)?;
        let s = string_arg(F, &args.items, 0)?;
        let o = options(F, &kwargs)?;
        Ok(engine(&o).encode(ytt::bytestr::encode(s)))
    }

    /// Decodes a base64 string.
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<String> {
        const F: &str = "base64.decode";
        check_positional(F, &args.items, &SmallMap::new(), 1, 1)?;
        let s = string_arg(F, &args.items, 0)?;
        let o = options(F, &kwargs)?;
        decode(s, &o).map_err(|e| anyhow::anyhow!("{F}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::eval;

    #[test]
    fn encode() {
        assert_eq!(eval("base64.encode('regular')"), "cmVndWxhcg==");
        assert_eq!(eval("base64.encode('regula')"), "cmVndWxh");
        assert_eq!(eval("base64.encode('regular', raw=True)"), "cmVndWxhcg");
        assert_eq!(eval("base64.encode('\\xff\\xfe?>', url=True)"), "w7_Dvj8-");
        assert_eq!(eval("base64.encode('\\xff\\xfe?>')"), "w7/Dvj8+");
        assert_eq!(eval("base64.encode('')"), "");
    }

    #[test]
    fn decode() {
        assert_eq!(eval("base64.decode('cmVndWxhcg==')"), "regular");
        assert_eq!(eval("base64.decode('cmVndWxh')"), "regula");
        assert_eq!(eval("base64.decode('cmVn\\ndWxh\\r\\n')"), "regula");
        assert_eq!(eval("base64.decode('cmVndWxhcg', raw=True)"), "regular");
        assert_eq!(
            eval("base64.decode('w7_Dvj8-', url=True)"),
            "\u{ff}\u{fe}?>"
        );
        // bytes that are not UTF-8 are kept (carried, see `ytt::bytestr`), not replaced
        assert_eq!(eval("base64.encode(base64.decode('gP8A'))"), "gP8A");
        assert_eq!(eval("len(base64.decode('gP8A'))"), "3");
        assert_eq!(
            eval("base64.decode('gA==') == base64.decode('gQ==')"),
            "False"
        );
        // non-zero trailing bits are accepted unless strict
        assert_eq!(eval("base64.decode('YR==')"), "a");
        assert_eq!(
            eval("base64.decode('YR==', strict=True)"),
            "ERR base64.decode: illegal base64 data at input byte 1"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            eval("base64.decode('cmVndWxhcg')"),
            "ERR base64.decode: illegal base64 data at input byte 8"
        );
        assert_eq!(
            eval("base64.decode('cm!n')"),
            "ERR base64.decode: illegal base64 data at input byte 2"
        );
        assert_eq!(
            eval("base64.decode('cmVndWxhcg==', raw=True)"),
            "ERR base64.decode: illegal base64 data at input byte 10"
        );
        assert_eq!(
            eval("base64.encode('a', 'b')"),
            "ERR base64.encode: got 2 arguments, want 1"
        );
        assert_eq!(
            eval("base64.encode('a', foo=True)"),
            "ERR base64.encode: unexpected keyword argument \"foo\""
        );
        assert_eq!(
            eval("base64.encode(None)"),
            "ERR base64.encode: for parameter 1: got NoneType, want string"
        );
    }
}
