//! The CEL libraries Kubernetes adds to validation rules, for `cel=`:
//!
//! - lists: `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)`;
//! - regex: `find(re)`, `findAll(re)`, `findAll(re, n)` (RE2 patterns);
//! - URLs: `url(s)`, `isURL(s)`, `getScheme()`, `getHost()`, `getHostname()`,
//!   `getPort()`, `getEscapedPath()`, `getQuery()`;
//! - IPs and CIDRs: `ip(s)`, `isIP(s)`, `ip.isCanonical(s)`, `family()`,
//!   `isUnspecified()`, `isLoopback()`, `isLinkLocalMulticast()`,
//!   `isLinkLocalUnicast()`, `isGlobalUnicast()`, `cidr(s)`, `isCIDR(s)`,
//!   `containsIP()`, `containsCIDR()`, `ip()`, `masked()`, `prefixLength()`,
//!   `string(ip)`, `string(cidr)`;
//! - quantities: `quantity(s)`, `isQuantity(s)`, `sign()`, `isGreaterThan()`,
//!   `isLessThan()`, `compareTo()`, `add()`, `sub()`, `asInteger()`, `isInteger()`,
//!   `asApproximateFloat()`.
//!
//! The strings and lists extensions and `optional` come with the `cel` crate.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use cel::common::types::{DYN_TYPE, INT_TYPE, LIST_TYPE, STRING_TYPE};
use cel::common::value::{CowVal, Val};
use cel::objects::{Key, Opaque};
use cel::{DeclarationError, Env, ExecutionError, Value};
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use super::go_url::{self, GoUrl};

type Res = Result<Value, ExecutionError>;

/// Wraps `fn(&[Value]) -> Res` as a `cel` overload.
macro_rules! overload {
    ($name:ident, $imp:path) => {
        fn $name<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
            let vals = args
                .iter()
                .map(|a| Value::try_from(&**a))
                .collect::<Result<Vec<_>, _>>()?;
            let out: Value = $imp(&vals)?;
            let boxed: Box<dyn Val> = out.try_into()?;
            Ok(CowVal::from(boxed))
        }
    };
}

fn fail(function: &str, message: impl ToString) -> ExecutionError {
    ExecutionError::function_error(function, message)
}

fn str_arg<'a>(function: &str, v: &'a Value) -> Result<&'a str, ExecutionError> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(ExecutionError::no_such_overload(
            function,
            vec![other.type_of().to_string()],
        )),
    }
}

fn opaque<T: 'static>(v: &Value) -> Option<&T> {
    match v {
        Value::Opaque(o) => o.downcast_ref::<T>(),
        _ => None,
    }
}

fn no_overload(function: &str, args: &[Value]) -> ExecutionError {
    ExecutionError::no_such_member_overload(
        function,
        args.iter().map(|a| a.type_of().to_string()).collect(),
    )
}

