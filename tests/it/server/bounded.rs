//! Bounded work per request (`docs/editors.md`, "Code actions" and
//! "Cancellation"), through a real LSP client (pygls,
//! `tests/it/server/bounded.py`) and the real server: code actions on a
//! file of thousands of findings come as a capped list (without their
//! edits for a client that resolves them, each resolved on demand; with
//! them, fewer, for one that does not), and a request cancelled while the
//! server works on it is answered `RequestCancelled`, freeing the server
//! for the hover sent after it. Assertions are on structure; the client's
//! waits are hang guards, not timings.

/// Run `bounded.py MODE FINDINGS` in a fresh database.
fn client(mode: &str, findings: usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("urldb.toml"),
        "[lint]\ncategories = [\"docs\"]\n",
    )
    .expect("write");
    super::run_client("bounded.py", dir.path(), &[mode, &findings.to_string()]);
}

#[test]
fn code_actions_are_bounded() {
    client("actions", 3_000);
}

#[test]
fn a_cancelled_request_frees_the_server() {
    client("cancel", 10_000);
}

/// Every code action offered resolves, for a client with `resolveSupport`:
/// no "ignore" for a gate finding, one fix for two findings of a rule on
/// one line, no empty completion label (`tests/it/server/way_out.py`).
#[test]
fn every_action_offered_works_and_completion_offers_words() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("urldb.toml"), "root = \".\"\n").expect("write");
    super::run_client("way_out.py", dir.path(), &[]);
}
