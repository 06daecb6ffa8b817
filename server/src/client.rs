//! Who is on the other end: the client's address and whether it came over https. From a
//! reverse proxy the course staff named (`--trusted-proxy`), the proxy's `Forwarded` or
//! `X-Forwarded-For` / `X-Forwarded-Proto` headers say; from anyone else they are the client's
//! own words and are ignored.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
pub use ipnet::IpNet;

use crate::error::AppError;
use crate::state::Shared;

/// The client of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// The address sign-in limits key on.
    pub ip: IpAddr,
    /// A trusted proxy said the client used https: cookies are marked Secure.
    pub https: bool,
}

/// `--trusted-proxy ADDR`: an address (`10.0.0.2`, `::1`) or a network (`10.0.0.0/8`).
pub fn parse_proxy(text: &str) -> Result<IpNet, String> {
    let t = text.trim();
    if let Ok(ip) = t.parse::<IpAddr>() {
        return Ok(IpNet::from(ip));
    }
    t.parse::<IpNet>()
        .map_err(|_| format!("{t:?} is neither an IP address nor a network such as 10.0.0.0/8"))
}

/// Whether `ip` is one of the trusted proxies.
pub fn trusted(ip: IpAddr, proxies: &[IpNet]) -> bool {
    let ip = canonical(ip);
    proxies.iter().any(|n| n.contains(&ip))
}

/// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`, as a dual-stack listener reports it)
/// is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client behind `peer`: the peer itself unless it is a trusted proxy; else the
/// right-most address of the forwarding chain that is not a trusted proxy (the left part of
/// the chain is whatever the client chose to send).
pub fn resolve(peer: IpAddr, headers: &HeaderMap, proxies: &[IpNet]) -> Client {
    let peer = canonical(peer);
    if !trusted(peer, proxies) {
        return Client {
            ip: peer,
            https: false,
        };
    }
    let forwarded = forwarded_elements(headers);
    let chain: Vec<Option<IpAddr>> = if forwarded.is_empty() {
        header_values(headers, "x-forwarded-for")
            .flat_map(|v| v.split(','))
            .map(parse_node)
            .collect()
    } else {
        forwarded
            .iter()
            .filter_map(|e| param(e, "for"))
            .map(|v| parse_node(&v))
            .collect()
    };
    let mut ip = peer;
    for hop in chain.iter().rev() {
        match hop {
            // Garbage or an obfuscated node: nothing to its left can be believed; the last
            // trusted hop stands for the client.
            None => break,
            Some(h) => {
                ip = canonical(*h);
                if !trusted(ip, proxies) {
                    break;
                }
            }
        }
    }
    // The proto the nearest proxy set (it speaks for the connection it received).
    let proto = if forwarded.is_empty() {
        header_values(headers, "x-forwarded-proto")
            .flat_map(|v| v.split(','))
            .last()
            .map(|p| p.trim().to_ascii_lowercase())
    } else {
        forwarded
            .iter()
            .rev()
            .find_map(|e| param(e, "proto"))
            .map(|p| p.to_ascii_lowercase())
    };
    Client {
        ip,
        https: proto.as_deref() == Some("https"),
    }
}

fn header_values<'a>(headers: &'a HeaderMap, name: &str) -> impl Iterator<Item = &'a str> {
    headers.get_all(name).iter().filter_map(|v| v.to_str().ok())
}

/// The elements of the `Forwarded` headers (RFC 7239), in order.
fn forwarded_elements(headers: &HeaderMap) -> Vec<String> {
    header_values(headers, "forwarded")
        .flat_map(|v| v.split(','))
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty())
        .collect()
}

/// The value of `name=` in a `Forwarded` element, unquoted.
fn param(element: &str, name: &str) -> Option<String> {
    element.split(';').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// An address in a forwarding header: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]:4711`. `None` for anything else (`unknown`, `_hidden`, garbage).
fn parse_node(text: &str) -> Option<IpAddr> {
    let t = text.trim();
    if let Ok(ip) = t.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sa) = t.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    let inner = t.strip_prefix('[')?.split(']').next()?;
    inner.parse().ok()
}

impl FromRequestParts<Shared> for Client {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Shared,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .ok_or_else(|| AppError::Internal(anyhow::anyhow!("no peer address")))?;
        Ok(resolve(peer, &parts.headers, &state.trusted_proxies))
    }
}

impl Client {
    /// Whether cookies set for this client are marked Secure.
    pub fn secure_cookies(&self, state: &Shared) -> bool {
        state.secure_cookies || self.https
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let stranger: IpAddr = "192.0.2.9".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7, 10.0.0.3")]);
        assert_eq!(resolve(proxy, &h, &proxies).ip.to_string(), "198.51.100.7");
        assert_eq!(resolve(stranger, &h, &proxies).ip, stranger, "not a proxy");
        let h = headers(&[(
            "forwarded",
            "for=1.2.3.4, for=\"[2001:db8::1]:4711\";proto=https",
        )]);
        let c = resolve(proxy, &h, &proxies);
        assert_eq!((c.ip.to_string().as_str(), c.https), ("2001:db8::1", true));
        let h = headers(&[("x-forwarded-for", "garbage, 10.0.0.7")]);
        assert_eq!(resolve(proxy, &h, &proxies).ip.to_string(), "10.0.0.7");
        let h = headers(&[("x-forwarded-proto", "https")]);
        assert!(resolve(proxy, &h, &proxies).https);
        assert!(!resolve(stranger, &h, &proxies).https);
        assert_eq!(
            parse_proxy("127.0.0.1").unwrap().to_string(),
            "127.0.0.1/32"
        );
        assert!(parse_proxy("10.0.0.0/33").is_err());
        let mapped: IpAddr = "::ffff:10.0.0.2".parse().unwrap();
        assert!(trusted(mapped, &proxies));
    }
}
