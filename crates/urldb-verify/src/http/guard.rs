//! The private-address guard: which IP addresses urldb refuses to connect
//! to unless the user allows it.
//!
//! A database is data that pull requests change. Without this guard a
//! record pointing at `http://169.254.169.254/` or at a name that resolves
//! to `10.0.0.7` would turn `urldb verify` in CI into a probe of the CI
//! runner's own network. The check runs on the *resolved* addresses (see
//! `super::GuardResolver`), and the connection is made to exactly the
//! addresses that passed, so a DNS answer cannot change between check and
//! connect.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    /// `0.0.0.0/8`, `::`: "this host" — many systems connect it to loopback.
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918 `10/8`, `172.16/12`, `192.168/16`; deprecated IPv6
    /// site-local `fec0::/10`.
    Private,
    /// RFC 6598 shared address space `100.64.0.0/10` (carrier-grade NAT;
    /// also where some clouds put their metadata service).
    SharedNat,
    /// `169.254.0.0/16`, `fe80::/10`.
    LinkLocal,
    /// Cloud metadata endpoints: `169.254.169.254`, `169.254.170.2` (ECS),
    /// `fd00:ec2::254`.
    Metadata,
    /// IPv6 unique local `fc00::/7`.
    UniqueLocal,
    /// `224.0.0.0/4`, `ff00::/8`, `255.255.255.255`.
    Multicast,
    /// Documentation, benchmarking, IETF-reserved and "future use" ranges:
    /// never a public web server.
    Reserved,
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AddressClass::Unspecified => "unspecified",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::SharedNat => "shared (carrier-grade NAT)",
            AddressClass::LinkLocal => "link-local",
            AddressClass::Metadata => "cloud metadata",
            AddressClass::UniqueLocal => "unique local",
            AddressClass::Multicast => "multicast",
            AddressClass::Reserved => "reserved",
        })
    }
}

/// The class of a non-public address, `None` for a public one.
pub(crate) fn classify(ip: IpAddr) -> Option<AddressClass> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<AddressClass> {
    let [a, b, c, d] = ip.octets();
    let class = match (a, b, c, d) {
        (169, 254, 169, 254) | (169, 254, 170, 2) => AddressClass::Metadata,
        (0, ..) => AddressClass::Unspecified,
        (127, ..) => AddressClass::Loopback,
        (10, ..) | (192, 168, ..) => AddressClass::Private,
        (172, b, ..) if (16..32).contains(&b) => AddressClass::Private,
        (100, b, ..) if (64..128).contains(&b) => AddressClass::SharedNat,
        (169, 254, ..) => AddressClass::LinkLocal,
        (224..=239, ..) => AddressClass::Multicast,
        // IETF protocol assignments, documentation (TEST-NET-1..3),
        // benchmarking, and 240/4 (future use, includes broadcast).
        (192, 0, 0, _)
        | (192, 0, 2, _)
        | (198, 51, 100, _)
        | (203, 0, 113, _)
        | (240..=255, ..) => AddressClass::Reserved,
        (198, b, ..) if b == 18 || b == 19 => AddressClass::Reserved,
        _ => return None,
    };
    Some(class)
}

fn classify_v6(ip: Ipv6Addr) -> Option<AddressClass> {
    // Addresses that carry an IPv4 address are judged by it: otherwise
    // `::ffff:127.0.0.1` or `64:ff9b::a9fe:a9fe` would walk around the
    // IPv4 rules.
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let seg = ip.segments();
    let class = if ip.is_unspecified() {
        AddressClass::Unspecified
    } else if ip.is_loopback() {
        AddressClass::Loopback
    } else if seg == [0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254] {
        AddressClass::Metadata
    } else if seg[0] & 0xfe00 == 0xfc00 {
        AddressClass::UniqueLocal
    } else if seg[0] & 0xffc0 == 0xfe80 {
        AddressClass::LinkLocal
    } else if seg[0] & 0xffc0 == 0xfec0 {
        AddressClass::Private
    } else if seg[0] & 0xff00 == 0xff00 {
        AddressClass::Multicast
    } else if (seg[0] == 0x2001 && seg[1] == 0x0db8)
        || (seg[0] == 0x0100 && seg[1..4] == [0, 0, 0])
        || seg[0] == 0
    {
        // Documentation, discard-only, and the rest of `::/16` that no
        // public host uses.
        AddressClass::Reserved
    } else {
        return None;
    };
    Some(class)
}

