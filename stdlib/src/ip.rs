//! `@ytt:ip`: `parse_addr(s)` and `parse_cidr(s)` with Go `net` semantics (IPv4 addresses
//! are kept in IPv4-mapped IPv6 form and printed as IPv4, like Go's `net.IP`).

use std::fmt;
use std::net::Ipv4Addr;

use allocative::Allocative;
use starlark::any::ProvidesStaticType;
use starlark::collections::SmallMap;
use starlark::environment::{GlobalsBuilder, Methods, MethodsBuilder, MethodsStatic};
use starlark::starlark_module;
use starlark::starlark_simple_value;
use starlark::values::tuple::{AllocTuple, UnpackTuple};
use starlark::values::{Heap, NoSerialize, StarlarkPagable, StarlarkValue, Value};
use starlark_derive::starlark_value;

use ytt::module_api::{check_positional, string_arg};

pub fn register(builder: &mut GlobalsBuilder) {
    builder.namespace("ip", members);
}

const V4_IN_V6_PREFIX: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// Go's `net.ParseIP`: the 16-byte form (an IPv4 address mapped into IPv6), or None. The
/// text is read by the standard library, whose grammar is Go's (dotted-decimal IPv4
/// without leading zeros; IPv6 with `::` and a trailing IPv4, no zone): `cel=`'s `ip()`
/// and `format="ipv4"`/`"ipv6"` read addresses with it too.
fn parse_ip(s: &str) -> Option<[u8; 16]> {
    Some(match s.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(v4) => v4_in_v6(v4.octets()),
        std::net::IpAddr::V6(v6) => v6.octets(),
    })
}

fn v4_in_v6(v4: [u8; 4]) -> [u8; 16] {
    let mut ip = [0u8; 16];
    ip[..12].copy_from_slice(&V4_IN_V6_PREFIX);
    ip[12..].copy_from_slice(&v4);
    ip
}

/// Go's `IP.To4`.
fn to4(ip: &[u8; 16]) -> Option<[u8; 4]> {
    if ip[..12] == V4_IN_V6_PREFIX {
        Some([ip[12], ip[13], ip[14], ip[15]])
    } else {
        None
    }
}

/// Go's `IP.String` (IPv4 form for IPv4-mapped addresses; RFC 5952 otherwise).
fn ip_string(ip: &[u8; 16]) -> String {
    if let Some(v4) = to4(ip) {
        return format!("{}.{}.{}.{}", v4[0], v4[1], v4[2], v4[3]);
    }
    let groups: Vec<u16> = ip
        .chunks(2)
        .map(|c| ((c[0] as u16) << 8) | c[1] as u16)
        .collect();
    // Longest run (at least 2) of zero groups; the first one on ties.
    let (mut best_start, mut best_len) = (usize::MAX, 0);
    let mut j = 0;
    while j < 8 {
        if groups[j] == 0 {
            let start = j;
            while j < 8 && groups[j] == 0 {
                j += 1;
            }
            if j - start > best_len && j - start >= 2 {
                best_start = start;
                best_len = j - start;
            }
        } else {
            j += 1;
        }
    }
    let mut out = String::new();
    let mut j = 0;
    while j < 8 {
        if j == best_start {
            out.push_str("::");
            j += best_len;
            continue;
        }
        if !out.is_empty() && !out.ends_with(':') {
            out.push(':');
        }
        out.push_str(&format!("{:x}", groups[j]));
        j += 1;
    }
    out
}

/// Go's `net.ParseCIDR`: (address, masked network address, prefix length, IPv4 family).
fn parse_cidr(s: &str) -> Option<([u8; 16], [u8; 16], usize, bool)> {
    let (addr, mask) = s.split_once('/')?;
    let is4 = addr.contains('.') && !addr.contains(':');
    let ip = if is4 {
        v4_in_v6(addr.parse::<Ipv4Addr>().ok()?.octets())
    } else {
        parse_ip(addr)?
    };
    if mask.is_empty() || !mask.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = mask.trim_start_matches('0');
    if digits.len() > 3 {
        return None;
    }
    let bits: usize = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let max = if is4 { 32 } else { 128 };
    if bits > max {
        return None;
    }
    let prefix16 = if is4 { bits + 96 } else { bits };
    let mut net = ip;
    for (k, b) in net.iter_mut().enumerate() {
        let keep = prefix16.saturating_sub(k * 8).min(8);
        let m: u8 = if keep == 0 { 0 } else { 0xffu8 << (8 - keep) };
        // The IPv4 prefix bytes are kept for IPv4 networks (Go masks the 4-byte form).
        if !(is4 && k < 12) {
            *b &= m;
        }
    }
    Some((ip, net, bits, is4))
}