pub fn register(env: &mut Env) -> Result<(), DeclarationError> {
    // lists
    env.add_member_overload(
        "isSorted",
        "k8s.list.isSorted",
        LIST_TYPE,
        vec![],
        is_sorted,
    )?;
    env.add_member_overload("sum", "k8s.list.sum", LIST_TYPE, vec![], sum)?;
    env.add_member_overload("min", "k8s.list.min", LIST_TYPE, vec![], min)?;
    env.add_member_overload("max", "k8s.list.max", LIST_TYPE, vec![], max)?;
    env.add_member_overload(
        "indexOf",
        "k8s.list.indexOf",
        LIST_TYPE,
        vec![DYN_TYPE],
        index_of,
    )?;
    env.add_member_overload(
        "lastIndexOf",
        "k8s.list.lastIndexOf",
        LIST_TYPE,
        vec![DYN_TYPE],
        last_index_of,
    )?;
    // regex
    env.add_member_overload("find", "k8s.find", STRING_TYPE, vec![STRING_TYPE], find)?;
    env.add_member_overload(
        "findAll",
        "k8s.findAll",
        STRING_TYPE,
        vec![STRING_TYPE],
        find_all,
    )?;
    env.add_member_overload(
        "findAll",
        "k8s.findAll.n",
        STRING_TYPE,
        vec![STRING_TYPE, INT_TYPE],
        find_all_n,
    )?;
    // URLs
    env.add_overload("url", "k8s.url", vec![STRING_TYPE], url)?;
    env.add_overload("isURL", "k8s.isURL", vec![STRING_TYPE], is_url)?;
    for (name, f) in [
        ("getScheme", get_scheme as cel::common::functions::Function),
        ("getHost", get_host),
        ("getHostname", get_hostname),
        ("getPort", get_port),
        ("getEscapedPath", get_escaped_path),
        ("getQuery", get_query),
    ] {
        env.add_member_overload(name, &format!("k8s.url.{name}"), DYN_TYPE, vec![], f)?;
    }
    // IPs and CIDRs
    env.add_overload("ip", "k8s.ip", vec![STRING_TYPE], ip)?;
    env.add_overload("isIP", "k8s.isIP", vec![STRING_TYPE], is_ip)?;
    env.add_overload(
        "ip.isCanonical",
        "k8s.ip.isCanonical",
        vec![STRING_TYPE],
        ip_is_canonical,
    )?;
    env.add_overload("cidr", "k8s.cidr", vec![STRING_TYPE], cidr)?;
    env.add_overload("isCIDR", "k8s.isCIDR", vec![STRING_TYPE], is_cidr)?;
    env.add_overload("string", "k8s.string.opaque", vec![DYN_TYPE], string_of)?;
    env.add_member_overload("ip", "k8s.cidr.ip", DYN_TYPE, vec![], cidr_ip)?;
    for (name, f) in [
        ("family", family as cel::common::functions::Function),
        ("isUnspecified", is_unspecified),
        ("isLoopback", is_loopback),
        ("isLinkLocalMulticast", is_link_local_multicast),
        ("isLinkLocalUnicast", is_link_local_unicast),
        ("isGlobalUnicast", is_global_unicast),
        ("masked", masked),
        ("prefixLength", prefix_length),
        ("sign", sign),
        ("asInteger", as_integer),
        ("isInteger", is_integer),
        ("asApproximateFloat", as_approximate_float),
    ] {
        env.add_member_overload(name, &format!("k8s.{name}"), DYN_TYPE, vec![], f)?;
    }
    for (name, f) in [
        (
            "containsIP",
            contains_ip as cel::common::functions::Function,
        ),
        ("containsCIDR", contains_cidr),
        ("isGreaterThan", is_greater_than),
        ("isLessThan", is_less_than),
        ("compareTo", compare_to),
        ("add", add),
        ("sub", sub),
    ] {
        env.add_member_overload(name, &format!("k8s.{name}"), DYN_TYPE, vec![DYN_TYPE], f)?;
    }
    // quantities
    env.add_overload("quantity", "k8s.quantity", vec![STRING_TYPE], quantity)?;
    env.add_overload(
        "isQuantity",
        "k8s.isQuantity",
        vec![STRING_TYPE],
        is_quantity,
    )?;
    Ok(())
}

// ---- lists -------------------------------------------------------------------------

fn list_arg<'a>(function: &str, v: &'a Value) -> Result<&'a [Value], ExecutionError> {
    match v {
        Value::List(l) => Ok(l),
        other => Err(no_overload(function, std::slice::from_ref(other))),
    }
}

fn compare(function: &str, a: &Value, b: &Value) -> Result<Ordering, ExecutionError> {
    let ord = match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.partial_cmp(y),
        (Value::UInt(x), Value::UInt(y)) => x.partial_cmp(y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::String(x), Value::String(y)) => x.partial_cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.partial_cmp(y),
        (Value::Bytes(x), Value::Bytes(y)) => x.partial_cmp(y),
        _ => {
            if let (Some(x), Some(y)) = (opaque::<Quantity>(a), opaque::<Quantity>(b)) {
                Some(x.cmp_value(y))
            } else {
                None
            }
        }
    };
    ord.ok_or_else(|| {
        ExecutionError::no_such_overload(
            function,
            vec![a.type_of().to_string(), b.type_of().to_string()],
        )
    })
}

