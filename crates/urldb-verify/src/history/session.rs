//! One run's use of its history file, start to end, arranged so that the
//! run waits for it as little as it can (`docs/verify.md`, "History";
//! what is left to wait for: `docs/dev/performance.md`, "`urldb verify
//! --history`"):
//!
//! - [`Session::start`], before the URLs are fetched: the file is read,
//!   and rewritten when it has no room left ([`super::prepare`]), on a
//!   thread of its own at the lowest CPU priority;
//! - [`Session::wait`], when they are: its warnings are known;
//! - [`Opened::finish`]: this run's lines are made on two threads, one of
//!   which also judges the results against the history, and appended by
//!   a third as they are made, while the caller writes its report.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use super::{History, append, judge, lines, prepare};
use crate::results::{Results, RunInfo, UrlResult};

/// A history being read while the run goes on.
#[derive(Debug)]
pub struct Session {
    file: File,
    /// `None` once waited for.
    reader: Option<JoinHandle<Result<History, String>>>,
}

/// Which file, for which run, keeping how many runs.
#[derive(Debug, Clone)]
struct File {
    path: PathBuf,
    run_id: String,
    keep: usize,
}

impl Session {
    /// Start reading the history at `path` (and making room in it) for
    /// run `run_id`, which keeps `keep` runs.
    pub fn start(path: &Path, run_id: &str, keep: usize) -> Session {
        let file = File {
            path: path.to_path_buf(),
            run_id: run_id.to_string(),
            keep,
        };
        let job = file.clone();
        let reader = std::thread::Builder::new()
            .name("history".to_string())
            .spawn(move || {
                lowest_priority();
                prepare(&job.path, &job.run_id, job.keep)
            });
        match reader {
            Ok(reader) => Session {
                file,
                reader: Some(reader),
            },
            // No thread to be had: read it when it is waited for.
            Err(_) => Session { file, reader: None },
        }
    }

    /// The history as read: an error when the file cannot be read (exit
    /// 2). Its [`Opened::warnings`] are known from now on.
    pub fn wait(mut self) -> Result<Opened, String> {
        let history = match self.reader.take() {
            Some(reader) => reader
                .join()
                .unwrap_or_else(|_| Err("the history reader failed".to_string()))?,
            None => prepare(&self.file.path, &self.file.run_id, self.file.keep)?,
        };
        Ok(Opened {
            file: self.file.clone(),
            history,
        })
    }
}

impl Drop for Session {
    /// A session given up on (its run failed) still lets a rewrite under
    /// way finish, so that no lock or temporary file is left behind.
    fn drop(&mut self) {
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// A history read, ready to judge a run's results and to take its lines.
#[derive(Debug)]
pub struct Opened {
    file: File,
    history: History,
}

impl Opened {
    /// `FILE:LINE: why`, for each malformed line skipped.
    pub fn warnings(&self) -> &[String] {
        &self.history.warnings
    }

    /// Give each of `results` its trend against the history, then call
    /// `report` with them while this run's lines are added to the file.
    /// Returns what `report` returned, and whether the lines were written
    /// (an error to report after it: exit 2).
    pub fn finish<R>(
        self,
        results: &mut Results,
        report: impl FnOnce(&Results) -> R,
    ) -> (R, Result<(), String>) {
        let Opened { file, history } = self;
        let Some(run) = results.runs.first().cloned() else {
            // Results that are not a run's: judged, nothing to write.
            judge(results, &history, file.keep).apply(results);
            return (report(results), Ok(()));
        };
        // The network is done and the lines need nothing of the
        // judgement: both cores make the lines, the judging thread fewer
        // of them (judging takes about a third as long as the lines), in
        // pieces that a third thread appends as they come, so the writing
        // is mostly done by the time the report is.
        std::thread::scope(|outer| {
            let (first_pieces, first_made) = mpsc::channel();
            let (rest_pieces, rest_made) = mpsc::channel();
            let (history, file) = (&history, &file);
            let appender = outer.spawn(move || {
                let pieces = Pieces::from(first_made).chain(Pieces::from(rest_made));
                append(&file.path, &file.run_id, pieces, file.keep, Some(history))
            });
            let judgement = std::thread::scope(|scope| {
                let shared: &Results = results;
                let (first, rest) = shared.results.split_at(shared.results.len() * 2 / 3);
                let run = &run;
                let liner = scope.spawn(move || send_lines(run, first, &first_pieces));
                let judgement = judge(shared, history, file.keep);
                send_lines(run, rest, &rest_pieces);
                // A liner that failed sent no end: the appender, finding
                // its channel closed, leaves the file as it was.
                let _ = liner.join();
                judgement
            });
            judgement.apply(results);
            let output = report(results);
            let appended = appender
                .join()
                .unwrap_or_else(|_| Err(WRITER_FAILED.to_string()));
            (output, appended)
        })
    }
}

const WRITER_FAILED: &str = "the history writer failed";

/// The results in a history line's piece: about 470 KB of lines.
const PIECE: usize = 2048;

/// What a line maker sends the appender.
enum Piece {
    Lines(Vec<u8>),
    /// Every line was sent.
    End,
}

/// Send the lines of `results` in pieces, then the end; stop when the
/// appender is gone (it failed, and says so).
fn send_lines(run: &RunInfo, results: &[UrlResult], to: &Sender<Piece>) {
    for piece in results.chunks(PIECE) {
        if to.send(Piece::Lines(lines(run, piece))).is_err() {
            return;
        }
    }
    let _ = to.send(Piece::End);
}

/// The pieces sent by one line maker, as [`append`] takes them: an error
/// if the channel closes before the end.
struct Pieces {
    made: Receiver<Piece>,
    ended: bool,
}

impl From<Receiver<Piece>> for Pieces {
    fn from(made: Receiver<Piece>) -> Pieces {
        Pieces { made, ended: false }
    }
}

impl Iterator for Pieces {
    type Item = Result<Vec<u8>, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        match self.made.recv() {
            Ok(Piece::Lines(lines)) => Some(Ok(lines)),
            Ok(Piece::End) => {
                self.ended = true;
                None
            }
            Err(_) => {
                self.ended = true;
                Some(Err(WRITER_FAILED.to_string()))
            }
        }
    }
}

/// Give the calling thread the lowest CPU priority (nice 19): the history
/// is read on a thread of its own while URLs are fetched, and on a machine
/// whose cores are all busy (a CI runner, a local server) it should take
/// the time they leave over, not time from the fetching; when the fetching
/// is done and waits for it, it has the cores to itself. On Linux a nice
/// value is a thread's own (setpriority(2), "BUGS"); elsewhere it would be
/// the whole process's, so nothing is done there.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority takes plain integers and touches no memory
        // of ours; `who` 0 is the calling thread. A failure leaves the
        // priority as it was, which is fine.
        #[allow(unsafe_code)]
        let _ = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_at_the_end_and_fail_when_the_maker_is_gone_before_it() {
        let (to, made) = mpsc::channel();
        to.send(Piece::Lines(b"a\n".to_vec())).expect("send");
        to.send(Piece::End).expect("send");
        let pieces: Vec<_> = Pieces::from(made).collect();
        assert_eq!(pieces, [Ok(b"a\n".to_vec())]);
        // Gone without its end (it panicked): an error, once.
        let (to, made) = mpsc::channel();
        to.send(Piece::Lines(b"a\n".to_vec())).expect("send");
        drop(to);
        let pieces: Vec<_> = Pieces::from(made).collect();
        assert_eq!(
            pieces,
            [Ok(b"a\n".to_vec()), Err(WRITER_FAILED.to_string())]
        );
    }
}