// ---------------------------------------------------------------------------------------
// Starlark values

/// `@ytt:ip.addr`.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct IpAddr {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    ip: [u8; 16],
}
starlark_simple_value!(IpAddr);

impl fmt::Display for IpAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ip_string(&self.ip))
    }
}

static ADDR_METHODS: MethodsStatic = MethodsStatic::new("ip_addr_methods", addr_methods);

#[starlark_value(type = "@ytt:ip.addr")]
impl<'v> StarlarkValue<'v> for IpAddr {
    fn get_methods() -> Option<&'static Methods> {
        Some(ADDR_METHODS.methods())
    }
}

#[starlark_module]
fn addr_methods(builder: &mut MethodsBuilder) {
    /// True for IPv4 (including IPv4-mapped IPv6) addresses.
    fn is_ipv4(this: &IpAddr) -> anyhow::Result<bool> {
        Ok(to4(&this.ip).is_some())
    }

    /// True for IPv6 addresses that are not IPv4-mapped.
    fn is_ipv6(this: &IpAddr) -> anyhow::Result<bool> {
        Ok(to4(&this.ip).is_none())
    }

    /// The address as a string (Go's format).
    fn string(this: &IpAddr) -> anyhow::Result<String> {
        Ok(ip_string(&this.ip))
    }
}

/// `@ytt:ip.net`.
#[derive(Debug, ProvidesStaticType, NoSerialize, StarlarkPagable, Allocative)]
pub struct IpNet {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    ip: [u8; 16],
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    bits: usize,
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    is4: bool,
}
starlark_simple_value!(IpNet);

impl IpNet {
    /// Go's `IPNet.String`.
    fn string(&self) -> String {
        let prefix = match (to4(&self.ip), self.is4) {
            (_, true) => self.bits,
            // An IPv6 mask over an IPv4-mapped address prints its last 32 bits.
            (Some(_), false) => self.bits.saturating_sub(96),
            (None, false) => self.bits,
        };
        format!("{}/{prefix}", ip_string(&self.ip))
    }
}

impl fmt::Display for IpNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.string())
    }
}

static NET_METHODS: MethodsStatic = MethodsStatic::new("ip_net_methods", net_methods);

#[starlark_value(type = "@ytt:ip.net")]
impl<'v> StarlarkValue<'v> for IpNet {
    fn get_methods() -> Option<&'static Methods> {
        Some(NET_METHODS.methods())
    }
}

#[starlark_module]
fn net_methods(builder: &mut MethodsBuilder) {
    /// The (masked) network address.
    fn addr(this: &IpNet) -> anyhow::Result<IpAddr> {
        Ok(IpAddr { ip: this.ip })
    }

    /// The network in CIDR notation.
    fn string(this: &IpNet) -> anyhow::Result<String> {
        Ok(this.string())
    }
}

