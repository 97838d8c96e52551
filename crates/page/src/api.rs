//! The JSON answers of `ordo serve`, built from text input without a socket: the verdict on a
//! move ([`explain`]), the legal moves ([`moves`]), one clause ([`rule`]), the diagram of a
//! position ([`board_svg`]) and the position after one step ([`step`], for the page's two-step
//! and tie choices). Every function checks its input and returns an [`ApiError`] that names the
//! parameter at fault; none panics on any input.

use serde::Serialize;

use crate::adjudicate::{adjudicate, canonical_spelling, Verdict};
use crate::notation::{echo, format_move, format_position, parse_move, parse_position};
use crate::reference::Reference;
use crate::render::{self, Annotations};
use crate::rules::{clauses, ClauseId, Engine, Move, Position, Square, Status, Step};
use crate::show::{Frame, TieChoice};

/// What kind of failure an [`ApiError`] is; each maps to one HTTP status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed input: a position or move that cannot be read, a missing parameter (400).
    BadInput,
    /// No such route or clause (404).
    NotFound,
    /// The route exists but not for this method (405).
    MethodNotAllowed,
    /// The answer took longer than the request time limit (408).
    Timeout,
    /// The request body is over the size limit (413).
    TooLarge,
    /// The request target (path and query string) is over the size limit (414).
    UriTooLong,
    /// The request head (target and headers) is over the size limit (431).
    HeadTooLarge,
    /// The position is over the server's work budget per request (422).
    OverBudget,
    /// This address already has its share of the server's work queue (429).
    TooManyRequests,
    /// The server's work queue is full (503).
    Busy,
    /// A bug, not bad input (500).
    Internal,
}

/// A failed request: what went wrong and where (a parameter name, `path`, `query`, `request`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (in {place})")]
pub struct ApiError {
    /// The kind of failure, which decides the HTTP status ([`ApiError::status`]).
    pub kind: ErrorKind,
    /// One line naming what is wrong.
    pub message: String,
    /// Where: the parameter (`position`, `move`, `step`, `id`) or `path`, `query`, `request`.
    pub place: String,
}

impl ApiError {
    /// An error of `kind` at `place`, its message folded onto one line (runs of white space,
    /// newlines included, become one space).
    pub fn new(kind: ErrorKind, place: &str, message: impl Into<String>) -> ApiError {
        let message: String = message.into();
        ApiError {
            kind,
            message: message.split_whitespace().collect::<Vec<_>>().join(" "),
            place: place.to_string(),
        }
    }

    /// A [`ErrorKind::BadInput`] error.
    pub fn bad(place: &str, message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::BadInput, place, message)
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self.kind {
            ErrorKind::BadInput => 400,
            ErrorKind::NotFound => 404,
            ErrorKind::MethodNotAllowed => 405,
            ErrorKind::Timeout => 408,
            ErrorKind::TooLarge => 413,
            ErrorKind::UriTooLong => 414,
            ErrorKind::HeadTooLarge => 431,
            ErrorKind::OverBudget => 422,
            ErrorKind::TooManyRequests => 429,
            ErrorKind::Busy => 503,
            ErrorKind::Internal => 500,
        }
    }

    /// The body: one line of JSON, `{"error": "...", "where": "..."}`.
    pub fn to_json(&self) -> String {
        serde_json::json!({ "error": self.message, "where": self.place }).to_string()
    }
}

/// A clause of spec/clauses.toml as the API gives it.
#[derive(Clone, Debug, Serialize)]
pub struct ClauseInfo {
    /// The clause's id (`ORDO-6.4`).
    pub id: String,
    /// Its short title, as in the rules page.
    pub title: String,
    /// `source`, `figure` or `ruling`.
    pub kind: &'static str,
    /// The section id (`ORDO-6`) and title.
    pub section: String,
    /// The title of that section.
    pub section_title: String,
    /// The rule in the project's words, on one line.
    pub text: String,
    /// Each document that bears on the clause: author, title, date, section and the address
    /// where it is published (`…, section Connection, https://spielstein.com/games/ordo`).
    pub sources: Vec<String>,
    /// Which documents agree and which differ (may be empty).
    pub agreement: String,
    /// For rulings and figures: why the project decided as it did (may be empty).
    pub reasoning: String,
    /// The clause's anchor in the rules page ([`clause_url`]).
    pub url: String,
}