fn is_sorted_imp(args: &[Value]) -> Res {
    let l = list_arg("isSorted", &args[0])?;
    for w in l.windows(2) {
        if compare("isSorted", &w[0], &w[1])? == Ordering::Greater {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}
overload!(is_sorted, is_sorted_imp);

fn sum_imp(args: &[Value]) -> Res {
    let l = list_arg("sum", &args[0])?;
    let mut acc: Option<Value> = None;
    for v in l {
        acc = Some(match (acc, v) {
            (None, v) => v.clone(),
            (Some(Value::Int(a)), Value::Int(b)) => Value::Int(
                a.checked_add(*b)
                    .ok_or_else(|| fail("sum", "integer overflow"))?,
            ),
            (Some(Value::UInt(a)), Value::UInt(b)) => Value::UInt(
                a.checked_add(*b)
                    .ok_or_else(|| fail("sum", "integer overflow"))?,
            ),
            (Some(Value::Float(a)), Value::Float(b)) => Value::Float(a + b),
            (Some(a), b) => match (opaque::<Quantity>(&a), opaque::<Quantity>(b)) {
                (Some(x), Some(y)) => Value::Opaque(Arc::new(x.plus(y))),
                _ => return Err(no_overload("sum", &[a.clone(), b.clone()])),
            },
        });
    }
    // the sum of an empty list is 0
    Ok(acc.unwrap_or(Value::Int(0)))
}
overload!(sum, sum_imp);

fn extreme(function: &str, args: &[Value], want: Ordering) -> Res {
    let l = list_arg(function, &args[0])?;
    let mut best: Option<&Value> = None;
    for v in l {
        best = Some(match best {
            None => v,
            Some(b) if compare(function, v, b)? == want => v,
            Some(b) => b,
        });
    }
    best.cloned()
        .ok_or_else(|| fail(function, "the list is empty"))
}

fn min_imp(args: &[Value]) -> Res {
    extreme("min", args, Ordering::Less)
}
overload!(min, min_imp);

fn max_imp(args: &[Value]) -> Res {
    extreme("max", args, Ordering::Greater)
}
overload!(max, max_imp);

fn index_of_imp(args: &[Value]) -> Res {
    let l = list_arg("indexOf", &args[0])?;
    Ok(Value::Int(
        l.iter()
            .position(|v| *v == args[1])
            .map_or(-1, |i| i as i64),
    ))
}
overload!(index_of, index_of_imp);

fn last_index_of_imp(args: &[Value]) -> Res {
    let l = list_arg("lastIndexOf", &args[0])?;
    Ok(Value::Int(
        l.iter()
            .rposition(|v| *v == args[1])
            .map_or(-1, |i| i as i64),
    ))
}
overload!(last_index_of, last_index_of_imp);

// ---- regex -------------------------------------------------------------------------

fn regex(function: &str, pattern: &str) -> Result<regex::Regex, ExecutionError> {
    super::re2::compile(pattern).map_err(|e| fail(function, format!("invalid regex: {e}")))
}

fn find_imp(args: &[Value]) -> Res {
    let s = str_arg("find", &args[0])?;
    let re = regex("find", str_arg("find", &args[1])?)?;
    Ok(Value::String(Arc::new(
        re.find(s)
            .map_or_else(String::new, |m| m.as_str().to_owned()),
    )))
}
overload!(find, find_imp);

fn find_all_with(args: &[Value], limit: i64) -> Res {
    let s = str_arg("findAll", &args[0])?;
    let re = regex("findAll", str_arg("findAll", &args[1])?)?;
    let all = re
        .find_iter(s)
        .map(|m| Value::String(Arc::new(m.as_str().to_owned())));
    let found: Vec<Value> = if limit < 0 {
        all.collect()
    } else {
        all.take(limit as usize).collect()
    };
    Ok(Value::List(Arc::new(found)))
}

fn find_all_imp(args: &[Value]) -> Res {
    find_all_with(args, -1)
}
overload!(find_all, find_all_imp);

fn find_all_n_imp(args: &[Value]) -> Res {
    let n = match args.get(2) {
        Some(Value::Int(n)) => *n,
        _ => return Err(no_overload("findAll", args)),
    };
    find_all_with(args, n)
}
overload!(find_all_n, find_all_n_imp);

// ---- URLs --------------------------------------------------------------------------

/// A URL as Kubernetes' `url()` reads it: what Go's `url.ParseRequestURI` takes (an
/// absolute URI or an absolute path), as Go's `url.Parse` reads it (`go_url.rs`, which
/// `@ytt:url` reads with too).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Url(GoUrl);

impl Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.URL"
    }
}

fn parse_url(s: &str) -> Result<Url, String> {
    go_url::parse_request_uri(s)?;
    go_url::parse(s).map(Url)
}

fn url_imp(args: &[Value]) -> Res {
    let s = str_arg("url", &args[0])?;
    parse_url(s)
        .map(|u| Value::Opaque(Arc::new(u)))
        .map_err(|e| {
            fail(
                "url",
                format!("URL parse error during conversion from string: {e}"),
            )
        })
}
overload!(url, url_imp);

fn is_url_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(
        go_url::parse_request_uri(str_arg("isURL", &args[0])?).is_ok(),
    ))
}
overload!(is_url, is_url_imp);

