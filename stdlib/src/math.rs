//! `@ytt:math`: Starlark's math module (floats and ints accepted; `ceil`/`floor` return
//! ints). The first call of any function in a run gives a warning (the run's messages).

use std::str::FromStr;

use num_bigint::BigInt;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::float::StarlarkFloat;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{UnpackValue, Value, ValueLike};

use ytt::eval::runtime::runtime_of;
use ytt::modules::args::{bind_params, check_positional};

pub const WARNING: &str = "Warning: a function from the @ytt:math module is used in this \
invocation; this module does not guarantee bit-identical results across CPU architectures.";

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("math", |b| {
        members(b);
        b.set("e", std::f64::consts::E);
        b.set("pi", std::f64::consts::PI);
    });
}

fn warn_once(eval: &Evaluator) {
    // outside a run (the module's unit tests) there is nobody to warn
    if let Ok(rt) = runtime_of(eval) {
        rt.warn_math_once(WARNING);
    }
}

/// An int or float argument as f64.
fn number(fname: &str, v: Value, index: usize) -> anyhow::Result<f64> {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Ok(f.0);
    }
    if v.get_type() == "int" {
        if let Ok(Some(i)) = i64::unpack_value(v) {
            return Ok(i as f64);
        }
        // Big ints: their decimal text, correctly rounded.
        if let Ok(f) = v.to_str().parse::<f64>() {
            return Ok(f);
        }
    }
    anyhow::bail!(
        "{fname}: for parameter {}: got {}, want float or int",
        index + 1,
        v.get_type()
    )
}

fn unary(
    eval: &Evaluator,
    name: &str,
    args: &[Value],
    kwargs: &SmallMap<String, Value>,
    f: fn(f64) -> f64,
) -> anyhow::Result<f64> {
    warn_once(eval);
    let fname = format!("math.{name}");
    check_positional(&fname, args, kwargs, 1, 1)?;
    Ok(f(number(&fname, args[0], 0)?))
}

fn binary(
    eval: &Evaluator,
    name: &str,
    args: &[Value],
    kwargs: &SmallMap<String, Value>,
    f: fn(f64, f64) -> f64,
) -> anyhow::Result<f64> {
    warn_once(eval);
    let fname = format!("math.{name}");
    check_positional(&fname, args, kwargs, 2, 2)?;
    Ok(f(number(&fname, args[0], 0)?, number(&fname, args[1], 1)?))
}

/// `ceil`/`floor`: ints are returned as they are, floats are rounded to an int.
fn to_int<'v>(
    eval: &Evaluator<'v, '_, '_>,
    name: &str,
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
    f: fn(f64) -> f64,
) -> anyhow::Result<Value<'v>> {
    warn_once(eval);
    let fname = format!("math.{name}");
    check_positional(&fname, args, kwargs, 1, 1)?;
    let v = args[0];
    if v.get_type() == "int" {
        return Ok(v);
    }
    let x = f(number(&fname, v, 0)?);
    if !x.is_finite() {
        anyhow::bail!("{fname}: cannot convert float {} to integer", float_text(x));
    }
    if (-9.2e18..=9.2e18).contains(&x) {
        return Ok(eval.heap().alloc(x as i64));
    }
    match BigInt::from_str(&format!("{x:.0}")) {
        Ok(i) => Ok(eval.heap().alloc(i)),
        Err(_) => anyhow::bail!("{fname}: cannot convert float {} to integer", float_text(x)),
    }
}

fn float_text(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        x.to_string()
    }
}

/// IEEE 754 remainder: `x - n*y` with `n` the integer nearest `x/y` (ties to even).
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let negative = x.is_sign_negative();
    let y = y.abs();
    let mut r = x.abs();
    if y <= f64::MAX / 2.0 {
        r %= y + y; // exact; now r < 2y
    }
    let mut odd = false;
    if r >= y {
        r -= y; // exact (Sterbenz)
        odd = true;
    }
    let more_than_half = if y < 2.0 * f64::MIN_POSITIVE {
        r + r > y || (r + r == y && odd)
    } else {
        let half = 0.5 * y;
        r > half || (r == half && odd)
    };
    if more_than_half {
        r -= y;
    }
    if negative {
        -r
    } else {
        r
    }
}

