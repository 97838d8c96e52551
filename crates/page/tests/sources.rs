//! The sources table of the rules page (`/rules`): each source with its date, and an undated
//! source with the date its stored copy was retrieved.

use ordo_page::pages::rules_page;

/// The rows of the sources table of `page`.
fn source_rows(page: &str) -> Vec<&str> {
    let table = page
        .split("<table class=\"sources\">")
        .nth(1)
        .and_then(|t| t.split("</table>").next())
        .expect("a sources table");
    table.lines().filter(|l| l.starts_with("<tr>")).collect()
}

/// The rules page shows the version date of a dated source, and `undated (retrieved
/// YYYY-MM-DD)` for each of the four undated ones, never a bare `undated`.
#[test]
fn undated_sources_show_their_retrieval_date() {
    let page = rules_page();
    let rows = source_rows(&page);
    assert_eq!(rows.len(), 5, "{rows:#?}");
    let dated = rows
        .iter()
        .filter(|r| r.contains("January 15, 2009"))
        .count();
    assert_eq!(dated, 1, "{rows:#?}");
    let retrieved: Vec<&&str> = rows
        .iter()
        .filter(|r| r.contains("undated (retrieved 2026-11-22)"))
        .collect();
    assert_eq!(retrieved.len(), 4, "{rows:#?}");
    for r in &rows {
        let bare = r.matches("undated").count() > r.matches("undated (retrieved ").count();
        assert!(!bare, "an undated source without its retrieval date: {r}");
    }
}
