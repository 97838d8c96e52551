//! HTML rendered on the server: the rules page (`/rules`, spec/clauses.toml with one anchor per
//! clause) and the self-contained verdict file of `ordo explain --html`.

use std::fmt::Write as _;

use super::api::{Citation, ExplainAnswer};
use crate::rules::clauses::{self, Clause};

/// The style sheet of both documents, inlined so that each is one self-contained file.
const DOC_CSS: &str = include_str!("assets/doc.css");

/// Escape text for HTML character data and attribute values.
pub use crate::render::escape_markup as escape;

/// The length of a clause or section id (`ORDO-6.3`, `ORDOX-4`) at the start of `s`, if any.
fn id_len(s: &str) -> Option<usize> {
    let prefix = ["ORDOX-", "ORDO-"].into_iter().find(|p| s.starts_with(p))?;
    let rest = &s[prefix.len()..];
    let major = rest.bytes().take_while(u8::is_ascii_digit).count();
    if major == 0 {
        return None;
    }
    let after = &rest[major..];
    let minor = after
        .strip_prefix('.')
        .map(|m| m.bytes().take_while(u8::is_ascii_digit).count())
        .unwrap_or(0);
    Some(prefix.len() + major + if minor > 0 { 1 + minor } else { 0 })
}

/// Whether `id` names a clause or a section of the registry.
fn is_known(id: &str) -> bool {
    clauses::get(id).is_some() || clauses::registry().sections.iter().any(|s| s.id == id)
}

/// Where a clause or section id links to in a document, if anywhere.
type Linker<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Links to the anchors of the rules page (`#ORDO-6.3`).
fn rules_link(id: &str) -> Option<String> {
    is_known(id).then(|| format!("#{id}"))
}

/// Prose to HTML: escaped, `code` spans, *emphasis*, and every clause or section id that `link`
/// knows turned into a link.
pub fn prose(text: &str, link: Linker) -> String {
    let flowed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let (mut code, mut em) = (false, false);
    let mut i = 0;
    while i < flowed.len() {
        let rest = &flowed[i..];
        if let Some((n, href)) = id_len(rest)
            .filter(|_| !code)
            .and_then(|n| Some((n, link(&rest[..n])?)))
        {
            let _ = write!(out, "<a href=\"{}\">{}</a>", escape(&href), &rest[..n]);
            i += n;
            continue;
        }
        let ch = rest.chars().next().unwrap_or(' ');
        match ch {
            '`' => {
                out.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            '*' if !code && (em || rest[1..].contains('*')) => {
                out.push_str(if em { "</em>" } else { "<em>" });
                em = !em;
            }
            c => out.push_str(&escape(&c.to_string())),
        }
        i += ch.len_utf8();
    }
    if code {
        out.push_str("</code>");
    }
    if em {
        out.push_str("</em>");
    }
    out
}

/// Paragraphs (separated by blank lines) of prose.
fn paragraphs(text: &str, link: Linker) -> String {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| format!("<p>{}</p>\n", prose(p, link)))
        .collect()
}

fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{DOC_CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// One clause in full: title, kind, text, reasoning, sources compared, sources. Its anchor is
/// `{anchor_prefix}{id}`; ids in its prose link where `link` says.
fn clause_block(c: &Clause, anchor_prefix: &str, link: Linker) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<section class=\"clause\" id=\"{anchor_prefix}{id}\">\n<h3><a class=\"anchor\" \
         href=\"#{anchor_prefix}{id}\">{id}</a> {title} <span class=\"kind {kind}\">{kind}</span></h3>",
        id = escape(&c.id),
        title = escape(&c.title),
        kind = c.kind.name()
    );
    s.push_str(&paragraphs(&c.text, link));
    if !c.reasoning.trim().is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"reasoning\"><strong>Reasoning.</strong> {}</p>",
            prose(&c.reasoning, link)
        );
    }
    if !c.agreement.trim().is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"agreement\"><strong>Sources compared.</strong> {}</p>",
            prose(&c.agreement, link)
        );
    }
    s.push_str("<ul class=\"sources\">\n");
    for src in c.citations() {
        let _ = writeln!(
            s,
            "<li>{} <a href=\"{addr}\">{addr}</a></li>",
            escape(&src.text),
            addr = escape(&src.address)
        );
    }
    s.push_str("</ul>\n</section>\n");
    s
}