fn url_arg<'a>(function: &str, args: &'a [Value]) -> Result<&'a GoUrl, ExecutionError> {
    opaque::<Url>(&args[0])
        .map(|u| &u.0)
        .ok_or_else(|| no_overload(function, args))
}

fn string(s: impl Into<String>) -> Value {
    Value::String(Arc::new(s.into()))
}

fn get_scheme_imp(args: &[Value]) -> Res {
    Ok(string(&url_arg("getScheme", args)?.scheme))
}
overload!(get_scheme, get_scheme_imp);

fn get_host_imp(args: &[Value]) -> Res {
    Ok(string(&url_arg("getHost", args)?.host))
}
overload!(get_host, get_host_imp);

fn get_hostname_imp(args: &[Value]) -> Res {
    Ok(string(url_arg("getHostname", args)?.hostname()))
}
overload!(get_hostname, get_hostname_imp);

fn get_port_imp(args: &[Value]) -> Res {
    Ok(string(url_arg("getPort", args)?.port()))
}
overload!(get_port, get_port_imp);

fn get_escaped_path_imp(args: &[Value]) -> Res {
    Ok(string(url_arg("getEscapedPath", args)?.escaped_path()))
}
overload!(get_escaped_path, get_escaped_path_imp);

fn get_query_imp(args: &[Value]) -> Res {
    let map: HashMap<Key, Value> = url_arg("getQuery", args)?
        .query()
        .into_iter()
        .map(|(k, vs)| {
            let values = vs.into_iter().map(string).collect();
            (Key::String(Arc::new(k)), Value::List(Arc::new(values)))
        })
        .collect();
    Ok(Value::from(map))
}
overload!(get_query, get_query_imp);

// ---- IPs and CIDRs -----------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
struct Ip(IpAddr);

impl Opaque for Ip {
    fn runtime_type_name(&self) -> &str {
        "net.IP"
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Opaque for Cidr {
    fn runtime_type_name(&self) -> &str {
        "net.CIDR"
    }
}

/// An address as Kubernetes' `ip()` reads it (`netip.ParseAddr`): the standard library's
/// grammar, which `@ytt:ip` (Go's `net.ParseIP`) and `format="ipv4"`/`"ipv6"` read too
/// and which has no zone (Kubernetes refuses one); unlike `@ytt:ip`, an IPv4-mapped IPv6
/// address is refused, however it is written (`Is4In6`).
fn parse_ip(s: &str) -> Option<IpAddr> {
    match s.parse().ok()? {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => None,
        a => Some(a),
    }
}

fn parse_cidr(s: &str) -> Option<Cidr> {
    let (addr, prefix) = s.split_once('/')?;
    let addr = parse_ip(addr)?;
    if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_digit()) || prefix.len() > 3 {
        return None;
    }
    let prefix: u8 = prefix.parse().ok()?;
    let max = if addr.is_ipv4() { 32 } else { 128 };
    (prefix <= max).then_some(Cidr { addr, prefix })
}

fn ip_imp(args: &[Value]) -> Res {
    let s = str_arg("ip", &args[0])?;
    parse_ip(s)
        .map(|a| Value::Opaque(Arc::new(Ip(a))))
        .ok_or_else(|| {
            fail(
                "ip",
                format!("IP Address {s:?} parse error during conversion from string"),
            )
        })
}
overload!(ip, ip_imp);

fn is_ip_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(parse_ip(str_arg("isIP", &args[0])?).is_some()))
}
overload!(is_ip, is_ip_imp);

fn ip_is_canonical_imp(args: &[Value]) -> Res {
    let s = str_arg("ip.isCanonical", &args[0])?;
    let a = parse_ip(s)
        .ok_or_else(|| fail("ip.isCanonical", format!("IP Address {s:?} parse error")))?;
    Ok(Value::Bool(a.to_string() == s))
}
overload!(ip_is_canonical, ip_is_canonical_imp);

fn cidr_imp(args: &[Value]) -> Res {
    let s = str_arg("cidr", &args[0])?;
    parse_cidr(s)
        .map(|c| Value::Opaque(Arc::new(c)))
        .ok_or_else(|| {
            fail(
                "cidr",
                format!("network address {s:?} parse error during conversion from string"),
            )
        })
}
overload!(cidr, cidr_imp);

fn is_cidr_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(
        parse_cidr(str_arg("isCIDR", &args[0])?).is_some(),
    ))
}
overload!(is_cidr, is_cidr_imp);

