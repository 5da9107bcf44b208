//! Accounts: argon2id password hashes, session tokens, name rules.
//!
//! The same random token serves as the page's HttpOnly SameSite cookie and as
//! the API's bearer token, so one session store covers both.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection};

use crate::error::{ErrorCode, HallError};
use crate::http::api::{AppState, current_user, require_user};
use crate::store::User;

/// Name of the session cookie.
pub const COOKIE: &str = "qy_session";

/// Hashes a password with argon2id (the crate's default parameters). Slow on
/// purpose: call it on a blocking thread.
pub fn hash_password(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Checks a password against a stored PHC hash string.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A well-formed argon2id hash of no password anyone knows: logins for
/// unknown names are checked against it, so they take as long as real ones.
pub const DECOY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$cXl5dWFuLWRlY295LXNhbHQ$0JOeYdi4Nm2cJwXJ0Dn0M+S1hQ0pGjRm0Sx8ujRLDgQ";

/// A new unguessable session token (256 random bits, hex).
pub fn new_token() -> String {
    let mut b = [0u8; 32];
    rand::rng().fill_bytes(&mut b);
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Checks a requested username: 3-20 characters, letters (any script),
/// digits, `_` and `-`; the `guest-` prefix and `ai` names are reserved.
/// Names that mix scripts the way look-alikes do (a Cyrillic `а` inside a
/// Latin name) are refused: a name must be at most UTS #39's "highly
/// restrictive" level, which allows one script, or Latin with Han (Chinese
/// names with Latin letters or digits), Japanese or Korean. Uniqueness is
/// decided on [`name_key`], not on the name as typed.
pub fn check_username(name: &str) -> Result<(), HallError> {
    // `why` tells a client which rule the name breaks.
    let bad =
        |msg: &str, why: &str| HallError::new(ErrorCode::InvalidUsername, msg).with("why", why);
    let n = name.chars().count();
    if !(3..=20).contains(&n) {
        return Err(bad("username must be 3 to 20 characters", "length")
            .with("min", 3)
            .with("max", 20));
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(bad(
            "username may contain only letters, digits, '_' and '-'",
            "characters",
        ));
    }
    let letters: String = name.chars().filter(|c| *c != '_' && *c != '-').collect();
    if !letters
        .as_str()
        .check_restriction_level(RestrictionLevel::HighlyRestrictive)
    {
        return Err(bad(
            "username mixes scripts like a look-alike name does (for example a Cyrillic letter among Latin ones)",
            "mixed_scripts",
        ));
    }
    let key = name_key(name);
    if key.starts_with("guest-") || key.starts_with("ai-") || key.starts_with("ai:") {
        return Err(bad(
            "names starting with 'guest-' or 'ai-' are reserved",
            "reserved",
        ));
    }
    Ok(())
}

pub use crate::store::name_key;

/// Checks a password: 6 to 200 characters.
pub fn check_password(pw: &str) -> Result<(), HallError> {
    let n = pw.chars().count();
    if !(6..=200).contains(&n) {
        return Err(HallError::new(
            ErrorCode::InvalidPassword,
            "password must be 6 to 200 characters",
        )
        .with("why", "length")
        .with("min", 6)
        .with("max", 200));
    }
    Ok(())
}

/// Reads the session token from an `Authorization: Bearer` header or the cookie.
pub fn token_from_headers(headers: &axum::http::HeaderMap) -> Option<String> {
    if let Some(v) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        && let Some(t) = v.strip_prefix("Bearer ")
    {
        return Some(t.trim().to_string());
    }
    for v in headers.get_all(axum::http::header::COOKIE) {
        let Ok(s) = v.to_str() else { continue };
        for part in s.split(';') {
            if let Some((k, val)) = part.trim().split_once('=')
                && k == COOKIE
            {
                return Some(val.to_string());
            }
        }
    }
    None
}

/// The `Set-Cookie` value for a session: HttpOnly, SameSite=Lax, living
/// as long as the server keeps the session (`max_age`).
pub fn session_cookie(token: &str, max_age: std::time::Duration) -> String {
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}",
        max_age.as_secs()
    )
}

/// The signed-in user of a request (Bearer token or session cookie), or a
/// 401 `unauthorized`: a handler that takes it acts only for that user.
pub struct SignedIn(pub User);

/// The signed-in user of a request, if any (a guest's page, a spectator).
pub struct MaybeSignedIn(pub Option<User>);

impl axum::extract::FromRequestParts<AppState> for SignedIn {
    type Rejection = HallError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        hall: &AppState,
    ) -> Result<Self, HallError> {
        require_user(hall, &parts.headers).await.map(SignedIn)
    }
}

impl axum::extract::FromRequestParts<AppState> for MaybeSignedIn {
    type Rejection = HallError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        hall: &AppState,
    ) -> Result<Self, HallError> {
        current_user(hall, &parts.headers).await.map(MaybeSignedIn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_and_verify() {
        let h = hash_password("secret123").expect("hash");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("secret123", &h));
        assert!(!verify_password("secret124", &h));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn the_decoy_hash_is_a_real_argon2_hash() {
        // Else a login for an unknown name would skip the hashing work.
        assert!(PasswordHash::new(DECOY_HASH).is_ok());
        assert!(!verify_password("anything", DECOY_HASH));
    }

    #[test]
    fn usernames() {
        assert!(check_username("王小明").is_ok());
        assert!(check_username("ab").is_err());
        assert!(check_username("a b c").is_err());
        assert!(check_username("guest-12").is_err());
        assert!(check_username("Guest-12").is_err());
        // Chinese, Latin with Han, single foreign scripts are fine.
        assert!(check_username("象棋_Fan-2").is_ok());
        assert!(check_username("Иван").is_ok());
        // A Cyrillic а inside a Latin name is a look-alike.
        assert!(check_username("\u{430}dmin").is_err());
    }

    #[test]
    fn name_keys_fold_case_and_look_alikes() {
        // A skeleton is a comparison key, not a name: "m" maps to "rn".
        assert_eq!(name_key("Admin"), name_key("admin"));
        assert_eq!(name_key("adrnin"), name_key("admin"));
        assert_eq!(name_key("ADMIN"), name_key("admin"));
        assert_eq!(name_key("\u{430}dmin"), name_key("admin"));
        // A whole-script look-alike (all Cyrillic) collides too.
        assert_eq!(name_key("\u{430}\u{441}\u{435}"), name_key("ace"));
        assert_eq!(name_key("王小明"), "王小明");
        assert_ne!(name_key("王小明"), name_key("王小红"));
    }

    #[test]
    fn token_from_bearer_or_cookie() {
        let mut h = axum::http::HeaderMap::new();
        h.insert("cookie", "a=1; qy_session=abc".parse().expect("header"));
        assert_eq!(token_from_headers(&h).as_deref(), Some("abc"));
        h.insert("authorization", "Bearer xyz".parse().expect("header"));
        assert_eq!(token_from_headers(&h).as_deref(), Some("xyz"));
    }
}
