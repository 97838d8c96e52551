//! A server reached under another address (`ordo serve --public-url`): every address an answer
//! gives names it, the verdict's shareable link and each clause's anchor in the rules page
//! alike. Its own test binary, as the public address is set once per process.

use ordo_page::api::{self, encode_component as q};

const BASE: &str = "https://ordo.example.org/judge/";

/// ORDO-7.2 (a violated clause), ORDO-6.1 (a permitting one), the clause routes: every `url`
/// and the `link` are under the public address; a second address is refused.
#[test]
fn answers_give_clause_urls_and_links_under_the_public_address() {
    api::set_public_url("https://ordo.example.org/judge").unwrap();
    let pos = "4/1B2/WW2/2W1 w classic";
    let illegal = api::explain(pos, "a2:b2-a3").unwrap();
    assert_eq!(illegal.violated[0].url, format!("{BASE}rules#ORDO-7.2"));
    assert_eq!(
        illegal.link,
        format!("{BASE}?position={}&move=a2%3Ab2-a3", q(pos))
    );
    let legal = api::explain(pos, "a2-a3").unwrap();
    assert!(!legal.permitted_by.is_empty());
    for c in &legal.permitted_by {
        assert_eq!(c.url, format!("{BASE}rules#{}", c.id));
    }
    assert_eq!(
        api::rule("ORDO-6.3").unwrap().url,
        format!("{BASE}rules#ORDO-6.3")
    );
    let all = ordo_page::answer("/api/rules");
    let v: serde_json::Value = serde_json::from_str(&all.body).unwrap();
    for c in v.as_array().unwrap() {
        let url = c["url"].as_str().unwrap();
        assert!(url.starts_with(BASE), "{url}");
    }
    let again = api::set_public_url("https://other.example.org/").unwrap_err();
    assert_eq!(again.place, "public-url");
}