/// `/rules`: spec/rules.md as HTML, every clause with the anchor `#<ID>` (e.g. `/rules#ORDO-6.3`)
/// and every section with `#<section id>`.
pub fn rules_page() -> String {
    let reg = clauses::registry();
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<nav class=\"top\"><a href=\"/\">&larr; The board</a></nav>\n<main class=\"doc\">\n\
         <h1>{}</h1>",
        escape(&reg.title)
    );
    body.push_str(&paragraphs(&reg.preamble, &rules_link));
    let _ = writeln!(body, "<p>Rules version: {}</p>", reg.rules_version);
    body.push_str("<nav class=\"toc\"><h2>Contents</h2><ul>\n");
    for sec in &reg.sections {
        let _ = writeln!(
            body,
            "<li><a href=\"#{id}\">{id} {}</a></li>",
            escape(&sec.title),
            id = escape(&sec.id)
        );
    }
    body.push_str("</ul></nav>\n<h2>Sources</h2>\n<table class=\"sources\">\n");
    for src in &reg.sources {
        let _ = writeln!(
            body,
            "<tr><td>{}, <cite>{}</cite>, {} <a href=\"{addr}\">{addr}</a></td><td>{}</td></tr>",
            escape(&src.author),
            escape(&src.title),
            escape(&src.shown_date()),
            prose(&src.describes, &rules_link),
            addr = escape(&src.address)
        );
    }
    body.push_str("</table>\n");
    for sec in &reg.sections {
        let _ = writeln!(
            body,
            "<section class=\"section\" id=\"{id}\">\n<h2>{id} {}</h2>",
            escape(&sec.title),
            id = escape(&sec.id)
        );
        body.push_str(&paragraphs(&sec.intro, &rules_link));
        for c in reg.clauses.iter().filter(|c| c.section_id() == sec.id) {
            body.push_str(&clause_block(c, "", &rules_link));
        }
        body.push_str("</section>\n");
    }
    body.push_str("</main>\n");
    document(&reg.title, &body)
}

/// The SVG document without its XML declaration, for inlining in HTML.
pub fn inline_svg(svg: &str) -> &str {
    match svg.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or(svg, |(_, s)| s.trim_start()),
        None => svg,
    }
}

/// One cited clause in a verdict, linking to its full text under `#clause-<ID>`.
fn citation_block(c: &Citation, link: Linker) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<li class=\"citation\"><h3><a href=\"#clause-{id}\">{id}</a> {}</h3>",
        escape(&c.title),
        id = escape(&c.id)
    );
    if let Some(d) = &c.detail {
        let _ = writeln!(s, "<p class=\"detail\">{}</p>", escape(d));
    }
    let _ = writeln!(s, "<blockquote>{}</blockquote>", prose(&c.text, link));
    s.push_str("</li>\n");
    s
}