fn string_of_imp(args: &[Value]) -> Res {
    if let Some(ip) = opaque::<Ip>(&args[0]) {
        return Ok(string(ip.0.to_string()));
    }
    if let Some(c) = opaque::<Cidr>(&args[0]) {
        return Ok(string(format!("{}/{}", c.addr, c.prefix)));
    }
    if let Some(q) = opaque::<Quantity>(&args[0]) {
        return Ok(string(q.text.clone()));
    }
    if let Some(u) = opaque::<Url>(&args[0]) {
        return Ok(string(u.0.string()));
    }
    Err(ExecutionError::no_such_overload(
        "string",
        vec![args[0].type_of().to_string()],
    ))
}
overload!(string_of, string_of_imp);

fn ip_arg<'a>(function: &str, args: &'a [Value]) -> Result<&'a IpAddr, ExecutionError> {
    opaque::<Ip>(&args[0])
        .map(|i| &i.0)
        .ok_or_else(|| no_overload(function, args))
}

fn cidr_arg<'a>(function: &str, args: &'a [Value]) -> Result<&'a Cidr, ExecutionError> {
    opaque::<Cidr>(&args[0]).ok_or_else(|| no_overload(function, args))
}

fn family_imp(args: &[Value]) -> Res {
    Ok(Value::Int(if ip_arg("family", args)?.is_ipv4() {
        4
    } else {
        6
    }))
}
overload!(family, family_imp);

fn is_unspecified_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(ip_arg("isUnspecified", args)?.is_unspecified()))
}
overload!(is_unspecified, is_unspecified_imp);

fn is_loopback_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(ip_arg("isLoopback", args)?.is_loopback()))
}
overload!(is_loopback, is_loopback_imp);

fn link_local_multicast(a: &IpAddr) -> bool {
    match a {
        IpAddr::V4(v4) => v4.octets()[..3] == [224, 0, 0],
        IpAddr::V6(v6) => v6.segments()[0] & 0xff0f == 0xff02,
    }
}

fn link_local_unicast(a: &IpAddr) -> bool {
    match a {
        IpAddr::V4(v4) => v4.is_link_local(),
        IpAddr::V6(v6) => v6.segments()[0] & 0xffc0 == 0xfe80,
    }
}

fn is_link_local_multicast_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(link_local_multicast(ip_arg(
        "isLinkLocalMulticast",
        args,
    )?)))
}
overload!(is_link_local_multicast, is_link_local_multicast_imp);

fn is_link_local_unicast_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(link_local_unicast(ip_arg(
        "isLinkLocalUnicast",
        args,
    )?)))
}
overload!(is_link_local_unicast, is_link_local_unicast_imp);

/// Go's `IsGlobalUnicast`: not unspecified, loopback, multicast, link-local or the
/// IPv4 broadcast address.
fn is_global_unicast_imp(args: &[Value]) -> Res {
    let a = ip_arg("isGlobalUnicast", args)?;
    let broadcast = *a == IpAddr::V4(Ipv4Addr::BROADCAST);
    Ok(Value::Bool(
        !a.is_unspecified()
            && !a.is_loopback()
            && !a.is_multicast()
            && !link_local_unicast(a)
            && !broadcast,
    ))
}
overload!(is_global_unicast, is_global_unicast_imp);

fn bits(a: &IpAddr) -> (u128, u8) {
    match a {
        IpAddr::V4(v4) => (u32::from(*v4) as u128, 32),
        IpAddr::V6(v6) => (u128::from(*v6), 128),
    }
}

fn mask(a: &IpAddr, prefix: u8) -> IpAddr {
    let (v, width) = bits(a);
    let keep = if prefix == 0 {
        0
    } else {
        (!0u128 << (width - prefix)) & if width == 32 { 0xffff_ffff } else { !0 }
    };
    let m = v & keep;
    match a {
        IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from(m as u32)),
        IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(m)),
    }
}

fn cidr_contains(c: &Cidr, a: &IpAddr) -> bool {
    a.is_ipv4() == c.addr.is_ipv4() && mask(a, c.prefix) == mask(&c.addr, c.prefix)
}

fn contains_ip_imp(args: &[Value]) -> Res {
    let c = cidr_arg("containsIP", args)?;
    let a = match &args[1] {
        Value::String(s) => parse_ip(s)
            .ok_or_else(|| fail("containsIP", format!("IP Address {s:?} parse error")))?,
        other => opaque::<Ip>(other)
            .map(|i| i.0)
            .ok_or_else(|| no_overload("containsIP", args))?,
    };
    Ok(Value::Bool(cidr_contains(c, &a)))
}
overload!(contains_ip, contains_ip_imp);

