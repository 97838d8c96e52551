//! The static site: the page, its assets, the WebAssembly module and the rules page as a
//! folder of files that any static host serves (GitHub Pages, a web server's folder,
//! `python3 -m http.server`). The page judges in the browser: its script calls the module
//! (`crates/wasm`, the same [`crate::answer`] as the server), so nobody runs a server, and a
//! link to a verdict (`…/?position=…&move=…`) opens to the same verdict for anyone.
//!
//! Written by `ordo site DIR --wasm FILE` (the command line writes the files) and by
//! `scripts/build-site.sh DIR`, which also builds the module. An installed `ordo` carries no
//! module: `ordo site DIR --api URL` writes the page without it, asking the `ordo serve` at URL
//! ([`files_for_api`]). With `--tables TDIR` the site ships endgame table files under `tables/`
//! and the page shows endgame values from them ([`TABLES_INDEX`]).

use crate::{assets, pages};

/// One file of the site: its path relative to the site's folder, and its contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// The path, `/`-separated, relative to the site's folder (`assets/ordo.wasm`).
    pub path: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

/// Where the page's script loads the module from, relative to the page.
pub const WASM_PATH: &str = "assets/ordo.wasm";

/// The list of the endgame table files the site ships (`{"files": [NAME, …]}`, empty for
/// none), each at `tables/NAME`: the page fetches only those a position needs.
pub const TABLES_INDEX: &str = "tables/index.json";

/// Why the site cannot be written.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SiteError {
    /// The module given is not a WebAssembly file.
    #[error("the module is not WebAssembly (it does not start with \\0asm): build it with scripts/build-site.sh")]
    NotWasm,
    /// The server address given for `--api` (held here) is not one the page can use.
    #[error("'{0}' is not an address the page can ask: give http:// or https://, a host, no quotes, spaces or '?'")]
    BadApi(String),
    /// A file given as an endgame table (its name held here) is not named as one.
    #[error("'{0}' is not the name of an endgame table file (ctb-VARIANT-BOARD-WvB.ordotb, as `ordo tb build` writes)")]
    BadTable(String),
}

/// The page for the static site: answers from the module, no link to the server's API.
pub fn static_index() -> String {
    assets::INDEX_HTML
        .replace(
            r#"<meta name="ordo-backend" content="server">"#,
            r#"<meta name="ordo-backend" content="wasm">"#,
        )
        .replace(r#"<a href="api/rules">API</a>"#, "")
}

/// The page for a site whose answers come from the `ordo serve` at `api` (an address ending
/// in `/`): the page asks `{api}api/explain?…` across origins.
pub fn remote_index(api: &str) -> String {
    assets::INDEX_HTML
        .replace(
            r#"<meta name="ordo-backend" content="server">"#,
            &format!(
                r#"<meta name="ordo-backend" content="remote">
<meta name="ordo-api" content="{api}">"#
            ),
        )
        .replace(r#"<a href="api/rules">API</a>"#, "")
}

fn text(path: &str, s: &str) -> File {
    File {
        path: path.to_string(),
        bytes: s.as_bytes().to_vec(),
    }
}

/// Every file of the static site, the module `wasm` (the bytes of `ordo_wasm.wasm`) included,
/// and the endgame table files `tables` (name and bytes; none for a site without values),
/// which the page checks (header and checksum) before it uses one.
pub fn files(wasm: &[u8], tables: &[(String, Vec<u8>)]) -> Result<Vec<File>, SiteError> {
    if !wasm.starts_with(b"\0asm") {
        return Err(SiteError::NotWasm);
    }
    let mut out = shared_files(&static_index());
    out.push(File {
        path: WASM_PATH.to_string(),
        bytes: wasm.to_vec(),
    });
    let mut names = Vec::new();
    for (name, bytes) in tables {
        if !is_table_name(name) {
            return Err(SiteError::BadTable(name.chars().take(80).collect()));
        }
        names.push(name.as_str());
        out.push(File {
            path: format!("tables/{name}"),
            bytes: bytes.clone(),
        });
    }
    let index = serde_json::json!({ "files": names });
    out.push(text(TABLES_INDEX, &index.to_string()));
    Ok(out)
}

/// Whether `name` is an endgame table file's name the page may fetch: `ctb-….ordotb` of
/// letters, digits and `-`, `x`, `v` (no path, nothing to escape).
pub fn is_table_name(name: &str) -> bool {
    name.strip_prefix("ctb-")
        .and_then(|n| n.strip_suffix(".ordotb"))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// The files of a site without the module, whose page asks the `ordo serve` at `api` (e.g.
/// `https://ordo.example.org/`) for its answers: what an installed `ordo`, which carries no
/// WebAssembly module, can write (`ordo site DIR --api URL`). The server answers other
/// origins (it sends `Access-Control-Allow-Origin: *` on the API).
pub fn files_for_api(api: &str) -> Result<Vec<File>, SiteError> {
    let rest = api
        .strip_prefix("https://")
        .or_else(|| api.strip_prefix("http://"));
    let bad = !rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
        || api
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "\"'<>`?#&".contains(c));
    if bad {
        return Err(SiteError::BadApi(api.chars().take(80).collect()));
    }
    let api = if api.ends_with('/') {
        api.to_string()
    } else {
        format!("{api}/")
    };
    Ok(shared_files(&remote_index(&api)))
}

/// The page `index`, its assets and the rules page.
fn shared_files(index: &str) -> Vec<File> {
    vec![
        text("index.html", index),
        text("assets/app.js", assets::APP_JS),
        text("assets/app.css", assets::APP_CSS),
        text("assets/icon.svg", assets::ICON_SVG),
        // `rules` (the page's link) is this folder: static hosts answer it with its index.
        text(
            "rules/index.html",
            &pages::rules_page().replace(r#"href="/""#, r#"href="../""#),
        ),
        // GitHub Pages: serve the files as they are.
        text(".nojekyll", ""),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_page_uses_the_module_and_only_relative_addresses() {
        let page = static_index();
        assert!(page.contains(r#"content="wasm""#));
        assert!(!page.contains("api/rules"));
        assert!(
            !page.contains("href=\"/") && !page.contains("src=\"/"),
            "{page}"
        );
        let site = files(b"\0asm\x01\0\0\0", &[]).unwrap();
        let rules = site.iter().find(|f| f.path == "rules/index.html").unwrap();
        let rules = String::from_utf8_lossy(&rules.bytes);
        assert!(rules.contains(r#"href="../""#) && !rules.contains(r#"href="/""#));
        assert_eq!(files(b"<html>", &[]), Err(SiteError::NotWasm));
        let remote = files_for_api("https://ordo.example.org").unwrap();
        let index = String::from_utf8_lossy(&remote[0].bytes).into_owned();
        assert!(index.contains(r#"<meta name="ordo-api" content="https://ordo.example.org/">"#));
        assert!(!remote.iter().any(|f| f.path == WASM_PATH));
        assert!(files_for_api("ordo.example.org").is_err());
        assert!(files_for_api("https://x/\"><script>").is_err());
    }
}
