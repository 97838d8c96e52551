//! Damaged and forged certificates are refused with the line or node where they fail; a true
//! one passes. The positions are on the classic 3 x 3 board: White a2, Black b3, White to
//! move; a2-a3 reaches Black's home row (ORDO-10.1).

use ordo_certificate::{check, read_from, CheckError, Established};
use ordo_core::rules::Color;

/// Close `body` with its BLAKE3 line.
fn sealed(body: &str) -> String {
    format!("{body}blake3 {}\n", blake3::hash(body.as_bytes()).to_hex())
}

fn judge(body: &str) -> Result<Established, CheckError> {
    let cert = read_from(sealed(body).as_bytes())?;
    check(&cert, None).map(|c| c.established)
}

const HEAD: &str = "ordo-certificate 1\nposition 1B1/W2/3 w classic\n";

#[test]
fn a_true_win_passes_ordo_10_1() {
    let body =
        format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a3 1\n1 WB1/3/3 b end\nnodes 2\n");
    assert_eq!(judge(&body).unwrap(), Established::Wins(Color::White));
}

#[test]
fn an_edited_byte_fails_the_checksum() {
    let body =
        format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a3 1\n1 WB1/3/3 b end\nnodes 2\n");
    let text = sealed(&body).replace("a2-a3", "a2-b3");
    let err = read_from(text.as_bytes()).unwrap_err();
    assert!(err.reason.contains("BLAKE3"), "{err}");
}

#[test]
fn an_illegal_move_is_refused_at_its_node() {
    // a2-c3 is no step of ORDO-6.1 (two columns away).
    let body =
        format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-c3 1\n1 1BW/3/3 b end\nnodes 2\n");
    let err = judge(&body).unwrap_err();
    assert_eq!(err.node, Some(0), "{err}");
    assert!(err.reason.contains("not a legal move"), "{err}");
}

#[test]
fn a_leaf_that_is_not_over_is_refused() {
    let body = format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a2 1\nnodes 1\n");
    assert!(judge(&body).is_err());
    let body = format!("{HEAD}claim white wins\n0 1B1/W2/3 w end\nnodes 1\n");
    let err = judge(&body).unwrap_err();
    assert!(err.reason.contains("not over"), "{err}");
}

#[test]
fn a_move_to_the_wrong_position_is_refused() {
    let body =
        format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a3 1\n1 1B1/3/W2 b end\nnodes 2\n");
    let err = judge(&body).unwrap_err();
    assert_eq!(err.node, Some(0));
    assert!(err.reason.contains("does not lead"), "{err}");
}

#[test]
fn the_losers_node_must_list_every_reply() {
    // Black to move must list all its moves in White's win; one move alone is refused.
    let body = "ordo-certificate 1\nposition 3/1B1/W2 b classic\nclaim white wins\n\
                0 3/1B1/W2 b one b2-b1 1\n1 3/3/WB1 w end\nnodes 2\n";
    let err = judge(body).unwrap_err();
    assert_eq!(err.node, Some(0));
    assert!(err.reason.contains("must list every move"), "{err}");
}

#[test]
fn an_edge_back_to_its_own_node_is_refused() {
    // Node 0 claims its move leads back to itself.
    let body = "ordo-certificate 1\nposition 3/1B1/W2 b classic\nclaim black wins\n\
                0 3/1B1/W2 b one b2-b1 0\nnodes 1\n";
    let err = judge(body).unwrap_err();
    assert!(err.reason.contains("does not lead"), "{err}");
}

#[test]
fn a_missing_node_count_or_trailing_text_is_refused() {
    let body =
        format!("{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a3 1\n1 WB1/3/3 b end\nnodes 3\n");
    assert!(judge(&body).unwrap_err().reason.contains("nodes 3"));
    let text = sealed(&format!(
        "{HEAD}claim white wins\n0 1B1/W2/3 w one a2-a3 1\n1 WB1/3/3 b end\nnodes 2\n"
    )) + "x\n";
    assert!(read_from(text.as_bytes())
        .unwrap_err()
        .reason
        .contains("after the closing"));
}

/// The example of spec/certificate.md holds: White's win on the classic 3 x 3 board.
#[test]
fn the_example_of_the_spec_holds() {
    let spec = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spec/certificate.md"
    ))
    .unwrap();
    let start = spec.find("```text\n").unwrap() + "```text\n".len();
    let block = &spec[start..start + spec[start..].find("```").unwrap()];
    let cert = read_from(block.as_bytes()).unwrap();
    let checked = check(&cert, None).unwrap();
    assert_eq!(checked.established, Established::Wins(Color::White));
    assert_eq!(checked.parts[0].1, 12);
}