fn contains_cidr_imp(args: &[Value]) -> Res {
    let c = cidr_arg("containsCIDR", args)?;
    let other = match &args[1] {
        Value::String(s) => parse_cidr(s)
            .ok_or_else(|| fail("containsCIDR", format!("network address {s:?} parse error")))?,
        other => opaque::<Cidr>(other)
            .cloned()
            .ok_or_else(|| no_overload("containsCIDR", args))?,
    };
    Ok(Value::Bool(
        other.prefix >= c.prefix && cidr_contains(c, &other.addr),
    ))
}
overload!(contains_cidr, contains_cidr_imp);

fn cidr_ip_imp(args: &[Value]) -> Res {
    Ok(Value::Opaque(Arc::new(Ip(cidr_arg("ip", args)?.addr))))
}
overload!(cidr_ip, cidr_ip_imp);

fn masked_imp(args: &[Value]) -> Res {
    let c = cidr_arg("masked", args)?;
    Ok(Value::Opaque(Arc::new(Cidr {
        addr: mask(&c.addr, c.prefix),
        prefix: c.prefix,
    })))
}
overload!(masked, masked_imp);

fn prefix_length_imp(args: &[Value]) -> Res {
    Ok(Value::Int(cidr_arg("prefixLength", args)?.prefix as i64))
}
overload!(prefix_length, prefix_length_imp);

// ---- quantities --------------------------------------------------------------------

/// A Kubernetes resource quantity, exactly: `num / den`.
#[derive(Clone, Debug)]
struct Quantity {
    num: BigInt,
    den: BigInt,
    text: String,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

/// Largest decimal exponent accepted (Kubernetes keeps quantities far below).
const MAX_EXPONENT: i64 = 1_000;

impl Quantity {
    fn parse(s: &str) -> Option<Quantity> {
        if !super::formats::Format::Quantity.is_valid(s) {
            return None;
        }
        let (negative, body) = match s.as_bytes()[0] {
            b'-' => (true, &s[1..]),
            b'+' => (false, &s[1..]),
            _ => (false, s),
        };
        let split = body
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(body.len());
        let (number, suffix) = body.split_at(split);
        let (int, frac) = number.split_once('.').unwrap_or((number, ""));
        let digits = format!("{int}{frac}");
        let mut num: BigInt = if digits.is_empty() {
            BigInt::zero()
        } else {
            digits.parse().ok()?
        };
        let mut exp10: i64 = -(frac.len() as i64);
        let mut exp2: u32 = 0;
        match suffix {
            "" => {}
            "n" => exp10 -= 9,
            "u" => exp10 -= 6,
            "m" => exp10 -= 3,
            "k" => exp10 += 3,
            "M" => exp10 += 6,
            "G" => exp10 += 9,
            "T" => exp10 += 12,
            "P" => exp10 += 15,
            "E" => exp10 += 18,
            "Ki" => exp2 = 10,
            "Mi" => exp2 = 20,
            "Gi" => exp2 = 30,
            "Ti" => exp2 = 40,
            "Pi" => exp2 = 50,
            "Ei" => exp2 = 60,
            e => {
                let n: i64 = e[1..].parse().ok()?;
                if n.abs() > MAX_EXPONENT {
                    return None;
                }
                exp10 += n;
            }
        }
        if negative {
            num = -num;
        }
        num <<= exp2;
        let mut den = BigInt::from(1);
        if exp10 >= 0 {
            num *= BigInt::from(10).pow(exp10 as u32);
        } else {
            den = BigInt::from(10).pow((-exp10) as u32);
        }
        Some(Quantity {
            num,
            den,
            text: s.to_owned(),
        })
    }

    fn cmp_value(&self, other: &Quantity) -> Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }

    fn combine(&self, other: &Quantity, negate: bool) -> Quantity {
        let right = &other.num * &self.den;
        let left = &self.num * &other.den;
        let num = if negate { left - right } else { left + right };
        let den = &self.den * &other.den;
        let text = decimal_text(&num, &den);
        Quantity { num, den, text }
    }

    fn plus(&self, other: &Quantity) -> Quantity {
        self.combine(other, false)
    }

    fn integer(&self) -> Option<i64> {
        if (&self.num % &self.den).is_zero() {
            (&self.num / &self.den).to_i64()
        } else {
            None
        }
    }
}