/// A clause cited by a verdict: its id, title, text and sources, and for a violation what in
/// this move breaks it.
#[derive(Clone, Debug, Serialize)]
pub struct Citation {
    /// The clause's id (`ORDO-6.4`), as cited even when the registry does not have it.
    pub id: String,
    /// Its short title (empty for an id the registry does not have).
    pub title: String,
    /// `source`, `figure` or `ruling` (`unknown` for an id the registry does not have).
    pub kind: &'static str,
    /// The rule in the project's words, on one line.
    pub text: String,
    /// Each document that bears on the clause, as in [`ClauseInfo::sources`].
    pub sources: Vec<String>,
    /// The clause's anchor in the rules page ([`clause_url`]: `/rules#ORDO-6.4`).
    pub url: String,
    /// For a violated clause: what in this move breaks it, in one sentence (absent from
    /// the JSON when there is nothing to add).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What a legal move does.
#[derive(Clone, Debug, Serialize)]
pub struct EffectsInfo {
    /// Every piece moved, `[from, to]`, in step order.
    pub moved: Vec<[String; 2]>,
    /// Opponent pieces captured by landing on them (ORDO-6.4), by square name.
    pub captured: Vec<String>,
    /// Opponent pieces removed with a smaller or unchosen group (ORDOX-4.1, ORDOX-4.2).
    pub removed: Vec<String>,
    /// Whether a capture left the opponent in more than one group (before any removal).
    pub splits_opponent: bool,
    /// The position after the move, in canonical notation.
    pub result: String,
    /// The status of that position: `ongoing` or `White wins (…)`.
    pub status: String,
    /// The clause that ends the game, when the move wins it.
    pub status_clause: Option<String>,
    /// The diagram of the position after the move, the move marked on it (the squares it
    /// left and reached, its arrows).
    pub result_svg: String,
}

/// Whether a move is legal, as the answers spell it: `legal` or `illegal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Legality {
    /// The move is allowed in the position (`legal`).
    Legal,
    /// The move breaks at least one clause (`illegal`).
    Illegal,
}

impl Legality {
    /// `legal` or `illegal`.
    pub fn word(self) -> &'static str {
        match self {
            Legality::Legal => "legal",
            Legality::Illegal => "illegal",
        }
    }
}

impl std::fmt::Display for Legality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// The verdict on one move (`GET /api/explain`).
#[derive(Clone, Debug, Serialize)]
pub struct ExplainAnswer {
    /// The position, in canonical notation.
    pub position: String,
    /// The move as read.
    #[serde(rename = "move")]
    pub mv: String,
    /// `legal` or `illegal`.
    pub verdict: Legality,
    /// The same as a boolean (the answers carry both).
    pub legal: bool,
    /// Every clause the move breaks, each with what breaks it (empty for a legal move).
    pub violated: Vec<Citation>,
    /// The clauses that permit a legal move, the deciding one first ([`deciding_first`]; empty
    /// for an illegal one).
    pub permitted_by: Vec<Citation>,
    /// The move's canonical spelling when it is legal.
    pub canonical: Option<String>,
    /// What a legal move does (absent for an illegal one).
    pub effects: Option<EffectsInfo>,
    /// `classic` or `x`.
    pub variant: &'static str,
    /// The game's name: `classic Ordo` or `Ordo X`.
    pub game: &'static str,
    /// `White` or `Black`.
    pub side_to_move: String,
    /// The diagram of the position with the move drawn (as `ordo explain --svg`).
    pub svg: String,
    /// The page's shareable link, relative to the server: `/?position=…&move=…`.
    pub link: String,
    /// The boards after the move's diagram `svg`, shown rather than listed: for a legal move each
    /// step, an Ordo X capture's removal on a board of its own, the groups a capture leaves
    /// drawn; for a move that breaks the connection rule, the move as written with the
    /// mover's groups drawn (ORDO-4.3, ORDO-9.1, ORDOX-3.2). Else empty.
    pub frames: Vec<Frame>,
}

