//! The connection to a referee: the one named by `KASSEN_ADDRESS`, or the one a ladder's
//! assignment names. `host:port` over TCP (plaintext, or TLS checked against the system's roots
//! when the ladder says that referee speaks it), or `unix:PATH` / `unix:///PATH` over a Unix
//! socket (a ladder's sandbox has no network, only the referee's socket). tonic dials TCP by
//! itself; for a socket it is given a connector that opens the socket for every connection, and
//! the `http://` URI it still needs is never dialled.

use hyper_util::rt::TokioIo;
use tokio::net::UnixStream;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint, Uri};
use tower::service_fn;

/// The socket path of a `unix:` address, or None for `host:port`.
pub fn unix_path(address: &str) -> Option<&str> {
    let rest = address.strip_prefix("unix:")?;
    // unix:///run/x.sock (URI form, empty authority) and unix:/run/x.sock name the same path.
    Some(rest.strip_prefix("//").unwrap_or(rest))
}

/// A connected channel to `address` (`host:port`, `unix:PATH` or `unix:///PATH`); `tls`: over
/// TLS (`host:port` only), checked against the system's roots since this bot trusts no CA of
/// its own.
pub async fn channel(address: &str, tls: bool) -> Result<Channel, String> {
    let Some(path) = unix_path(address) else {
        let scheme = if tls { "https" } else { "http" };
        let mut endpoint = Endpoint::from_shared(format!("{scheme}://{address}"))
            .map_err(|e| format!("bad referee address {address:?}: {e}"))?;
        if tls {
            endpoint = endpoint
                .tls_config(ClientTlsConfig::new().with_native_roots())
                .map_err(|e| format!("no TLS for {address}: {e}"))?;
        }
        return endpoint
            .connect()
            .await
            .map_err(|e| format!("cannot connect to {address}: {e}"));
    };
    if path.is_empty() {
        return Err(format!(
            "bad referee address {address:?}: no socket path after unix:"
        ));
    }
    let path = path.to_owned();
    // The authority is only what HTTP/2 sends as :authority; the connector ignores the URI.
    Endpoint::from_static("http://localhost")
        .connect_with_connector(service_fn(move |_: Uri| {
            let path = path.clone();
            async move { Ok::<_, std::io::Error>(TokioIo::new(UnixStream::connect(path).await?)) }
        }))
        .await
        .map_err(|e| format!("cannot connect to {address}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::unix_path;

    #[test]
    fn unix_addresses_name_their_path() {
        assert_eq!(
            unix_path("unix:/run/kassen/referee.sock"),
            Some("/run/kassen/referee.sock")
        );
        assert_eq!(
            unix_path("unix:///run/kassen/referee.sock"),
            Some("/run/kassen/referee.sock")
        );
        assert_eq!(unix_path("unix:relative.sock"), Some("relative.sock"));
        assert_eq!(unix_path("127.0.0.1:50051"), None);
    }
}