/// `num/den` (den a power of ten) as a decimal quantity.
fn decimal_text(num: &BigInt, den: &BigInt) -> String {
    let scale = den.to_string().len() - 1;
    let digits = num.abs().to_string();
    let sign = if num.is_negative() { "-" } else { "" };
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (i, f) = padded.split_at(padded.len() - scale);
    let f = f.trim_end_matches('0');
    if f.is_empty() {
        format!("{sign}{i}")
    } else {
        format!("{sign}{i}.{f}")
    }
}

fn quantity_imp(args: &[Value]) -> Res {
    let s = str_arg("quantity", &args[0])?;
    Quantity::parse(s)
        .map(|q| Value::Opaque(Arc::new(q)))
        .ok_or_else(|| fail("quantity", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"))
}
overload!(quantity, quantity_imp);

fn is_quantity_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(
        Quantity::parse(str_arg("isQuantity", &args[0])?).is_some(),
    ))
}
overload!(is_quantity, is_quantity_imp);

fn q_arg<'a>(function: &str, args: &'a [Value]) -> Result<&'a Quantity, ExecutionError> {
    opaque::<Quantity>(&args[0]).ok_or_else(|| no_overload(function, args))
}

/// The second argument of `add`/`sub`/comparisons: a quantity, or an int for
/// `add`/`sub`.
fn q_other(function: &str, args: &[Value], ints: bool) -> Result<Quantity, ExecutionError> {
    match &args[1] {
        Value::Int(i) if ints => Ok(Quantity {
            num: BigInt::from(*i),
            den: BigInt::from(1),
            text: i.to_string(),
        }),
        other => opaque::<Quantity>(other)
            .cloned()
            .ok_or_else(|| no_overload(function, args)),
    }
}

fn sign_imp(args: &[Value]) -> Res {
    let q = q_arg("sign", args)?;
    Ok(Value::Int(match q.num.sign() {
        num_bigint::Sign::Minus => -1,
        num_bigint::Sign::NoSign => 0,
        num_bigint::Sign::Plus => 1,
    }))
}
overload!(sign, sign_imp);

fn is_greater_than_imp(args: &[Value]) -> Res {
    let q = q_arg("isGreaterThan", args)?;
    let o = q_other("isGreaterThan", args, false)?;
    Ok(Value::Bool(q.cmp_value(&o) == Ordering::Greater))
}
overload!(is_greater_than, is_greater_than_imp);

fn is_less_than_imp(args: &[Value]) -> Res {
    let q = q_arg("isLessThan", args)?;
    let o = q_other("isLessThan", args, false)?;
    Ok(Value::Bool(q.cmp_value(&o) == Ordering::Less))
}
overload!(is_less_than, is_less_than_imp);

fn compare_to_imp(args: &[Value]) -> Res {
    let q = q_arg("compareTo", args)?;
    let o = q_other("compareTo", args, false)?;
    Ok(Value::Int(match q.cmp_value(&o) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }))
}
overload!(compare_to, compare_to_imp);

fn add_imp(args: &[Value]) -> Res {
    let q = q_arg("add", args)?;
    let o = q_other("add", args, true)?;
    Ok(Value::Opaque(Arc::new(q.combine(&o, false))))
}
overload!(add, add_imp);

fn sub_imp(args: &[Value]) -> Res {
    let q = q_arg("sub", args)?;
    let o = q_other("sub", args, true)?;
    Ok(Value::Opaque(Arc::new(q.combine(&o, true))))
}
overload!(sub, sub_imp);

fn as_integer_imp(args: &[Value]) -> Res {
    let q = q_arg("asInteger", args)?;
    q.integer().map(Value::Int).ok_or_else(|| {
        fail(
            "asInteger",
            "cannot convert value to integer: value is fractional or out of range",
        )
    })
}
overload!(as_integer, as_integer_imp);

fn is_integer_imp(args: &[Value]) -> Res {
    Ok(Value::Bool(q_arg("isInteger", args)?.integer().is_some()))
}
overload!(is_integer, is_integer_imp);

fn as_approximate_float_imp(args: &[Value]) -> Res {
    let q = q_arg("asApproximateFloat", args)?;
    let n = q.num.to_f64().unwrap_or(f64::NAN);
    let d = q.den.to_f64().unwrap_or(f64::NAN);
    Ok(Value::Float(n / d))
}
overload!(as_approximate_float, as_approximate_float_imp);

#[cfg(test)]
mod tests {
    use crate::validations::cel::{compile, evaluate};
    use crate::yaml::Node;

    fn run(expr: &str) -> Result<bool, String> {
        evaluate(&compile(expr).unwrap(), &Node::Null)
    }

