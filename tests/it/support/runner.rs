//! The GitHub Actions runner's own rules for reading a workflow command in
//! a line of a step's output, written again here from its source
//! (`ActionCommand.TryParseV2` and `ActionCommand.TryParse` in
//! actions/runner, `src/Runner.Common/ActionCommand.cs`), independently of
//! urldb's gate: a test that reused the gate's code would agree with any
//! mistake in it.
//!
//! Stricter than the runner in one way: every command name counts, not
//! only the ones the runner has registered, so a test that passes here
//! passes for any runner version.

/// The lines a runner reads from `output`: .NET's `StreamReader.ReadLine`
/// ends a line at LF, CR, or CR LF.
pub(crate) fn lines(output: &str) -> impl Iterator<Item = &str> {
    output.split(['\n', '\r'])
}

/// The command a runner reads in `line`, if any: its name.
pub(crate) fn command_in(line: &str) -> Option<&str> {
    // TryParseV2: `String.TrimStart()` (every Unicode White_Space
    // character), then `::name…::` with the name up to a space.
    let trimmed = line.trim_start_matches(char::is_whitespace);
    if let Some(rest) = trimmed.strip_prefix("::")
        && let Some(end) = rest.find("::")
    {
        let info = &rest[..end];
        return Some(info.split(' ').next().unwrap_or(info));
    }
    // TryParse: `##[` anywhere, then the name up to a space, then `]`.
    // Azure Pipelines' agent reads `##vso[` the same way.
    for opening in ["##[", "##vso["] {
        if let Some(at) = line.find(opening) {
            let rest = &line[at + opening.len()..];
            if let Some(end) = rest.find(']') {
                let info = &rest[..end];
                return Some(info.split(' ').next().unwrap_or(info));
            }
        }
    }
    None
}

/// Every line of `output` a runner reads as a command.
pub(crate) fn commands(output: &str) -> Vec<&str> {
    lines(output).filter(|l| command_in(l).is_some()).collect()
}