/// Γ(x), with the special cases of Go's `math.Gamma`.
fn gamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    extern "C" {
        fn tgamma(x: f64) -> f64;
    }
    // SAFETY: `tgamma` from the C math library (linked by std) is a pure function of a
    // double with no preconditions.
    unsafe { tgamma(x) }
}

const DEGREES_PER_RADIAN: f64 = 57.295_779_513_082_320_876_798_154_814_105_17;
const RADIANS_PER_DEGREE: f64 = 0.017_453_292_519_943_295_769_236_907_684_886_13;

type Args<'v> = UnpackTuple<Value<'v>>;
type Kwargs<'v> = SmallMap<String, Value<'v>>;

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Smallest integer ≥ x (an int).
    fn ceil<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        to_int(eval, "ceil", &args.items, &kwargs, f64::ceil)
    }

    /// Largest integer ≤ x (an int).
    fn floor<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        to_int(eval, "floor", &args.items, &kwargs, f64::floor)
    }

    /// x with the sign of y.
    fn copysign<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "copysign", &args.items, &kwargs, f64::copysign)
    }

    /// Absolute value, as a float.
    fn fabs<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "fabs", &args.items, &kwargs, f64::abs)
    }

    /// Floating-point remainder of x/y with the sign of x (C `fmod`).
    fn r#mod<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "mod", &args.items, &kwargs, |x, y| x % y)
    }

    /// x to the power y.
    fn pow<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "pow", &args.items, &kwargs, f64::powf)
    }

    /// IEEE 754 remainder of x/y.
    fn remainder<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "remainder", &args.items, &kwargs, remainder)
    }

    /// Nearest integer (half away from zero), as a float.
    fn round<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "round", &args.items, &kwargs, f64::round)
    }

    /// e to the power x.
    fn exp<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "exp", &args.items, &kwargs, f64::exp)
    }

    /// Square root.
    fn sqrt<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sqrt", &args.items, &kwargs, f64::sqrt)
    }

    /// Arc cosine, in radians.
    fn acos<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "acos", &args.items, &kwargs, f64::acos)
    }

    /// Arc sine, in radians.
    fn asin<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "asin", &args.items, &kwargs, f64::asin)
    }

    /// Arc tangent, in radians.
    fn atan<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "atan", &args.items, &kwargs, f64::atan)
    }

    /// Arc tangent of y/x, using the signs of both for the quadrant.
    fn atan2<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "atan2", &args.items, &kwargs, f64::atan2)
    }

    /// Cosine of x radians.
    fn cos<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "cos", &args.items, &kwargs, f64::cos)
    }

    /// sqrt(x*x + y*y), avoiding overflow.
    fn hypot<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "hypot", &args.items, &kwargs, f64::hypot)
    }

    /// Sine of x radians.
    fn sin<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sin", &args.items, &kwargs, f64::sin)
    }

    /// Tangent of x radians.
    fn tan<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "tan", &args.items, &kwargs, f64::tan)
    }

    /// Radians to degrees.
    fn degrees<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "degrees", &args.items, &kwargs, |x| {
            x * DEGREES_PER_RADIAN
        })
    }

    /// Degrees to radians.
    fn radians<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "radians", &args.items, &kwargs, |x| {
            x * RADIANS_PER_DEGREE
        })
    }

    /// Inverse hyperbolic cosine.
    fn acosh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "acosh", &args.items, &kwargs, f64::acosh)
    }

    /// Inverse hyperbolic sine.
    fn asinh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "asinh", &args.items, &kwargs, f64::asinh)
    }

    /// Inverse hyperbolic tangent.
    fn atanh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "atanh", &args.items, &kwargs, f64::atanh)
    }

    /// Hyperbolic cosine.
    fn cosh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "cosh", &args.items, &kwargs, f64::cosh)
    }

    /// Hyperbolic sine.
    fn sinh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sinh", &args.items, &kwargs, f64::sinh)
    }

    /// Hyperbolic tangent.
    fn tanh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "tanh", &args.items, &kwargs, f64::tanh)
    }

    /// Logarithm of x in the given base (natural logarithm by default).
    fn log<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        warn_once(eval);
        const F: &str = "math.log";
        let params = bind_params(F, &["x", "base"], &args.items, &kwargs)?;
        let x = params.required(0)?;
        let x = number(F, x, 0)?;
        match params[1] {
            None => Ok(x.ln()),
            Some(b) => {
                let base = number(F, b, 1)?;
                if base == 1.0 {
                    anyhow::bail!("{F}: division by zero");
                }
                Ok(x.ln() / base.ln())
            }
        }
    }

    /// The gamma function.
    fn gamma<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "gamma", &args.items, &kwargs, gamma)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::eval;

    #[test]
    fn functions() {
        assert_eq!(eval("math.ceil(1.2)"), "2");
        assert_eq!(eval("math.ceil(-1.2)"), "-1");
        assert_eq!(eval("math.floor(-1.2)"), "-2");
        assert_eq!(eval("math.floor(7)"), "7");
        assert_eq!(eval("type(math.floor(2.5))"), "int");
        assert_eq!(eval("math.floor(1e20)"), "100000000000000000000");
        assert_eq!(
            eval("math.round(2.5) == 3.0 and math.round(-2.5) == -3.0"),
            "True"
        );
        assert_eq!(eval("type(math.round(2))"), "float");
        assert_eq!(eval("math.sqrt(16)"), eval("4.0"));
        assert_eq!(eval("math.pow(2, 10)"), eval("1024.0"));
        assert_eq!(eval("math.mod(-7, 3)"), eval("-1.0"));
        assert_eq!(eval("math.fabs(-3)"), eval("3.0"));
        assert_eq!(eval("math.copysign(3, -0.0)"), eval("-3.0"));
        assert_eq!(eval("math.log(8, 2)"), eval("3.0"));
        assert_eq!(eval("math.log(math.e)"), eval("1.0"));
        assert_eq!(eval("math.log(100, base=10)"), eval("2.0"));
        assert_eq!(eval("math.degrees(math.pi)"), eval("180.0"));
        assert_eq!(eval("math.radians(180) == math.pi"), "True");
        assert_eq!(eval("math.gamma(5)"), eval("24.0"));
        assert_eq!(eval("math.hypot(3, 4)"), eval("5.0"));
        assert_eq!(eval("math.atan2(1, 1) == math.pi / 4"), "True");
        assert_eq!(
            eval("math.floor(1e30) == 1000000000000000019884624838656"),
            "True"
        );
    }

    #[test]
    fn ieee_remainder() {
        assert_eq!(remainder(5.0, 2.0), 1.0);
        assert_eq!(remainder(7.0, 2.0), -1.0);
        assert_eq!(remainder(6.0, 4.0), -2.0);
        assert_eq!(remainder(10.0, 4.0), 2.0);
        assert_eq!(remainder(-5.0, 2.0), -1.0);
        assert_eq!(remainder(5.5, 1.0), -0.5);
        assert_eq!(remainder(4.5, 1.0), 0.5);
        assert!(remainder(1.0, 0.0).is_nan());
        assert_eq!(remainder(3.0, f64::INFINITY), 3.0);
        assert!(remainder(-4.0, 2.0).is_sign_negative());
    }

    #[test]
    fn gamma_special_cases() {
        assert!(gamma(-1.0).is_nan());
        assert_eq!(gamma(0.0), f64::INFINITY);
        assert_eq!(gamma(-0.0), f64::NEG_INFINITY);
        assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn errors() {
        assert_eq!(
            eval("math.sqrt()"),
            "ERR math.sqrt: got 0 arguments, want 1"
        );
        assert_eq!(eval("math.pow(1)"), "ERR math.pow: got 1 arguments, want 2");
        assert_eq!(
            eval("math.sqrt('x')"),
            "ERR math.sqrt: for parameter 1: got string, want float or int"
        );
        assert_eq!(
            eval("math.ceil(float('inf'))"),
            "ERR math.ceil: cannot convert float +inf to integer"
        );
        assert_eq!(eval("math.log(3, 1)"), "ERR math.log: division by zero");
        assert_eq!(eval("math.log()"), "ERR math.log: missing argument for x");
    }
}
