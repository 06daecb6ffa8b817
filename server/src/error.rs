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
    #[error("internal error")]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        AppError::Internal(e.into())
    }
}

impl From<arbiter_queue::Error> for AppError {
    fn from(e: arbiter_queue::Error) -> Self {
        AppError::Internal(e.into())
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
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl AppError {
    /// What the error says in the request's language: the messages handlers build are already
    /// in it; the fixed ones are said here.
    fn said(&self) -> String {
        match self {
            AppError::Csrf => crate::lang::t("err-csrf"),
            AppError::Internal(_) => crate::lang::t("err-internal"),
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
        if let AppError::TooMany { retry_after_s, .. } = &self {
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