/// The legal moves of a position (`GET /api/moves`).
#[derive(Clone, Debug, Serialize)]
pub struct MovesAnswer {
    /// The position, in canonical notation.
    pub position: String,
    /// `classic` or `x`.
    pub variant: &'static str,
    /// The game's name: `classic Ordo` or `Ordo X`.
    pub game: &'static str,
    /// `White` or `Black`.
    pub side_to_move: String,
    /// The board's size, `COLSxROWS` (`10x8` for the standard board).
    pub board: String,
    /// `ongoing` or `White wins (…)`.
    pub status: String,
    /// The id of the clause that ended the game (`None` while it goes on).
    pub status_clause: Option<String>,
    /// Every legal move in canonical notation, sorted (empty when the game is over).
    pub moves: Vec<String>,
    /// The number of legal moves (the length of `moves`).
    pub count: usize,
}

/// The position after one step (`GET /api/step`), for choosing a second step or a kept group.
#[derive(Clone, Debug, Serialize)]
pub struct StepAnswer {
    /// The position before the step, in canonical notation.
    pub position: String,
    /// The step as read (`a1-a2`, `b2xc3`).
    pub step: String,
    /// The position after the step, the same side still to move. The step is applied as
    /// written, legal or not (a step that breaks a rule gives an unspecified position).
    pub after: String,
    /// When the step is a capture that leaves the opponent's largest groups tied in size
    /// (ORDOX-4.2, Ordo X): those groups, each as its squares in row-major order. Else empty.
    pub tied_groups: Vec<Vec<String>>,
    /// For each tied group, the board after the capture keeping it (a preview of
    /// each choice before the user picks). Empty when there is no tie.
    pub tie_choices: Vec<TieChoice>,
}

/// How a game ends at best play, for one side: a win or a loss in so many plies, or a draw
/// (from the endgame tables, `ordo tb build`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side wins; the game ends after this many plies.
    Win(u32),
    /// The side loses; the game ends after this many plies (0: it is already over).
    Loss(u32),
    /// Neither side can force the end.
    Draw,
}

impl Outcome {
    fn word(self) -> &'static str {
        match self {
            Outcome::Win(_) => "win",
            Outcome::Loss(_) => "loss",
            Outcome::Draw => "draw",
        }
    }

    fn plies(self) -> Option<u32> {
        match self {
            Outcome::Win(n) | Outcome::Loss(n) => Some(n),
            Outcome::Draw => None,
        }
    }

    /// `wins in 3 plies`, `loses in 1 ply`, `draws`.
    fn text(self) -> String {
        let plies = |n: u32| format!("{n} pl{}", if n == 1 { "y" } else { "ies" });
        match self {
            Outcome::Win(n) => format!("wins in {}", plies(n)),
            Outcome::Loss(0) => "has lost: the game is over".to_string(),
            Outcome::Loss(n) => format!("loses in {}", plies(n)),
            Outcome::Draw => "draws".to_string(),
        }
    }
}

/// One legal move with its endgame value for the side that plays it (`GET /api/values`).
#[derive(Clone, Debug, Serialize)]
pub struct MoveValue {
    /// The move, in canonical notation (`move` in JSON).
    #[serde(rename = "move")]
    pub mv: String,
    /// `win`, `loss` or `draw` for the mover.
    pub outcome: &'static str,
    /// The plies to the end at best play, counted from before the move (`None` for a draw).
    pub plies: Option<u32>,
    /// In words: `wins in 3 plies`, `loses in 2 plies`, `draws`.
    pub text: String,
    /// The position after the move.
    pub after: String,
}

