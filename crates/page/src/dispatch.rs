//! The API's routes, parameters and answers, defined once: [`Route`] names a path,
//! [`Route::request`] reads its query string into a [`Request`], and [`Request::answer`]
//! answers it with a status, content type and body. `ordo serve` maps HTTP onto these (and
//! adds its limits, workers and move budget around them); the static site's WebAssembly module
//! calls [`answer`], the same routes with the same answers, without a server.

use crate::api::{self, ApiError, ErrorKind};
use crate::notation::echo;
use crate::rules::Position;
use crate::values;
use ordo_solve::Tablebase;

/// The answer to one request: its HTTP status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The HTTP status code: 200, or an error's ([`ApiError::status`]).
    pub status: u16,
    /// The body's media type: `application/json`, or `image/svg+xml` for a diagram.
    pub content_type: &'static str,
    /// The body: one line of JSON, or an SVG document.
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

    /// The answer of a failed request: its status and one line of JSON.
    pub fn error(e: &ApiError) -> Answer {
        Answer {
            status: e.status(),
            content_type: JSON,
            body: e.to_json(),
        }
    }
}

/// One route of the API, from its path (matched as given, not decoded, except a clause's id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/api/explain?position=P&move=M`: the verdict on a move.
    Explain,
    /// `/api/moves?position=P`: the legal moves.
    Moves,
    /// `/api/step?position=P&step=S`: the position after one step of a turn, and its ties.
    Step,
    /// `/api/board?position=P[&move=M]`: the diagram, an SVG.
    Board,
    /// `/api/values?position=P`: endgame values from tables.
    Values,
    /// `/api/tables?position=P`: the table files a probe still needs (the static site's
    /// module only: its page fetches them; a server reads its own).
    Tables,
    /// `/api/rules`: every clause.
    Rules,
    /// `/api/rules/<ID>`: one clause.
    Rule(String),
}

impl Route {
    /// The route at `path`, or `None` when the API has none there.
    pub fn of(path: &str) -> Option<Route> {
        Some(match path {
            "/api/explain" => Route::Explain,
            "/api/moves" => Route::Moves,
            "/api/step" => Route::Step,
            "/api/board" => Route::Board,
            "/api/values" => Route::Values,
            "/api/tables" => Route::Tables,
            "/api/rules" => Route::Rules,
            _ => {
                let id = path.strip_prefix("/api/rules/")?;
                if id.is_empty() || id.contains('/') {
                    return None;
                }
                Route::Rule(percent_decode(id))
            }
        })
    }

    /// Read the route's parameters from `query` (a URL's query string): a 400 naming `query`
    /// for an unknown, repeated or malformed parameter, naming the parameter when a required
    /// one is missing, naming `position` for a position the tables' routes cannot read.
    pub fn request(self, query: &str) -> Result<Request, ApiError> {
        Ok(match self {
            Route::Explain => {
                let [position, mv] = params(query, ["position", "move"])?;
                let position = required(position, "position")?;
                let mv = required(mv, "move")?;
                Request::Explain { position, mv }
            }
            Route::Moves => {
                let [position] = params(query, ["position"])?;
                let position = required(position, "position")?;
                Request::Moves { position }
            }
            Route::Step => {
                let [position, step] = params(query, ["position", "step"])?;
                let position = required(position, "position")?;
                let step = required(step, "step")?;
                Request::Step { position, step }
            }
            Route::Board => {
                let [position, mv] = params(query, ["position", "move"])?;
                let position = required(position, "position")?;
                Request::Board { position, mv }
            }
            Route::Values | Route::Tables => {
                let [position] = params(query, ["position"])?;
                let position = api::read_position(&required(position, "position")?)?;
                match self {
                    Route::Values => Request::Values { position },
                    _ => Request::Tables { position },
                }
            }
            Route::Rules => Request::Rules,
            Route::Rule(id) => Request::Rule { id },
        })
    }
}

