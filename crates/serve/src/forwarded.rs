//! The client's address behind a reverse proxy (`ordo serve --trusted-proxy ADDR`): from a
//! trusted proxy only, the address it forwards (`X-Forwarded-For`, else `Forwarded`) is the
//! client's, and every per-address limit applies to it; from any other address those headers
//! are ignored, so that a client cannot choose the address its limits are counted under.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The address a request's limits are counted under: `peer`, the socket's address, unless
/// `peer` is one of `trusted`; then the last address the proxies forwarded that is not itself
/// a trusted proxy, read from the right of `X-Forwarded-For` (each proxy appends the address
/// it got the request from) or, without that header, of `Forwarded`'s `for=` parameters. When
/// the header is absent or an entry cannot be read, the last trusted address read.
pub fn client(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let chain = forwarded_chain(headers);
    let mut client = peer;
    for entry in chain.iter().rev() {
        let Some(addr) = entry else {
            break;
        };
        client = *addr;
        if !trusted.contains(addr) {
            break;
        }
    }
    client
}

/// The addresses a request was forwarded for, leftmost (the first proxy's client) first;
/// `None` for an entry that is no address (`unknown`, an obfuscated name, garbage).
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let joined = |name: &str| {
        let values: Vec<&str> = headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap_or("?"))
            .collect();
        (!values.is_empty()).then(|| values.join(","))
    };
    if let Some(xff) = joined("x-forwarded-for") {
        return xff.split(',').map(address).collect();
    }
    let Some(forwarded) = joined("forwarded") else {
        return Vec::new();
    };
    forwarded
        .split(',')
        .map(|element| {
            let value = element.split(';').find_map(|pair| {
                let (key, value) = pair.split_once('=')?;
                key.trim().eq_ignore_ascii_case("for").then_some(value)
            })?;
            address(value)
        })
        .collect()
}

/// An address as forwarded: `192.0.2.1`, `2001:db8::1`, with a port (`192.0.2.1:80`,
/// `[2001:db8::1]:80`), or in `Forwarded`'s quotes.
fn address(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(socket) = text.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    text.strip_prefix('[')?.strip_suffix(']')?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(*name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    /// A forged header from an address that is not a trusted proxy changes nothing, nor does
    /// any header when no proxy is trusted.
    #[test]
    fn forwarded_headers_from_others_are_ignored() {
        let forged = headers(&[
            ("x-forwarded-for", "203.0.113.9"),
            ("forwarded", "for=203.0.113.8"),
        ]);
        let peer = ip("198.51.100.7");
        assert_eq!(client(peer, &forged, &[ip("10.0.0.1")]), peer);
        assert_eq!(client(peer, &forged, &[]), peer);
    }

    /// From a trusted proxy: the rightmost address that is not a trusted proxy, so that a
    /// client's own forged entries (on the left) are never taken; without a header, or past
    /// an entry that is no address, the last trusted one.
    #[test]
    fn a_trusted_proxy_forwards_the_client_address() {
        let proxy = ip("10.0.0.1");
        let inner = ip("10.0.0.2");
        let trusted = [proxy, inner];
        let chain = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.0.0.2")]);
        assert_eq!(client(proxy, &chain, &trusted), ip("203.0.113.9"));
        let lines = headers(&[
            ("x-forwarded-for", "1.2.3.4"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        assert_eq!(client(proxy, &lines, &trusted), ip("203.0.113.9"));
        let rfc = headers(&[(
            "forwarded",
            "for=1.2.3.4, for=\"[2001:db8::7]:4711\";proto=https, for=10.0.0.2",
        )]);
        assert_eq!(client(proxy, &rfc, &trusted), ip("2001:db8::7"));
        assert_eq!(client(proxy, &HeaderMap::new(), &trusted), proxy);
        let garbage = headers(&[("x-forwarded-for", "1.2.3.4, unknown, 10.0.0.2")]);
        assert_eq!(client(proxy, &garbage, &trusted), inner);
        let port = headers(&[("x-forwarded-for", "203.0.113.9:5000")]);
        assert_eq!(client(proxy, &port, &trusted), ip("203.0.113.9"));
    }
}