/// The endgame value of a position and of each legal move, best first (`GET /api/values`,
/// answered by `ordo serve --tables DIR`).
#[derive(Clone, Debug, Serialize)]
pub struct ValuesAnswer {
    /// The position, in canonical notation.
    pub position: String,
    /// `White` or `Black`.
    pub side_to_move: String,
    /// The value for the side to move: `win`, `loss` or `draw`.
    pub outcome: &'static str,
    /// The plies to the end at best play (`None` for a draw).
    pub plies: Option<u32>,
    /// The value in words: `White to move wins in 3 plies`.
    pub text: String,
    /// Every legal move with its value for the mover, best first.
    pub moves: Vec<MoveValue>,
}

/// The answer of `/api/values` from the tables' value of `pos` and of each move (for the
/// mover), in the tables' order (best first).
pub fn values_answer(pos: &Position, value: Outcome, moves: &[(Move, Outcome)]) -> ValuesAnswer {
    let engine = Reference::from_position(pos).ok();
    let after = |m: &Move| {
        engine
            .as_ref()
            .map(|e| format_position(&e.apply(m).to_position()))
            .unwrap_or_default()
    };
    ValuesAnswer {
        position: format_position(pos),
        side_to_move: pos.to_move.to_string(),
        outcome: value.word(),
        plies: value.plies(),
        text: format!("{} to move {}", pos.to_move, value.text()),
        moves: moves
            .iter()
            .map(|(m, v)| MoveValue {
                mv: format_move(m),
                outcome: v.word(),
                plies: v.plies(),
                text: v.text(),
                after: after(m),
            })
            .collect(),
    }
}

/// The answer of `/api/values` where no tables are loaded: the static site, or `ordo serve`
/// without `--tables DIR` (404, naming `tables`).
pub fn no_tables() -> ApiError {
    ApiError::new(
        ErrorKind::NotFound,
        "tables",
        "no endgame tables here, so no endgame values: this server was started without them",
    )
}

/// A position from its notation, checked to be one that can be set up (ORDO-2.3, ORDO-1.5).
pub fn read_position(text: &str) -> Result<Position, ApiError> {
    let pos = parse_position(text).map_err(|e| ApiError::bad("position", e.to_string()))?;
    pos.validate()
        .map_err(|e| ApiError::bad("position", format!("position '{text}': {e}")))?;
    Ok(pos)
}

/// A move from its notation; `place` names the parameter in errors.
pub fn read_move(text: &str, place: &str) -> Result<Move, ApiError> {
    parse_move(text).map_err(|e| ApiError::bad(place, e.to_string()))
}