/// One request of the API, its parameters read and the required ones present.
#[derive(Clone, Debug)]
pub enum Request {
    /// The verdict on a move ([`Route::Explain`]).
    Explain {
        /// The position, as given (read when answering).
        position: String,
        /// The move, as given.
        mv: String,
    },
    /// The legal moves ([`Route::Moves`]).
    Moves {
        /// The position, as given.
        position: String,
    },
    /// The position after one step ([`Route::Step`]).
    Step {
        /// The position, as given.
        position: String,
        /// The step, as given (`b3xb4`, or with a tie choice `b3xb4/c4`).
        step: String,
    },
    /// The diagram ([`Route::Board`]).
    Board {
        /// The position, as given.
        position: String,
        /// The move to draw on it, as given; `None` for the bare position.
        mv: Option<String>,
    },
    /// Endgame values from tables ([`Route::Values`]).
    Values {
        /// The position, already read (the tables to load depend on it).
        position: Position,
    },
    /// The table files a probe still needs ([`Route::Tables`]).
    Tables {
        /// The position, already read.
        position: Position,
    },
    /// Every clause ([`Route::Rules`]).
    Rules,
    /// One clause ([`Route::Rule`]).
    Rule {
        /// The clause's id, from the path (`ORDO-6.4`).
        id: String,
    },
}

impl Request {
    /// The position whose legal moves bound the work of this request (a verdict lists them,
    /// as does a move list): what a server's move budget counts.
    pub fn budgeted(&self) -> Option<&str> {
        match self {
            Request::Explain { position, .. } | Request::Moves { position } => Some(position),
            _ => None,
        }
    }

    /// Whether answering takes the engines' or the tables' work; the clause routes, and the
    /// tables' routes without tables, are a lookup.
    pub fn works(&self, with_tables: bool) -> bool {
        match self {
            Request::Rules | Request::Rule { .. } => false,
            Request::Values { .. } | Request::Tables { .. } => with_tables,
            _ => true,
        }
    }

    /// The answer, with `tables` behind the tables' routes (without, a 404 naming `tables`).
    pub fn answer(&self, tables: Option<&Tablebase>) -> Answer {
        self.answered(tables).unwrap_or_else(|e| Answer::error(&e))
    }

    fn answered(&self, tables: Option<&Tablebase>) -> Result<Answer, ApiError> {
        Ok(match self {
            Request::Explain { position, mv } => Answer::json(&api::explain(position, mv)?),
            Request::Moves { position } => Answer::json(&api::moves(position)?),
            Request::Step { position, step } => Answer::json(&api::step(position, step)?),
            Request::Board { position, mv } => Answer {
                status: 200,
                content_type: "image/svg+xml",
                body: api::board_svg(position, mv.as_deref())?,
            },
            Request::Values { position } => {
                let tables = tables.ok_or_else(api::no_tables)?;
                Answer::json(&values::probe(tables, position)?)
            }
            Request::Tables { position } => {
                let tables = tables.ok_or_else(api::no_tables)?;
                Answer::json(&values::files_needed(tables, position))
            }
            Request::Rules => Answer::json(&api::all_rules()),
            Request::Rule { id } => Answer::json(&api::rule(id)?),
        })
    }
}

/// The values of the parameters `names` in `query` (a URL's query string), decoded as forms
/// are (`+` is a space, bad escapes stay as they are, bytes that are not UTF-8 become U+FFFD):
/// a 400 naming `query` for a parameter the route does not take or one given twice.
fn params<const N: usize>(query: &str, names: [&str; N]) -> Result<[Option<String>; N], ApiError> {
    let mut values: [Option<String>; N] = std::array::from_fn(|_| None);
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        let Some(i) = names.iter().position(|n| *n == name) else {
            return Err(ApiError::bad(
                "query",
                format!(
                    "unknown query parameter '{}': this route takes {}",
                    echo(&name),
                    names.join(" and ")
                ),
            ));
        };
        if values[i].replace(value.into_owned()).is_some() {
            return Err(ApiError::bad(
                "query",
                format!("the query parameter '{name}' is given twice; give it once"),
            ));
        }
    }
    Ok(values)
}

