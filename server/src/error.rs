//! One error type for every handler, turned into a page or (under `/api`) JSON that names the
//! problem. Internal errors are logged with their cause and shown without it.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A page that needs a signed-in user.
    #[error("sign in first")]
    SignIn { next: String },
    /// A signed-in user who must change the password first.
    #[error("change your password first")]
    ChangePassword,
    /// The API without a valid token.
    #[error("sign in first: POST /api/login gives a token for the Authorization header")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0} not found")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("the form expired or did not come from this site: reload the page and try again")]
    Csrf,
    #[error("{message}")]
    TooMany { message: String, retry_after_s: u64 },
    /// The database cannot do its part just now (locked past its wait, restarting,
    /// unreachable, its disk full): nothing of the request was done, and trying again soon
    /// will work. `what` is the queue's word for it ([`arbiter_queue::health::TROUBLES`]).
    #[error("the contest's database is unavailable ({what}): try again in {retry_after_s} s")]
    Unavailable {
        what: &'static str,
        retry_after_s: u64,
    },
    #[error("internal error")]
    Internal(anyhow::Error),
}

impl AppError {
    /// A database error: [`AppError::Unavailable`] when it is a fault to wait out (and
    /// reported as one, so that the admin page says it), else internal.
    fn of_database(e: &sqlx::Error) -> Option<AppError> {
        let what = arbiter_queue::health::transient(e)?;
        arbiter_queue::health::trouble_briefly(what);
        eprintln!("warning: a request met {what}: {e}");
        Some(AppError::Unavailable {
            what,
            retry_after_s: retry_after(what),
        })
    }
}

/// How long to tell a client to wait: a lock passes in seconds, a full disk or a restart
/// takes longer.
fn retry_after(what: &str) -> u64 {
    match what {
        "database locked" | "database not answering" => 10,
        _ => 30,
    }
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::of_database(&e).unwrap_or_else(|| AppError::Internal(e.into()))
    }
}

impl From<arbiter_queue::Error> for AppError {
    fn from(e: arbiter_queue::Error) -> Self {
        match &e {
            arbiter_queue::Error::Sql(s) => AppError::of_database(s),
            _ => None,
        }
        .unwrap_or_else(|| AppError::Internal(e.into()))
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        // A database fault deep in a domain function is still one to wait out.
        let fault = e.chain().find_map(|c| {
            c.downcast_ref::<sqlx::Error>()
                .or_else(|| match c.downcast_ref() {
                    Some(arbiter_queue::Error::Sql(s)) => Some(s),
                    _ => None,
                })
        });
        fault
            .and_then(AppError::of_database)
            .unwrap_or(AppError::Internal(e))
    }
}

impl From<askama::Error> for AppError {
    fn from(e: askama::Error) -> Self {
        AppError::Internal(e.into())
    }
}

/// What an error response says, for the `/api` layer that turns it into JSON.
#[derive(Clone, Debug)]
pub struct ErrorInfo {
    pub status: StatusCode,
    pub message: String,
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::SignIn { .. } | AppError::ChangePassword => StatusCode::SEE_OTHER,
            AppError::Unauthenticated => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) | AppError::Csrf => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::TooMany { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl AppError {
    /// What the error says in the request's language: the messages handlers build are already
    /// in it; the fixed ones are said here.
    pub(crate) fn said(&self) -> String {
        match self {
            AppError::Csrf => crate::lang::t("err-csrf"),
            AppError::Internal(_) => crate::lang::t("err-internal"),
            AppError::Unavailable {
                what,
                retry_after_s,
            } => {
                let key = match *what {
                    "database locked" | "database not answering" => "err-unavailable-busy",
                    arbiter_queue::health::DB_STORAGE => "err-unavailable-storage",
                    _ => "err-unavailable-down",
                };
                crate::lang::ta(key, &[("s", (*retry_after_s).into())])
            }
            AppError::NotFound(what) => crate::lang::ta("err-not-found", &[("what", what.into())]),
            other => other.to_string(),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match &self {
            AppError::SignIn { next } => {
                let to = format!("/login?next={}", crate::pages::url_encode(next));
                return Redirect::to(&to).into_response();
            }
            AppError::ChangePassword => return Redirect::to("/account").into_response(),
            AppError::Internal(e) => eprintln!("error: {e:#}"),
            _ => {}
        }
        let status = self.status();
        let message = self.said();
        let mut response = crate::pages::error_page(status, &message);
        if let AppError::TooMany { retry_after_s, .. }
        | AppError::Unavailable { retry_after_s, .. } = &self
        {
            if let Ok(v) = retry_after_s.to_string().parse() {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        response
            .extensions_mut()
            .insert(ErrorInfo { status, message });
        response
    }
}