fn flow(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The API's view of a clause.
pub fn clause_info(c: &clauses::Clause) -> ClauseInfo {
    let section_title = clauses::registry()
        .sections
        .iter()
        .find(|s| s.id == c.section_id())
        .map(|s| s.title.clone())
        .unwrap_or_default();
    ClauseInfo {
        id: c.id.clone(),
        title: c.title.clone(),
        kind: c.kind.name(),
        section: c.section_id().to_string(),
        section_title,
        text: flow(&c.text),
        sources: cited(c),
        agreement: flow(&c.agreement),
        reasoning: flow(&c.reasoning),
        url: clause_url(&c.id),
    }
}

/// The clause's sources as a reader can follow them.
fn cited(c: &clauses::Clause) -> Vec<String> {
    c.citations().iter().map(|s| s.to_string()).collect()
}

fn citation(id: &str, detail: Option<String>) -> Citation {
    match clauses::get(id) {
        Some(c) => Citation {
            id: c.id.clone(),
            title: c.title.clone(),
            kind: c.kind.name(),
            text: flow(&c.text),
            sources: cited(c),
            url: clause_url(&c.id),
            detail,
        },
        None => Citation {
            id: id.to_string(),
            title: String::new(),
            kind: "unknown",
            text: String::new(),
            sources: Vec::new(),
            url: public("rules"),
            detail,
        },
    }
}

/// `GET /api/rules/<ID>`: one clause.
pub fn rule(id: &str) -> Result<ClauseInfo, ApiError> {
    match clauses::get(id) {
        Some(c) => Ok(clause_info(c)),
        None if clauses::is_clause_id(id) => Err(ApiError::new(
            ErrorKind::NotFound,
            "id",
            format!(
                "no clause '{}' in spec/clauses.toml (GET /api/rules lists them)",
                echo(id)
            ),
        )),
        None => Err(ApiError::new(
            ErrorKind::NotFound,
            "id",
            format!(
                "'{}' is not a clause id: ids look like ORDO-6.3 or ORDOX-4.2",
                echo(id)
            ),
        )),
    }
}

/// `GET /api/rules`: every clause.
pub fn all_rules() -> Vec<ClauseInfo> {
    clauses::registry()
        .clauses
        .iter()
        .map(clause_info)
        .collect()
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

/// Percent-encode a query-string value (everything but unreserved characters).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The address the page is published at, when links name it (`ordo serve --public-url`).
static PUBLIC_URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Write every link with the address `url` (e.g. `https://ordo.example.org/judge/`), for a
/// server that is reached under another name than the one it listens on. Set once, by the
/// command line before serving; an address that is not `http://` or `https://` followed by a
/// host, or holds spaces, quotes or angle brackets or a query or fragment, is refused.
pub fn set_public_url(url: &str) -> Result<(), ApiError> {
    let bad = |why: &str| {
        let shown: String = url.chars().take(80).collect();
        ApiError::bad("public-url", format!("'{shown}' {why}"))
    };
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| bad("does not start with http:// or https://"))?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(bad("names no host"));
    }
    if url
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || "\"'<>`?#".contains(c))
    {
        return Err(bad("holds a space, quote, angle bracket, '?' or '#'"));
    }
    let url = if url.ends_with('/') {
        url.to_string()
    } else {
        format!("{url}/")
    };
    PUBLIC_URL
        .set(url)
        .map_err(|_| bad("comes after another public address"))
}

/// The page's link to a position and a move: `/?position=…&move=…`, relative to the page's
/// server, or under the address given to [`set_public_url`].
pub fn share_link(position: &str, mv: &str) -> String {
    let query = format!(
        "?position={}&move={}",
        encode_component(position),
        encode_component(mv)
    );
    public(&query)
}

/// The anchor of clause `id` in the rules page, `/rules#ORDO-6.4`, or under the address given
/// to [`set_public_url`] (`https://ordo.example.org/judge/rules#ORDO-6.4`).
pub fn clause_url(id: &str) -> String {
    public(&format!("rules#{id}"))
}

/// `path` (relative, without a leading `/`) under the server's root, or under the address
/// given to [`set_public_url`].
fn public(path: &str) -> String {
    match PUBLIC_URL.get() {
        Some(base) => format!("{base}{path}"),
        None => format!("/{path}"),
    }
}

/// How decisive a permitting clause is for the question a legal move raises, most decisive
/// first: the end of the game, the kept group of a tie (ORDOX-4.2), a removal (ORDOX-4.1), a
/// capture (ORDO-6.4), a reconnecting or backward move (ORDO-9), an ordo (ORDO-7, ORDO-8.2,
/// ORDOX-2.2), two steps (ORDOX-3, for a turn of two steps only), a step (ORDO-6.1); an id
/// ending in `.` stands for its whole section.
const DECISIVE: [&str; 10] = [
    "ORDO-10.",
    "ORDOX-4.2",
    "ORDOX-4.1",
    "ORDO-6.4",
    "ORDO-9.",
    "ORDO-7.",
    "ORDO-8.2",
    "ORDOX-2.2",
    "ORDOX-3.",
    "ORDO-6.1",
];