/// The IPv4 address inside an IPv4-mapped (`::ffff:0:0/96`),
/// IPv4-compatible (`::/96`, deprecated), NAT64 (`64:ff9b::/96`) or 6to4
/// (`2002::/16`) address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let seg = ip.segments();
    let low = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match seg {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] => Some(low(hi, lo)),
        // `::` and `::1` are IPv6's own unspecified and loopback addresses.
        [0, 0, 0, 0, 0, 0, hi, lo] if hi != 0 => Some(low(hi, lo)),
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(s: &str) -> Option<AddressClass> {
        classify(s.parse().unwrap())
    }

    #[test]
    fn ipv4_loopback_and_unspecified() {
        assert_eq!(class("127.0.0.1"), Some(AddressClass::Loopback));
        assert_eq!(class("127.255.0.9"), Some(AddressClass::Loopback));
        assert_eq!(class("0.0.0.0"), Some(AddressClass::Unspecified));
        assert_eq!(class("0.1.2.3"), Some(AddressClass::Unspecified));
    }

    #[test]
    fn rfc1918_and_its_edges() {
        assert_eq!(class("10.0.0.1"), Some(AddressClass::Private));
        assert_eq!(class("172.16.0.1"), Some(AddressClass::Private));
        assert_eq!(class("172.31.255.255"), Some(AddressClass::Private));
        assert_eq!(class("192.168.1.1"), Some(AddressClass::Private));
        assert_eq!(class("172.15.255.255"), None);
        assert_eq!(class("172.32.0.0"), None);
        assert_eq!(class("11.0.0.1"), None);
    }

    #[test]
    fn link_local_and_metadata() {
        assert_eq!(class("169.254.1.1"), Some(AddressClass::LinkLocal));
        assert_eq!(class("169.254.169.254"), Some(AddressClass::Metadata));
        assert_eq!(class("169.254.170.2"), Some(AddressClass::Metadata));
        assert_eq!(class("fd00:ec2::254"), Some(AddressClass::Metadata));
        assert_eq!(class("fe80::1"), Some(AddressClass::LinkLocal));
        assert_eq!(class("febf::1"), Some(AddressClass::LinkLocal));
    }

    #[test]
    fn cgnat_shared_space() {
        assert_eq!(class("100.64.0.1"), Some(AddressClass::SharedNat));
        assert_eq!(class("100.127.255.255"), Some(AddressClass::SharedNat));
        assert_eq!(class("100.100.100.200"), Some(AddressClass::SharedNat));
        assert_eq!(class("100.63.255.255"), None);
        assert_eq!(class("100.128.0.0"), None);
    }

    #[test]
    fn multicast_broadcast_and_reserved() {
        assert_eq!(class("224.0.0.1"), Some(AddressClass::Multicast));
        assert_eq!(class("239.255.255.250"), Some(AddressClass::Multicast));
        assert_eq!(class("255.255.255.255"), Some(AddressClass::Reserved));
        assert_eq!(class("240.0.0.1"), Some(AddressClass::Reserved));
        assert_eq!(class("192.0.2.10"), Some(AddressClass::Reserved));
        assert_eq!(class("198.51.100.1"), Some(AddressClass::Reserved));
        assert_eq!(class("203.0.113.5"), Some(AddressClass::Reserved));
        assert_eq!(class("198.18.0.1"), Some(AddressClass::Reserved));
        assert_eq!(class("192.0.0.8"), Some(AddressClass::Reserved));
    }

    #[test]
    fn ipv6_loopback_unspecified_unique_local() {
        assert_eq!(class("::1"), Some(AddressClass::Loopback));
        assert_eq!(class("::"), Some(AddressClass::Unspecified));
        assert_eq!(class("fc00::1"), Some(AddressClass::UniqueLocal));
        assert_eq!(class("fdff:ffff::1"), Some(AddressClass::UniqueLocal));
        assert_eq!(class("fec0::1"), Some(AddressClass::Private));
        assert_eq!(class("ff02::1"), Some(AddressClass::Multicast));
        assert_eq!(class("2001:db8::1"), Some(AddressClass::Reserved));
        assert_eq!(class("100::1"), Some(AddressClass::Reserved));
    }

    #[test]
    fn ipv6_forms_that_carry_ipv4_are_judged_by_it() {
        assert_eq!(class("::ffff:127.0.0.1"), Some(AddressClass::Loopback));
        assert_eq!(class("::ffff:10.1.2.3"), Some(AddressClass::Private));
        assert_eq!(
            class("::ffff:169.254.169.254"),
            Some(AddressClass::Metadata)
        );
        assert_eq!(class("::127.0.0.1"), Some(AddressClass::Loopback));
        assert_eq!(class("64:ff9b::a9fe:a9fe"), Some(AddressClass::Metadata));
        assert_eq!(class("2002:c0a8:0101::1"), Some(AddressClass::Private));
        assert_eq!(class("::ffff:93.184.216.34"), None);
        assert_eq!(class("2002:5db8:d822::1"), None);
    }

    #[test]
    fn public_addresses_pass() {
        assert_eq!(class("93.184.216.34"), None);
        assert_eq!(class("8.8.8.8"), None);
        assert_eq!(class("1.1.1.1"), None);
        assert_eq!(class("2606:4700:4700::1111"), None);
        assert_eq!(class("2a00:1450:4001:80b::200e"), None);
    }

    #[test]
    fn every_class_has_a_name() {
        assert_eq!(AddressClass::Metadata.to_string(), "cloud metadata");
        assert_eq!(AddressClass::Loopback.to_string(), "loopback");
    }
}
