//! `@ytt:version`: `require_at_least("X.Y.Z")` fails unless this ytt's version (0.50.0)
//! is at least the given semantic version.

use std::cmp::Ordering;

use anyhow::bail;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::Value;

use ytt::module_api::check_positional;

/// The ytt version this implementation stands for.
pub const YTT_VERSION: &str = "0.50.0";

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("version", version_members);
}

#[starlark_module]
fn version_members(builder: &mut GlobalsBuilder) {
    /// Fails unless ytt's version is at least `version`.
    fn require_at_least<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<NoneType> {
        let f = "version.require_at_least";
        check_positional(f, &args.items, &kwargs, 1, 1)?;
        let v = args.items[0];
        let Some(wanted) = v.unpack_str() else {
            bail!("{f}: for parameter 1: got {}, want string", v.get_type());
        };
        let Some(min) = Semver::parse(wanted) else {
            bail!("{f}: version string '{wanted}' must be a valid semver");
        };
        let Some(ours) = Semver::parse(YTT_VERSION) else {
            bail!("{f}: internal error: bad ytt version");
        };
        if ours.cmp_precedence(&min) == Ordering::Less {
            bail!(
                "{f}: ytt version '{YTT_VERSION}' does not meet the minimum required version '{wanted}'"
            );
        }
        Ok(NoneType)
    }
}

/// A strict semantic version (`MAJOR.MINOR.PATCH[-pre][+build]`, no leading zeros).
#[derive(Debug, PartialEq, Eq)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
}

fn numeric(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return None;
    }
    s.parse().ok()
}

fn valid_ident(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl Semver {
    pub fn parse(s: &str) -> Option<Semver> {
        let (rest, build) = match s.split_once('+') {
            Some((r, b)) => (r, Some(b)),
            None => (s, None),
        };
        if let Some(b) = build {
            if !b.split('.').all(valid_ident) {
                return None;
            }
        }
        let (core, pre) = match rest.split_once('-') {
            Some((c, p)) => (c, Some(p)),
            None => (rest, None),
        };
        let mut parts = core.split('.');
        let major = numeric(parts.next()?)?;
        let minor = numeric(parts.next()?)?;
        let patch = numeric(parts.next()?)?;
        if parts.next().is_some() {
            return None;
        }
        let mut pre_ids = Vec::new();
        if let Some(p) = pre {
            for id in p.split('.') {
                if !valid_ident(id) {
                    return None;
                }
                if id.bytes().all(|b| b.is_ascii_digit()) && numeric(id).is_none() {
                    return None;
                }
                pre_ids.push(id.to_owned());
            }
        }
        Some(Semver {
            major,
            minor,
            patch,
            pre: pre_ids,
        })
    }

    /// Semver precedence (build metadata ignored; a pre-release sorts before its release).
    pub fn cmp_precedence(&self, other: &Semver) -> Ordering {
        let core =
            (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&other.pre) {
            let ord = match (numeric(a), numeric(b)) {
                (Some(x), Some(y)) => x.cmp(&y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => a.cmp(b),
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }
}

#[cfg(test)]
mod tests {
    use super::Semver;
    use crate::testutil::eval;

    #[test]
    fn require_at_least() {
        assert_eq!(eval(r#"version.require_at_least("0.0.0")"#), "None");
        assert_eq!(eval(r#"version.require_at_least("0.50.0")"#), "None");
        assert_eq!(eval(r#"version.require_at_least("0.50.0-rc.1")"#), "None");
        assert_eq!(
            eval(r#"version.require_at_least("1000000.0.0")"#),
            "ERR version.require_at_least: ytt version '0.50.0' does not meet the minimum required version '1000000.0.0'"
        );
        assert_eq!(
            eval(r#"version.require_at_least("0.50.1-alpha")"#),
            "ERR version.require_at_least: ytt version '0.50.0' does not meet the minimum required version '0.50.1-alpha'"
        );
        for bad in ["v1", "1.2", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3.4", ""] {
            assert_eq!(
                eval(&format!("version.require_at_least({bad:?})")),
                format!(
                    "ERR version.require_at_least: version string '{bad}' must be a valid semver"
                )
            );
        }
    }

    #[test]
    fn precedence() {
        let p = |s| Semver::parse(s).unwrap();
        assert!(p("1.0.0-alpha").cmp_precedence(&p("1.0.0-alpha.1")).is_lt());
        assert!(p("1.0.0-alpha.beta")
            .cmp_precedence(&p("1.0.0-beta"))
            .is_lt());
        assert!(p("1.0.0-beta.2")
            .cmp_precedence(&p("1.0.0-beta.11"))
            .is_lt());
        assert!(p("1.0.0-rc.1").cmp_precedence(&p("1.0.0")).is_lt());
        assert!(p("1.0.0+build").cmp_precedence(&p("1.0.0")).is_eq());
    }
}
