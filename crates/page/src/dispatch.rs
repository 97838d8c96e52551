//! One API request given as text, answered without a socket: the same routes, parameters and
//! errors as the JSON API of `ordo serve`, for the page's script when the page runs without a
//! server (the WebAssembly module of the static site calls [`answer`]).

use crate::api::{self, ApiError, ErrorKind};
use crate::values;
use ordo_solve::Tablebase;

/// The answer to one request: its HTTP status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

const JSON: &str = "application/json";

impl Answer {
    fn json<T: serde::Serialize>(value: &T) -> Answer {
        match serde_json::to_string(value) {
            Ok(body) => Answer {
                status: 200,
                content_type: JSON,
                body,
            },
            Err(e) => Answer {
                status: 500,
                content_type: JSON,
                body: serde_json::json!({ "error": format!("internal error: {e}"), "where": "server" })
                    .to_string(),
            },
        }
    }

    fn error(e: &ApiError) -> Answer {
        Answer {
            status: e.status(),
            content_type: JSON,
            body: e.to_json(),
        }
    }
}

/// Decode one `application/x-www-form-urlencoded` component as browsers and the server do:
/// `+` is a space, a `%` not followed by two hex digits stays as it is, and bytes that are not
/// UTF-8 become U+FFFD.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = text
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(value)) => {
                out.push(value);
                i += 2;
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query string's parameters, each at most once and each one `allowed`.
fn params(query: &str, allowed: &[&str]) -> Result<Vec<(String, String)>, ApiError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k), decode(v));
        if !allowed.contains(&k.as_str()) {
            let shown: String = k.chars().take(40).collect();
            return Err(ApiError::bad(
                "query",
                format!(
                    "unknown parameter '{shown}': this route takes {}",
                    allowed.join(", ")
                ),
            ));
        }
        if out.iter().any(|(name, _)| *name == k) {
            return Err(ApiError::bad(
                "query",
                format!("the parameter '{k}' is given twice"),
            ));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn optional(params: &[(String, String)], name: &str) -> Option<String> {
    params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.clone())
}

fn required(params: &[(String, String)], name: &str) -> Result<String, ApiError> {
    optional(params, name)
        .ok_or_else(|| ApiError::bad(name, format!("the query parameter '{name}' is missing")))
}

/// Answer the API request `target` (a path and query string, e.g.
/// `/api/explain?position=…&move=…`): `/api/explain`, `/api/moves`, `/api/step`, `/api/board`
/// (an SVG), `/api/rules`, `/api/rules/<ID>` and `/api/values` (always a 404 naming `tables`
/// here: the tables live with `ordo serve --tables DIR`), with the JSON errors of the server (400 for
/// bad input naming the parameter, 404 for anything else). Never panics.
pub fn answer(target: &str) -> Answer {
    answer_with(target, None)
}

/// [`answer`] with endgame tables behind `/api/values` (the value of a position and of each
/// legal move) and `/api/tables` (the table files a probe of a position still needs, which
/// the static site's page fetches and gives to its module first).
pub fn answer_with(target: &str, tables: Option<&Tablebase>) -> Answer {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let routed = match (path, tables) {
        ("/api/values" | "/api/tables", Some(t)) => with_tables(path, query, t),
        _ => route(path, query),
    };
    routed.unwrap_or_else(|e| Answer::error(&e))
}

fn with_tables(path: &str, query: &str, tables: &Tablebase) -> Result<Answer, ApiError> {
    let p = params(query, &["position"])?;
    let pos = api::read_position(&required(&p, "position")?)?;
    Ok(match path {
        "/api/tables" => Answer::json(&values::files_needed(tables, &pos)),
        _ => Answer::json(&values::probe(tables, &pos)?),
    })
}

fn route(path: &str, query: &str) -> Result<Answer, ApiError> {
    const MOVE: [&str; 2] = ["position", "move"];
    match path {
        "/api/explain" => {
            let p = params(query, &MOVE)?;
            let answer = api::explain(&required(&p, "position")?, &required(&p, "move")?)?;
            Ok(Answer::json(&answer))
        }
        "/api/moves" => {
            let p = params(query, &MOVE)?;
            Ok(Answer::json(&api::moves(&required(&p, "position")?)?))
        }
        "/api/step" => {
            let p = params(query, &["position", "step"])?;
            let answer = api::step(&required(&p, "position")?, &required(&p, "step")?)?;
            Ok(Answer::json(&answer))
        }
        "/api/board" => {
            let p = params(query, &MOVE)?;
            let svg = api::board_svg(&required(&p, "position")?, optional(&p, "move").as_deref())?;
            Ok(Answer {
                status: 200,
                content_type: "image/svg+xml",
                body: svg,
            })
        }
        "/api/values" => {
            // No tables in the page itself: `ordo serve --tables DIR` answers this route.
            let p = params(query, &["position"])?;
            api::read_position(&required(&p, "position")?)?;
            Err(api::no_tables())
        }
        "/api/rules" => Ok(Answer::json(&api::all_rules())),
        _ => match path.strip_prefix("/api/rules/") {
            Some(id) => Ok(Answer::json(&api::rule(&decode(id))?)),
            None => {
                let shown: String = path.chars().take(80).collect();
                Err(ApiError::new(
                    ErrorKind::NotFound,
                    "path",
                    format!("no such route: {shown} (the API is under /api/)"),
                ))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_components_decode_as_forms_do() {
        assert_eq!(decode("a%2Fb+c"), "a/b c");
        assert_eq!(decode("%E2%86%92"), "→");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%ZZ%"), "%ZZ%");
        assert_eq!(decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn unknown_twice_and_missing_parameters_are_400_naming_them() {
        let r = answer("/api/explain?position=4%2F4+w+classic&mv=a1-a2");
        assert_eq!(r.status, 400);
        assert!(r.body.contains("unknown parameter 'mv'"), "{}", r.body);
        let r = answer("/api/moves?position=a&position=b");
        assert!(r.body.contains("given twice"), "{}", r.body);
        let r = answer("/api/explain?position=4%2F4%2F4%2F4+w+classic");
        assert_eq!(r.status, 400);
        assert!(r.body.contains(r#""where":"move""#), "{}", r.body);
        assert_eq!(answer("/nowhere").status, 404);
    }
}
