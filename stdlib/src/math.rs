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

use ytt::module_api::{check_positional, starlark_go};

/// The reference prints it after an empty line.
pub const WARNING: &str = "\nWarning: a function from the @ytt:math module is used in this \
invocation; this module does not guarantee bit-identical results across CPU architectures.";

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("math", |b| {
        members(b);
        b.set("e", std::f64::consts::E);
        b.set("pi", std::f64::consts::PI);
    });
}

fn warn_once(eval: &Evaluator) {
    ytt::module_api::warn_once(eval, WARNING);
}

/// An int or float argument as f64; the reference's message names the function
/// (`floor: `) except for `log`'s arguments (`prefix` empty).
fn number(prefix: &str, v: Value) -> anyhow::Result<f64> {
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
    anyhow::bail!("{prefix}expected float value, but was {}", starlark_go(v))
}

/// A function of one number. Keyword arguments are ignored, as the reference ignores
/// them; a wrong count of positional ones is worded by the function's name alone.
fn unary(eval: &Evaluator, name: &str, args: &[Value], f: fn(f64) -> f64) -> anyhow::Result<f64> {
    warn_once(eval);
    let [x] = args else {
        anyhow::bail!("{name}: expected exactly one argument");
    };
    Ok(f(number(&format!("{name}: "), *x)?))
}

/// A function of two numbers (keyword arguments ignored, as in [`unary`]).
fn binary(
    eval: &Evaluator,
    name: &str,
    args: &[Value],
    f: fn(f64, f64) -> f64,
) -> anyhow::Result<f64> {
    warn_once(eval);
    let [x, y] = args else {
        anyhow::bail!("{name}: expected exactly two arguments");
    };
    let prefix = format!("{name}: ");
    Ok(f(number(&prefix, *x)?, number(&prefix, *y)?))
}