/// A required parameter, or a 400 naming it.
fn required(value: Option<String>, name: &str) -> Result<String, ApiError> {
    value.ok_or_else(|| ApiError::bad(name, format!("the query parameter '{name}' is missing")))
}

/// A path segment with its `%XX` escapes decoded (a `%` not followed by two hex digits stays
/// as it is; bytes that are not UTF-8 become U+FFFD).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = text
            .get(i + 1..i + 3)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
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

/// Answer the API request `target` (a path and query string, e.g.
/// `/api/explain?position=…&move=…`) as `ordo serve` does, without tables: every [`Route`]
/// but `/api/tables`; `/api/values` is a 404 naming `tables`, anything else a 404 naming
/// `path`. Never panics.
pub fn answer(target: &str) -> Answer {
    answer_with(target, None)
}

/// [`answer`] with endgame tables behind `/api/values` (the value of a position and of each
/// legal move) and `/api/tables` (the table files a probe of a position still needs, which
/// the static site's page fetches and gives to its module first).
pub fn answer_with(target: &str, tables: Option<&Tablebase>) -> Answer {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let route = Route::of(path).filter(|r| *r != Route::Tables || tables.is_some());
    let Some(route) = route else {
        let shown: String = path.chars().take(80).collect();
        return Answer::error(&ApiError::new(
            ErrorKind::NotFound,
            "path",
            format!("no such route: {shown} (the API is under /api/)"),
        ));
    };
    match route.request(query) {
        Ok(request) => request.answer(tables),
        Err(e) => Answer::error(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_decode_their_escapes_only() {
        assert_eq!(percent_decode("a%2Fb+c"), "a/b+c");
        assert_eq!(percent_decode("%E2%86%92"), "→");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%ZZ%"), "%ZZ%");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn routes_are_exact_paths() {
        assert_eq!(Route::of("/api/moves"), Some(Route::Moves));
        assert_eq!(
            Route::of("/api/rules/ORDO%2D7.2"),
            Some(Route::Rule("ORDO-7.2".into()))
        );
        for path in [
            "/api/moves/",
            "/api/rules/",
            "/api/rules/a/b",
            "/api/%6Doves",
        ] {
            assert_eq!(Route::of(path), None, "{path}");
        }
    }

    #[test]
    fn unknown_twice_and_missing_parameters_are_400_naming_them() {
        let r = answer("/api/explain?position=4%2F4+w+classic&mv=a1-a2");
        assert_eq!(r.status, 400);
        assert!(
            r.body
                .contains("unknown query parameter 'mv': this route takes position and move"),
            "{}",
            r.body
        );
        assert!(r.body.contains(r#""where":"query""#), "{}", r.body);
        let r = answer("/api/moves?position=a&position=b");
        assert_eq!(r.status, 400);
        assert!(
            r.body
                .contains("the query parameter 'position' is given twice"),
            "{}",
            r.body
        );
        let r = answer("/api/explain?position=4%2F4%2F4%2F4+w+classic");
        assert_eq!(r.status, 400);
        assert!(r.body.contains(r#""where":"move""#), "{}", r.body);
        assert_eq!(answer("/nowhere").status, 404);
        assert_eq!(answer("/api/tables?position=x").status, 404);
    }

    #[test]
    fn only_verdicts_and_move_lists_are_budgeted() {
        let req = |target: &str| {
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            Route::of(path).unwrap().request(query).unwrap()
        };
        let explain = req("/api/explain?position=P&move=M");
        assert_eq!(explain.budgeted(), Some("P"));
        assert_eq!(req("/api/moves?position=Q").budgeted(), Some("Q"));
        assert_eq!(req("/api/step?position=P&step=S").budgeted(), None);
        assert_eq!(req("/api/board?position=P").budgeted(), None);
        assert!(explain.works(false) && !req("/api/rules").works(true));
        let values = req("/api/values?position=BB2%2F4%2F4%2FWW2+w+classic");
        assert!(values.works(true) && !values.works(false));
    }
}
