//! The site's HTTP listener, made for slow and greedy clients: a connection must send its
//! request headers within [`Limits::header_timeout`], a request must be answered within
//! [`Limits::request_timeout`] (which bounds reading its body too), and one address holds at
//! most [`Limits::per_address`] connections, the whole site [`Limits::total`]. Connections past
//! a bound are closed at once, so that a few clients that never finish their requests cannot
//! hold every socket.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The listener's bounds.
#[derive(Clone, Debug)]
pub struct Limits {
    /// From a connection's first byte (or the end of its last response) to the end of the
    /// request's headers.
    pub header_timeout: Duration,
    /// From a request's headers to its response's headers: reading the body, and the handler.
    pub request_timeout: Duration,
    /// Open connections from one client address (trusted proxies are not bound by it).
    pub per_address: usize,
    /// Open connections in all.
    pub total: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(60),
            // A class behind one NAT: about six connections a browser, plus live sockets.
            per_address: 256,
            total: 4096,
        }
    }
}

/// Open connections, by address and in all.
#[derive(Default)]
struct Counts {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// A connection's place in [`Counts`], given back when it closes.
struct Place {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.by_address.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.by_address.remove(&self.ip);
            }
        }
    }
}

/// Takes a place for a connection from `ip`, or `None` past a bound.
fn admit(
    counts: &Arc<Mutex<Counts>>,
    limits: &Limits,
    ip: IpAddr,
    unbounded_address: bool,
) -> Option<Place> {
    let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
    if c.total >= limits.total {
        return None;
    }
    let n = c.by_address.get(&ip).copied().unwrap_or(0);
    if n >= limits.per_address && !unbounded_address {
        return None;
    }
    c.total += 1;
    *c.by_address.entry(ip).or_insert(0) += 1;
    Some(Place {
        counts: Arc::clone(counts),
        ip,
    })
}

/// Serves `app` on `listener` until `stop` resolves; then lets open requests finish (for at
/// most `request_timeout`). Requests carry `ConnectInfo<SocketAddr>` like
/// `into_make_service_with_connect_info`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    trusted_proxies: Vec<ipnet::IpNet>,
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let app = app.layer(tower_http::timeout::TimeoutLayer::with_status_code(
        axum::http::StatusCode::REQUEST_TIMEOUT,
        limits.request_timeout,
    ));
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(256 * 1024);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(Duration::from_secs(20)))
        .max_concurrent_streams(64);
    let builder = Arc::new(builder);
    let counts: Arc<Mutex<Counts>> = Arc::default();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait a little rather than spin.
                Err(e) => {
                    eprintln!("warning: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        let proxy = crate::client::trusted(peer.ip(), &trusted_proxies);
        let Some(place) = admit(&counts, &limits, peer.ip(), proxy) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: axum::http::Request<_>| {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer));
            app.clone().oneshot(request.map(axum::body::Body::new))
        });
        let builder = Arc::clone(&builder);
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            // Errors are the client's (a reset, a timeout): nothing to report.
            let _ = watcher.watch(conn).await;
            drop(place);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.request_timeout, graceful.shutdown()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_per_address_and_in_all() {
        let counts: Arc<Mutex<Counts>> = Arc::default();
        let limits = Limits {
            per_address: 2,
            total: 3,
            ..Limits::default()
        };
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let p1 = admit(&counts, &limits, a, false).unwrap();
        let _p2 = admit(&counts, &limits, a, false).unwrap();
        assert!(admit(&counts, &limits, a, false).is_none());
        let _p3 = admit(&counts, &limits, b, false).unwrap();
        assert!(admit(&counts, &limits, b, false).is_none(), "the total");
        drop(p1);
        assert!(admit(&counts, &limits, a, true).is_some());
    }
}