/// `ceil`/`floor`: ints are returned as they are, floats are rounded to an int. Their
/// argument-count messages name the function twice, as the reference's do.
fn to_int<'v>(
    eval: &Evaluator<'v, '_, '_>,
    name: &str,
    args: &[Value<'v>],
    kwargs: &SmallMap<String, Value<'v>>,
    f: fn(f64) -> f64,
) -> anyhow::Result<Value<'v>> {
    warn_once(eval);
    check_positional(&format!("{name}: {name}"), args, kwargs, 1, 1)?;
    let v = args[0];
    if v.get_type() == "int" {
        return Ok(v);
    }
    let x = f(number(&format!("{name}: "), v)?);
    if !x.is_finite() {
        let what = if x.is_nan() { "NaN" } else { "infinity" };
        anyhow::bail!("{name}: cannot convert float {what} to integer");
    }
    if (-9.2e18..=9.2e18).contains(&x) {
        return Ok(eval.heap().alloc(x as i64));
    }
    match BigInt::from_str(&format!("{x:.0}")) {
        Ok(i) => Ok(eval.heap().alloc(i)),
        Err(_) => anyhow::bail!("{name}: cannot convert float {x} to integer"),
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
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "copysign", &args.items, f64::copysign)
    }

    /// Absolute value, as a float.
    fn fabs<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "fabs", &args.items, f64::abs)
    }

    /// Floating-point remainder of x/y with the sign of x (C `fmod`).
    fn r#mod<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        // the reference names `mod` "round" in its messages
        binary(eval, "round", &args.items, |x, y| x % y)
    }

    /// x to the power y.
    fn pow<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "pow", &args.items, f64::powf)
    }

    /// IEEE 754 remainder of x/y.
    fn remainder<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "remainder", &args.items, remainder)
    }

    /// Nearest integer (half away from zero), as a float.
    fn round<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "round", &args.items, f64::round)
    }

    /// e to the power x.
    fn exp<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "exp", &args.items, f64::exp)
    }

    /// Square root.
    fn sqrt<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sqrt", &args.items, f64::sqrt)
    }

    /// Arc cosine, in radians.
    fn acos<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "acos", &args.items, f64::acos)
    }

    /// Arc sine, in radians.
    fn asin<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "asin", &args.items, f64::asin)
    }

    /// Arc tangent, in radians.
    fn atan<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "atan", &args.items, f64::atan)
    }

    /// Arc tangent of y/x, using the signs of both for the quadrant.
    fn atan2<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "atan2", &args.items, f64::atan2)
    }

    /// Cosine of x radians.
    fn cos<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "cos", &args.items, f64::cos)
    }

    /// sqrt(x*x + y*y), avoiding overflow.
    fn hypot<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        binary(eval, "hypot", &args.items, f64::hypot)
    }

    /// Sine of x radians.
    fn sin<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sin", &args.items, f64::sin)
    }

    /// Tangent of x radians.
    fn tan<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "tan", &args.items, f64::tan)
    }

    /// Radians to degrees.
    fn degrees<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "degrees", &args.items, |x| x * DEGREES_PER_RADIAN)
    }

    /// Degrees to radians.
    fn radians<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "radians", &args.items, |x| x * RADIANS_PER_DEGREE)
    }

    /// Inverse hyperbolic cosine.
    fn acosh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "acosh", &args.items, f64::acosh)
    }

    /// Inverse hyperbolic sine.
    fn asinh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "asinh", &args.items, f64::asinh)
    }

    /// Inverse hyperbolic tangent.
    fn atanh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "atanh", &args.items, f64::atanh)
    }

    /// Hyperbolic cosine.
    fn cosh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "cosh", &args.items, f64::cosh)
    }

    /// Hyperbolic sine.
    fn sinh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "sinh", &args.items, f64::sinh)
    }

    /// Hyperbolic tangent.
    fn tanh<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "tanh", &args.items, f64::tanh)
    }

    /// Logarithm of x in the given base (natural logarithm by default). Its messages
    /// word arguments that are not numbers without the function's name, as the
    /// reference's do.
    fn log<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        warn_once(eval);
        check_positional("log", &args.items, &kwargs, 1, 2)?;
        let x = number("", args.items[0])?.ln();
        match args.items.get(1) {
            None => Ok(x),
            Some(b) => Ok(x / number("", *b)?.ln()),
        }
    }

    /// The gamma function.
    fn gamma<'v>(
        #[starlark(args)] args: Args<'v>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<f64> {
        unary(eval, "gamma", &args.items, gamma)
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
        assert_eq!(eval("math.log(100, 10)"), eval("2.0"));
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

    /// The reference's words, measured: a wrong count of arguments by the function's name
    /// (`ceil` and `floor` name it twice), keyword arguments ignored where it ignores
    /// them, `mod` named `round`, `log`'s arguments without a name.
    #[test]
    fn errors() {
        assert_eq!(
            eval("math.sqrt()"),
            "ERR sqrt: expected exactly one argument"
        );
        assert_eq!(eval("math.sqrt(4, x=1)"), eval("2.0"));
        assert_eq!(
            eval("math.pow(1)"),
            "ERR pow: expected exactly two arguments"
        );
        assert_eq!(eval("math.pow(2, 3, x=1)"), eval("8.0"));
        assert_eq!(
            eval("math.mod(1)"),
            "ERR round: expected exactly two arguments"
        );
        assert_eq!(
            eval("math.sqrt('x')"),
            "ERR sqrt: expected float value, but was starlark.String"
        );
        assert_eq!(
            eval("math.floor(1, 2)"),
            "ERR floor: floor: got 2 arguments, want 1"
        );
        assert_eq!(
            eval("math.ceil(x=1)"),
            "ERR ceil: ceil: unexpected keyword arguments"
        );
        assert_eq!(
            eval("math.ceil(float('-inf'))"),
            "ERR ceil: cannot convert float infinity to integer"
        );
        assert_eq!(
            eval("math.floor(float('nan'))"),
            "ERR floor: cannot convert float NaN to integer"
        );
        assert_eq!(eval("math.log(3, 1)"), eval("float('inf')"));
        assert_eq!(
            eval("math.log()"),
            "ERR log: got 0 arguments, want at least 1"
        );
        assert_eq!(
            eval("math.log(8, base=2)"),
            "ERR log: unexpected keyword arguments"
        );
        assert_eq!(
            eval("math.log(8, None)"),
            "ERR expected float value, but was starlark.NoneType"
        );
    }
}
