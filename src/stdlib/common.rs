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

/// Binds positional and keyword arguments to named parameters (all optional here; callers
/// check the required ones). Wording follows the reference (`got 3 arguments, want at most
/// 2`, `unexpected keyword argument "x"`, `got multiple values for parameter "x"`).
pub fn bind_params<'v>(
    fname: &str,
    params: &[&str],
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
) -> anyhow::Result<Vec<Option<Value<'v>>>> {
    if args.len() > params.len() {
        bail!(
            "{fname}: got {} arguments, want at most {}",
            args.len(),
            params.len()
        );
    }
    let mut out: Vec<Option<Value<'v>>> = vec![None; params.len()];
    for (slot, v) in out.iter_mut().zip(args) {
        *slot = Some(*v);
    }
    for (k, v) in kwargs {
        let Some(i) = params.iter().position(|p| p == k) else {
            bail!("{fname}: unexpected keyword argument \"{k}\"");
        };
        if out[i].is_some() {
            bail!("{fname}: got multiple values for parameter \"{k}\"");
        }
        out[i] = Some(*v);
    }
    Ok(out)
}

/// True for anything callable from Starlark (def, lambda, builtin, bound function).
pub fn is_function(v: Value) -> bool {
    v.get_type() == "function"
}

/// The message of a Starlark error without its stack trace, with `fail()` errors given
/// the reference's `fail: msg` shape.
pub fn error_message(e: &starlark::Error) -> String {
    crate::eval::error::message_text(e)
}

#[cfg(test)]
mod tests {
    use crate::stdlib::testutil::eval;

    #[test]
    fn fail_message_shape() {
        assert_eq!(eval("fail('boom')"), "ERR fail: boom");
    }
}