/// The clauses permitting a legal move in the order a verdict tells them, the deciding one first:
/// the clause that settles the question first (the one that ends the game, when the move wins
/// it, then the most specific of `DECISIVE`: the move's own clause, a capture, an ordo or a
/// step, before the connection rule it also keeps), then the others in registry order. The
/// turn's clauses (ORDOX-3) decide only a turn of two steps (one that ORDOX-3.2 permits); a
/// single step's turn is told by its step. Shared by the page, the API, `ordo explain` and
/// `explain --html`.
pub fn deciding_first(permits: &[ClauseId], status_clause: Option<&str>) -> Vec<ClauseId> {
    let two_steps = permits.iter().any(|p| *p == "ORDOX-3.2");
    let rank = |id: &ClauseId| {
        let id = id.to_string();
        let id = id.as_str();
        if Some(id) == status_clause {
            return 0;
        }
        if id.starts_with("ORDOX-3.") && !two_steps {
            return DECISIVE.len() + 1;
        }
        DECISIVE
            .iter()
            .position(|d| {
                if d.ends_with('.') {
                    id.starts_with(d)
                } else {
                    id == *d
                }
            })
            .map_or(DECISIVE.len() + 1, |i| i + 1)
    };
    let mut out = permits.to_vec();
    out.sort_by_key(rank);
    out
}

/// `GET /api/explain`: the adjudicator's verdict on `mv` in `position`, clause by clause.
pub fn explain(position: &str, mv: &str) -> Result<ExplainAnswer, ApiError> {
    let pos = read_position(position)?;
    let mv = read_move(mv, "move")?;
    Ok(explain_move(&pos, &mv))
}

/// The verdict on `mv` in `pos` (a position that passed [`Position::validate`]).
pub fn explain_move(pos: &Position, mv: &Move) -> ExplainAnswer {
    let verdict = adjudicate(pos, mv);
    let position = format_position(pos);
    let mv_text = format_move(mv);
    let (violated, permitted_by) = match &verdict {
        Verdict::Illegal { violations } => (
            violations
                .iter()
                .map(|v| citation(&v.clause.to_string(), Some(v.detail.clone())))
                .collect(),
            Vec::new(),
        ),
        Verdict::Legal { permits, effects } => (
            Vec::new(),
            deciding_first(permits, effects.status.clause())
                .iter()
                .map(|p| citation(&p.to_string(), None))
                .collect(),
        ),
    };
    let effects = verdict.effects().map(|e| EffectsInfo {
        moved: e
            .moved
            .iter()
            .map(|(f, t)| [f.to_string(), t.to_string()])
            .collect(),
        captured: names(&e.captured),
        removed: names(&e.removed),
        splits_opponent: e.splits_opponent,
        result: format_position(&e.result),
        status: e.status.to_string(),
        status_clause: e.status.clause().map(str::to_string),
        result_svg: crate::show::after_svg(&e.result, Some(mv), &Annotations::default()),
    });
    ExplainAnswer {
        frames: crate::show::frames(pos, mv, &verdict),
        link: share_link(&position, &mv_text),
        svg: verdict_svg(pos, mv, &verdict),
        position,
        variant: pos.variant.name(),
        game: pos.variant.game_name(),
        side_to_move: pos.to_move.to_string(),
        canonical: canonical_spelling(pos, mv).map(|c| format_move(&c)),
        legal: verdict.is_legal(),
        verdict: if verdict.is_legal() {
            Legality::Legal
        } else {
            Legality::Illegal
        },
        mv: mv_text,
        violated,
        permitted_by,
        effects,
    }
}

/// The diagram of `pos` with `mv` drawn and its verdict as the title, captured and removed
/// pieces marked (the same drawing as `ordo explain --svg`).
pub fn verdict_svg(pos: &Position, mv: &Move, verdict: &Verdict) -> String {
    let dims = pos.dims();
    let on_board = mv.off_board_square(dims).is_none();
    let notes = Annotations {
        captured: verdict
            .effects()
            .map(|e| e.captured.clone())
            .unwrap_or_default(),
        removed: verdict
            .effects()
            .map(|e| e.removed.clone())
            .unwrap_or_default(),
        title: Some(format!(
            "{} {}",
            format_move(mv),
            if verdict.is_legal() {
                "legal".to_string()
            } else {
                format!("illegal: {}", ClauseId::join(&verdict.clause_ids(), ", "))
            }
        )),
    };
    render::svg(pos, on_board.then_some(mv), &notes)
}