#[starlark_module]
fn members(builder: &mut GlobalsBuilder) {
    /// Parses an IPv4 or IPv6 address.
    fn parse_addr<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
    ) -> anyhow::Result<IpAddr> {
        const F: &str = "ip.parse_addr";
        check_positional(F, &args.items, &kwargs, 1, 1)?;
        let s = string_arg(F, &args.items, 0)?;
        match parse_ip(s) {
            Some(ip) => Ok(IpAddr { ip }),
            None => anyhow::bail!("{F}: invalid IP address: {s}"),
        }
    }

    /// Parses CIDR notation into (address, network).
    fn parse_cidr<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const F: &str = "ip.parse_cidr";
        check_positional(F, &args.items, &kwargs, 1, 1)?;
        let s = string_arg(F, &args.items, 0)?;
        let Some((ip, net, bits, is4)) = parse_cidr(s) else {
            anyhow::bail!("{F}: invalid CIDR address: {s}");
        };
        let addr = heap.alloc(IpAddr { ip });
        let net = heap.alloc(IpNet { ip: net, bits, is4 });
        Ok(heap.alloc(AllocTuple([addr, net])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::eval;

    fn norm(s: &str) -> String {
        parse_ip(s)
            .map(|ip| ip_string(&ip))
            .unwrap_or_else(|| "-".into())
    }

    #[test]
    fn addresses() {
        let code = r#"
a = ip.parse_addr("192.0.2.1")
b = ip.parse_addr("2001:db8::1")
[a.string(), a.is_ipv4(), a.is_ipv6(), b.string(), b.is_ipv4(), b.is_ipv6(), type(a)]
"#;
        assert_eq!(
            eval(code),
            r#"["192.0.2.1", True, False, "2001:db8::1", False, True, "@ytt:ip.addr"]"#
        );
        assert_eq!(
            eval(r#"ip.parse_addr("not-a-valid-addr")"#),
            "ERR ip.parse_addr: invalid IP address: not-a-valid-addr"
        );
        assert_eq!(
            eval("ip.parse_addr()"),
            "ERR ip.parse_addr: got 0 arguments, want 1"
        );
    }

    #[test]
    fn go_formatting() {
        assert_eq!(norm("::ffff:10.0.0.1"), "10.0.0.1");
        assert_eq!(norm("::"), "::");
        assert_eq!(norm("::1"), "::1");
        assert_eq!(norm("1::"), "1::");
        assert_eq!(norm("2001:DB8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
        assert_eq!(norm("2001:db8:0:1:1:1:1:1"), "2001:db8:0:1:1:1:1:1");
        assert_eq!(norm("::1.2.3.4"), "::102:304");
        assert_eq!(norm("1:2:3:4:5:6:1.2.3.4"), "1:2:3:4:5:6:102:304");
        assert_eq!(norm("0:0:0:0:0:0:0:0"), "::");
        for bad in [
            "",
            "1.2.3",
            "1.2.3.4.5",
            "01.2.3.4",
            "256.1.1.1",
            "1..2.3",
            ":",
            ":::",
            "1:2",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7::8",
            "12345::",
            "fe80::1%eth0",
            "1:2:3:4:5:1.2.3.4",
            "::1.2.3",
            "1::2::3",
            "1:",
            ":1",
            "x",
        ] {
            assert_eq!(norm(bad), "-", "{bad}");
        }
    }

    #[test]
    fn cidrs() {
        let code = r#"
a, n = ip.parse_cidr("192.0.2.1/24")
b, m = ip.parse_cidr("2001:db8::1/96")
[a.string(), n.string(), n.addr().string(), n.addr().is_ipv4(),
 b.string(), m.string(), m.addr().string(), m.addr().is_ipv6(), type(n)]
"#;
        assert_eq!(
            eval(code),
            r#"["192.0.2.1", "192.0.2.0/24", "192.0.2.0", True, "2001:db8::1", "2001:db8::/96", "2001:db8::", True, "@ytt:ip.net"]"#
        );
        let net = |s: &str| eval(&format!("ip.parse_cidr({s:?})[1].string()"));
        assert_eq!(net("10.1.2.3/0"), "0.0.0.0/0");
        assert_eq!(net("10.1.2.3/32"), "10.1.2.3/32");
        assert_eq!(net("10.1.2.3/08"), "10.0.0.0/8");
        assert_eq!(net("::ffff:1.2.3.4/120"), "1.2.3.0/24");
        assert_eq!(net("::ffff:1.2.3.4/80"), "::/80");
        assert_eq!(net("2001:db8::1/128"), "2001:db8::1/128");
        for bad in [
            "not-a-valid-cidr",
            "1.2.3.4",
            "1.2.3.4/33",
            "1.2.3.4/",
            "::/129",
            "1.2.3.4/-1",
            "1.2.3.4/ 1",
        ] {
            assert_eq!(
                eval(&format!("ip.parse_cidr({bad:?})")),
                format!("ERR ip.parse_cidr: invalid CIDR address: {bad}")
            );
        }
    }
}