/// `ordo explain --html`: the verdict as one self-contained HTML file (inline SVG and style,
/// every cited clause quoted in full, no scripts and nothing fetched from the network).
pub fn verdict_page(a: &ExplainAnswer) -> String {
    let mut cited: Vec<&str> = Vec::new();
    for c in a.violated.iter().chain(&a.permitted_by) {
        if !cited.contains(&c.id.as_str()) && clauses::get(&c.id).is_some() {
            cited.push(&c.id);
        }
    }
    let link = |id: &str| cited.contains(&id).then(|| format!("#clause-{id}"));
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<main class=\"doc verdict-doc\">\n<h1>Ordo verdict: <code>{}</code> is \
         <span class=\"verdict {v}\">{v}</span></h1>",
        escape(&a.mv),
        v = a.verdict
    );
    let _ = writeln!(
        body,
        "<dl class=\"facts\"><dt>Game</dt><dd>{}</dd><dt>Position</dt><dd><code>{}</code></dd>\
         <dt>To move</dt><dd>{}</dd><dt>Move</dt><dd><code>{}</code></dd></dl>",
        escape(a.game),
        escape(&a.position),
        escape(&a.side_to_move),
        escape(&a.mv)
    );
    let _ = writeln!(
        body,
        "<figure class=\"board\">{}</figure>",
        inline_svg(&a.svg)
    );
    frame_figures(a, &mut body);
    verdict_sections(a, &link, &mut body);
    body.push_str("<h2>The clauses cited</h2>\n");
    for clause in cited.iter().filter_map(|id| clauses::get(id)) {
        body.push_str(&clause_block(clause, "clause-", &link));
    }
    let _ = writeln!(
        body,
        "<footer><p>Judged clause by clause by the adjudicator of <code>ordo</code> \
         (rules version {}). To reproduce: <code>ordo explain --position \"{}\" \"{}\"</code></p>\
         </footer>\n</main>",
        clauses::registry().rules_version,
        escape(&a.position),
        escape(&a.mv)
    );
    document(&format!("Ordo verdict: {} {}", a.mv, a.verdict), &body)
}

/// The boards after each step, shown rather than listed, each captioned with what it shows and the
/// groups that decide the verdict, by role.
fn frame_figures(a: &ExplainAnswer, body: &mut String) {
    for f in &a.frames {
        let groups: Vec<String> = f
            .groups
            .iter()
            .map(|g| format!("{{{}}} ({})", g.squares.join(" "), g.role))
            .collect();
        let groups = if groups.is_empty() {
            String::new()
        } else {
            format!("; groups: {}", groups.join(", "))
        };
        let _ = writeln!(
            body,
            "<figure class=\"board step\">{}<figcaption>{}{}</figcaption></figure>",
            inline_svg(&f.svg),
            escape(&f.label),
            escape(&groups)
        );
    }
}

/// The verdict's own sections: the violated clauses, or what the move does and what permits it.
fn verdict_sections(a: &ExplainAnswer, link: Linker, body: &mut String) {
    if !a.legal {
        let n = a.violated.len();
        let _ = writeln!(
            body,
            "<h2>{} violated</h2>\n<ol class=\"citations\">",
            ordo_core::text::count(n, "clause")
        );
        for c in &a.violated {
            body.push_str(&citation_block(c, link));
        }
        body.push_str("</ol>\n");
        return;
    }
    if let Some(canon) = a.canonical.as_ref().filter(|c| **c != a.mv) {
        let _ = writeln!(
            body,
            "<p>Canonical spelling: <code>{}</code></p>",
            escape(canon)
        );
    }
    if let Some(e) = &a.effects {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                escape(&v.join(" "))
            }
        };
        let moved: Vec<String> = e.moved.iter().map(|[f, t]| format!("{f}→{t}")).collect();
        let _ = writeln!(
            body,
            "<h2>What the move does</h2>\n<dl class=\"facts\"><dt>Moves</dt><dd>{}</dd>\
             <dt>Captures</dt><dd>{}</dd><dt>Removes</dt><dd>{}</dd><dt>Result</dt>\
             <dd><code>{}</code></dd><dt>Status</dt><dd>{}</dd></dl>",
            escape(&moved.join(" ")),
            list(&e.captured),
            list(&e.removed),
            escape(&e.result),
            escape(&e.status)
        );
        let _ = writeln!(
            body,
            "<figure class=\"board\">{}<figcaption>After the move</figcaption></figure>",
            inline_svg(&e.result_svg)
        );
    }
    body.push_str("<h2>Permitted by</h2>\n<ol class=\"citations\">\n");
    for c in &a.permitted_by {
        body.push_str(&citation_block(c, link));
    }
    body.push_str("</ol>\n");
}
