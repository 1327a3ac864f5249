//! Helpers shared by the standard-library modules: argument checks with the reference's
//! wording, Go-style type names for messages, and the message of a Starlark error.

use anyhow::bail;
use starlark::collections::SmallMap;
use starlark::values::Value;

/// Checks the positional argument count (and that no keyword argument was given) the way
/// the reference's builtins word it: `assert.min: got 2 arguments, want 1`.
pub fn check_positional(
    fname: &str,
    args: &[Value],
    kwargs: &SmallMap<String, Value>,
    min: usize,
    max: usize,
) -> anyhow::Result<()> {
    if !kwargs.is_empty() {
        bail!("{fname}: unexpected keyword arguments");
    }
    let n = args.len();
    if n < min {
        if min == max {
            bail!("{fname}: got {n} arguments, want {min}");
        }
        bail!("{fname}: got {n} arguments, want at least {min}");
    }
    if n > max {
        if min == max {
            bail!("{fname}: got {n} arguments, want {max}");
        }
        bail!("{fname}: got {n} arguments, want at most {max}");
    }
    Ok(())
}

/// The positional argument `index` as a string, with the reference's wording
/// (`md5.sum: for parameter 1: got int, want string`).
pub fn string_arg<'v>(fname: &str, args: &[Value<'v>], index: usize) -> anyhow::Result<&'v str> {
    match args.get(index) {
        Some(v) => v.unpack_str().ok_or_else(|| {
            anyhow::anyhow!(
                "{fname}: for parameter {}: got {}, want string",
                index + 1,
                v.get_type()
            )
        }),
        None => bail!("{fname}: missing argument for parameter {}", index + 1),
    }
}

/// Binds positional and keyword arguments to named parameters (all optional here; the
/// accessors of [`Params`] check the required ones and the types). Wording follows the
/// reference (`got 3 arguments, want at most 2`, `unexpected keyword argument "x"`,
/// `got multiple values for parameter "x"`).
pub fn bind_params<'v, 'p>(
    fname: &'p str,
    params: &'p [&'p str],
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<Params<'v, 'p>> {
    if args.len() > params.len() {
        bail!(
            "{fname}: got {} arguments, want at most {}",
            args.len(),
            params.len()
        );
    }
    let mut values: Vec<Option<Value<'v>>> = vec![None; params.len()];
    for (slot, v) in values.iter_mut().zip(args) {
        *slot = Some(*v);
    }
    for (k, v) in kwargs {
        let Some(i) = params.iter().position(|p| p == k) else {
            bail!("{fname}: unexpected keyword argument \"{k}\"");
        };
        if values[i].is_some() {
            bail!("{fname}: got multiple values for parameter \"{k}\"");
        }
        values[i] = Some(*v);
    }
    Ok(Params {
        fname,
        names: params,
        values,
    })
}

/// A builtin's arguments bound to its parameters, by index; the typed accessors word
/// their errors as the reference does.
pub struct Params<'v, 'p> {
    fname: &'p str,
    names: &'p [&'p str],
    values: Vec<Option<Value<'v>>>,
}

impl<'v> Params<'v, '_> {
    /// A parameter that must be given: `json.decode: missing argument for json_string`.
    pub fn required(&self, i: usize) -> anyhow::Result<Value<'v>> {
        match self.values[i] {
            Some(v) => Ok(v),
            None => bail!("{}: missing argument for {}", self.fname, self.names[i]),
        }
    }

    /// A required string: `json.decode: for parameter json_string: got int, want string`.
    pub fn str(&self, i: usize) -> anyhow::Result<&'v str> {
        let v = self.required(i)?;
        v.unpack_str()
            .ok_or_else(|| self.wrong_type(i, v, "string"))
    }

    /// An optional bool.
    pub fn bool_or(&self, i: usize, default: bool) -> anyhow::Result<bool> {
        match self.values[i] {
            None => Ok(default),
            Some(v) => v.unpack_bool().ok_or_else(|| self.wrong_type(i, v, "bool")),
        }
    }

    /// The optional `indent` of the encoders: 0 to 8 spaces.
    pub fn indent(&self, i: usize) -> anyhow::Result<usize> {
        match self.values[i] {
            None => Ok(0),
            Some(v) => match v.unpack_i32() {
                Some(n) if (0..=8).contains(&n) => Ok(n as usize),
                Some(_) => bail!("{}: indent value must be between 0 and 8", self.fname),
                None => Err(self.wrong_type(i, v, "int")),
            },
        }
    }

    fn wrong_type(&self, i: usize, v: Value, want: &str) -> anyhow::Error {
        anyhow::anyhow!(
            "{}: for parameter {}: got {}, want {want}",
            self.fname,
            self.names[i],
            v.get_type()
        )
    }
}

impl<'v> std::ops::Index<usize> for Params<'v, '_> {
    type Output = Option<Value<'v>>;

    fn index(&self, i: usize) -> &Self::Output {
        &self.values[i]
    }
}

/// True for anything callable from Starlark (def, lambda, builtin, bound function).
pub fn is_function(v: Value) -> bool {
    v.get_type() == "function"
}

/// The message of a Starlark error without its stack trace, with `fail()` errors given
/// the reference's `fail: msg` shape.
pub fn error_message(e: &starlark::Error) -> String {
    crate::eval::wording::message_text(e)
}

#[cfg(test)]
mod tests {
    use crate::modules::testutil::eval;

    #[test]
    fn fail_message_shape() {
        assert_eq!(eval("fail('boom')"), "ERR fail: boom");
    }
}