/// `GET /api/moves`: every legal move of `position` (the reference engine), sorted.
pub fn moves(position: &str) -> Result<MovesAnswer, ApiError> {
    let pos = read_position(position)?;
    let engine =
        Reference::from_position(&pos).map_err(|e| ApiError::bad("position", e.to_string()))?;
    let list = crate::notation::sorted_moves(&engine);
    let status: Status = engine.status();
    Ok(MovesAnswer {
        position: format_position(&pos),
        variant: pos.variant.name(),
        game: pos.variant.game_name(),
        side_to_move: pos.to_move.to_string(),
        board: pos.dims().to_string(),
        status: status.to_string(),
        status_clause: status.clause().map(str::to_string),
        count: list.len(),
        moves: list,
    })
}

/// `GET /api/board`: the SVG diagram of `position`, with `mv` drawn when given.
pub fn board_svg(position: &str, mv: Option<&str>) -> Result<String, ApiError> {
    let pos = parse_position(position).map_err(|e| ApiError::bad("position", e.to_string()))?;
    let mv = mv.map(|m| read_move(m, "move")).transpose()?;
    let dims = pos.dims();
    let drawable = mv.as_ref().filter(|m| m.off_board_square(dims).is_none());
    Ok(render::svg(&pos, drawable, &Annotations::default()))
}

/// `GET /api/step`: the position after the single step `step` of the side to move, and the
/// tied groups a capture leaves (ORDOX-4.2).
pub fn step(position: &str, step: &str) -> Result<StepAnswer, ApiError> {
    let pos = read_position(position)?;
    let mv = read_move(step, "step")?;
    if mv.second.is_some() {
        return Err(ApiError::bad(
            "step",
            format!("step '{step}' has two steps: give one step, e.g. e3-f3"),
        ));
    }
    let dims = pos.dims();
    if let Some(off) = mv
        .first
        .named_squares()
        .into_iter()
        .find(|&q| !dims.contains(q))
    {
        return Err(ApiError::bad(
            "step",
            format!("step '{step}': square {off} is off the {dims} board"),
        ));
    }
    let engine =
        Reference::from_position(&pos).map_err(|e| ApiError::bad("position", e.to_string()))?;
    let mut after = engine.apply(&mv).to_position();
    after.to_move = pos.to_move;
    Ok(StepAnswer {
        position: format_position(&pos),
        step: format_move(&mv),
        after: format_position(&after),
        tied_groups: tied_groups(&pos, &mv.first),
        tie_choices: crate::show::tie_choices(&pos, &mv.first),
    })
}

/// The opponent's largest groups after the capture `step`, when more than one has the largest
/// size and the game is Ordo X (ORDOX-4.2).
fn tied_groups(pos: &Position, step: &Step) -> Vec<Vec<String>> {
    crate::show::tied_squares(pos, step)
        .iter()
        .map(|g| names(g))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed verdict is spelled in the answers as the words the page's script reads.
    #[test]
    fn a_verdict_serializes_to_its_word() {
        let legal = explain("4/1B2/WW2/2W1 w classic", "a2-a3").unwrap();
        let json = serde_json::to_value(&legal).unwrap();
        assert_eq!(
            (json["verdict"].as_str(), json["legal"].as_bool()),
            (Some("legal"), Some(true))
        );
        let illegal = explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
        assert_eq!(
            serde_json::to_value(&illegal).unwrap()["verdict"],
            "illegal"
        );
        assert_eq!(illegal.verdict.to_string(), "illegal");
    }
}