    #[test]
    fn kubernetes_libraries() {
        for ok in [
            // lists
            "[1, 2, 3].isSorted()",
            "![2, 1].isSorted()",
            "[1, 2, 3].sum() == 6",
            "[].sum() == 0",
            "[3, 1, 2].min() == 1",
            "['a', 'c', 'b'].max() == 'c'",
            "[1, 2, 1].indexOf(1) == 0",
            "[1, 2, 1].lastIndexOf(1) == 2",
            "[1].indexOf(5) == -1",
            // regex
            "'abc 123'.find('[0-9]+') == '123'",
            "'abc'.find('[0-9]+') == ''",
            "'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333']",
            "'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']",
            // URLs
            "isURL('https://example.com:80/a?b=c')",
            "!isURL('not a url')",
            "isURL('/absolute/path')",
            "url('https://example.com:8080/p').getScheme() == 'https'",
            "url('https://example.com:8080/p').getHost() == 'example.com:8080'",
            "url('https://example.com:8080/p').getHostname() == 'example.com'",
            "url('https://[::1]:80/').getHostname() == '::1'",
            "url('https://example.com:8080/p').getPort() == '8080'",
            "url('https://example.com/a%20b').getEscapedPath() == '/a%20b'",
            "url('https://x/?k=v&k=w').getQuery() == {'k': ['v', 'w']}",
            // as Go reads them
            "isURL('mailto:joe@example.com')",
            "isURL('/a b')",
            "!isURL('/a%zz')",
            "!isURL('http://a b/')",
            "url('https://x/p#frag').getEscapedPath() == '/p'",
            "url('https://x/a b').getEscapedPath() == '/a%20b'",
            "url('https://x/?a=1;b=2&c=3').getQuery() == {'c': ['3']}",
            "url('https://h').getPort() == ''",
            "string(url('HTTPS://h/p?q#f')) == 'https://h/p?q#f'",
            // IPs and CIDRs
            "isIP('10.0.0.1')",
            "!isIP('10.0.0.256')",
            "!isIP('::ffff:1.2.3.4')",
            "!isIP('::ffff:102:304')",
            "!isCIDR('::ffff:102:304/120')",
            "isIP('::102:304')",
            "ip('10.0.0.1').family() == 4",
            "ip('::1').family() == 6",
            "ip('127.0.0.1').isLoopback()",
            "ip('0.0.0.0').isUnspecified()",
            "ip('fe80::1').isLinkLocalUnicast()",
            "ip('224.0.0.1').isLinkLocalMulticast()",
            "ip('8.8.8.8').isGlobalUnicast()",
            "!ip('255.255.255.255').isGlobalUnicast()",
            "ip.isCanonical('2001:db8::1')",
            "!ip.isCanonical('2001:DB8::1')",
            "isCIDR('10.0.0.0/8')",
            "!isCIDR('10.0.0.0/33')",
            "cidr('10.0.0.0/8').containsIP('10.1.2.3')",
            "cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))",
            "!cidr('10.0.0.0/8').containsIP('11.0.0.1')",
            "cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')",
            "!cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')",
            "cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')",
            "cidr('10.1.2.3/8').ip() == ip('10.1.2.3')",
            "cidr('10.0.0.0/8').prefixLength() == 8",
            "string(cidr('10.0.0.0/8')) == '10.0.0.0/8'",
            "string(ip('::1')) == '::1'",
            // quantities
            "isQuantity('500m')",
            "!isQuantity('512MB')",
            "quantity('1Gi').isGreaterThan(quantity('500Mi'))",
            "quantity('500m').isLessThan(quantity('1'))",
            "quantity('1') == quantity('1000m')",
            "quantity('1k').compareTo(quantity('1000')) == 0",
            "quantity('1Ki').asInteger() == 1024",
            "!quantity('1.5').isInteger()",
            "quantity('1.5').asApproximateFloat() == 1.5",
            "quantity('-2').sign() == -1",
            "quantity('1').add(quantity('500m')) == quantity('1.5')",
            "quantity('1').add(2) == quantity('3')",
            "quantity('1').sub(quantity('500m')) == quantity('500m')",
            "quantity('1e3').asInteger() == 1000",
        ] {
            assert_eq!(run(ok), Ok(true), "{ok}");
        }
        assert!(run("url('nope')").unwrap_err().contains("url"));
        assert!(run("[].min() == 1").is_err());
        assert!(run("quantity('1.5').asInteger() == 1").is_err());
    }
}
