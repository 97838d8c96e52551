//! Protocol-server target (`ordo engine`, spec/protocol.md): request lines of any bytes never
//! make the server panic, every non-blank line gets exactly one reply of one line, and a reply
//! is `ok`, `bye`, `error <code> …` or the answer its request names. The session shakes hands
//! first when the input asks for it (first byte even), so the requests after it are reached.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ordo_conformance::server::{EngineChoice, Server};

/// Leaves one `perft` request may count: enough for small boards, cheap on any input.
const PERFT_BUDGET: u64 = 20_000;

fn check_reply(request: &str, reply: &str) {
    assert!(!reply.contains('\n'), "a reply of two lines to {request:?}: {reply:?}");
    let word = request.split_whitespace().next().unwrap_or("");
    let answers = match word {
        "ordo" => reply.starts_with("ordo 1 ok"),
        "moves" => reply == "moves" || reply.starts_with("moves "),
        "status" => reply.starts_with("status "),
        "show" => reply.starts_with("position "),
        "perft" => reply.starts_with("perft "),
        "capabilities" => reply.starts_with("capabilities"),
        "quit" => reply == "bye",
        _ => reply == "ok",
    };
    assert!(
        answers || reply.starts_with("error "),
        "{request:?} answered {reply:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut server = Server::new(EngineChoice::Bitboard).with_perft_budget(PERFT_BUDGET);
    if data.first().is_some_and(|b| b % 2 == 0) {
        assert!(server.handle("ordo 1").is_some_and(|r| r.starts_with("ordo 1 ok")));
    }
    let text = String::from_utf8_lossy(data.get(1..).unwrap_or_default());
    for line in text.split('\n') {
        if server.done() {
            break;
        }
        match server.handle(line) {
            Some(reply) => check_reply(line, &reply),
            None => assert!(line.trim().is_empty(), "no reply to {line:?}"),
        }
    }
});
