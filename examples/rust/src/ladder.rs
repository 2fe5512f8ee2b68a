//! Ladder mode: keep one `kassen.v1.Ladder/Seek` stream open with the bot's token and play every
//! match the ladder assigns, each in its own task with a fresh bot, up to the declared
//! concurrency; reconnect with backoff when the ladder is unreachable, stop when it refuses the
//! bot (unknown token, paused, revoked).

use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::task::JoinSet;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Endpoint;
use tonic::{Code, Request};

use crate::pb::ladder_client::LadderClient;
use crate::pb::{seek_response, Assignment, SeekRequest};
use crate::{play_match, Outcome, Rng, BOT_NAME};

/// The pause before the n-th reconnect doubles from this up to `BACKOFF_CAP` (jittered).
const BACKOFF: Duration = Duration::from_millis(250);
const BACKOFF_CAP: Duration = Duration::from_secs(10);

/// Seek errors that no retry can fix: no or an unknown token, a paused or revoked bot, a bad
/// request, or a newer Seek stream of the same bot (FAILED_PRECONDITION).
const REFUSALS: [Code; 4] = [
    Code::Unauthenticated,
    Code::PermissionDenied,
    Code::InvalidArgument,
    Code::FailedPrecondition,
];

pub struct Options {
    address: String,
    token_file: String,
    /// Stop seeking after this many assignments (0: never).
    matches: u32,
    concurrency: u32,
}

impl Options {
    /// The ladder-mode flags (`--ladder`, `--token-file`, `--matches`, `--concurrency`; the first
    /// two default to KASSEN_LADDER_ADDRESS and KASSEN_TOKEN_FILE). `Ok(None)`: one-match mode.
    pub fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
        let env = |name| std::env::var(name).unwrap_or_default();
        let mut options = Options {
            address: env("KASSEN_LADDER_ADDRESS"),
            token_file: env("KASSEN_TOKEN_FILE"),
            matches: 0,
            concurrency: 1,
        };
        let mut args = args;
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) => (flag.to_owned(), Some(value.to_owned())),
                None => (arg, None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let number = |text: String| {
                text.parse::<u32>()
                    .map_err(|_| format!("{flag} needs a non-negative integer, got {text:?}"))
            };
            match flag.as_str() {
                "--ladder" => options.address = value()?,
                "--token-file" => options.token_file = value()?,
                "--matches" => options.matches = number(value()?)?,
                "--concurrency" => options.concurrency = number(value()?)?,
                _ => return Err(format!("unknown argument {flag:?}")),
            }
        }
        match (options.address.is_empty(), options.token_file.is_empty()) {
            (true, true) => Ok(None),
            (false, false) if (1..=16).contains(&options.concurrency) => Ok(Some(options)),
            (false, false) => Err("--concurrency must be between 1 and 16".into()),
            _ => Err("ladder mode needs both --ladder ADDRESS and --token-file FILE".into()),
        }
    }
}

/// How one Seek stream ended.
enum SeekEnd {
    /// `--matches` assignments were received; the stream is closed.
    Enough,
    /// The ladder refused the bot: stop.
    Refused(String),
    /// The stream could not be opened, broke or ended: reconnect (`heard`: it worked a while).
    Lost { why: String, heard: bool },
}

/// What the Seek loop shares with the matches it starts.
struct Run {
    options: Options,
    seed: u64,
    started: u32,
    /// Matches not played to their end.
    failed: Arc<AtomicU32>,
    playing: JoinSet<()>,
}

/// Seeks until the ladder refuses the bot or `--matches` were assigned, then waits for the
/// matches in progress. Success: every match was played to its end.
pub async fn run(options: Options, seed: u64) -> ExitCode {
    let token = match std::fs::read_to_string(&options.token_file) {
        Ok(text) => text.trim().to_owned(),
        Err(error) => {
            eprintln!(
                "{BOT_NAME}: cannot read the token file {}: {error}",
                options.token_file
            );
            return ExitCode::from(2);
        }
    };
    if token.is_empty() {
        eprintln!("{BOT_NAME}: the token file {} is empty", options.token_file);
        return ExitCode::from(2);
    }
    let Ok(bearer) = format!("Bearer {token}").parse::<MetadataValue<Ascii>>() else {
        eprintln!("{BOT_NAME}: the token file holds characters a token cannot have");
        return ExitCode::from(2);
    };
    let endpoint = match Endpoint::from_shared(format!("http://{}", options.address)) {
        Ok(endpoint) => endpoint,
        Err(error) => {
            eprintln!(
                "{BOT_NAME}: bad ladder address {:?}: {error}",
                options.address
            );
            return ExitCode::from(2);
        }
    };

    let mut run = Run {
        options,
        seed,
        started: 0,
        failed: Arc::new(AtomicU32::new(0)),
        playing: JoinSet::new(),
    };
    let mut jitter = Rng(SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |t| t.as_nanos() as u64));
    let mut code = ExitCode::SUCCESS;
    let mut attempt = 1;
    loop {
        match run.seek(&endpoint, &bearer).await {
            SeekEnd::Enough => break,
            SeekEnd::Refused(why) => {
                eprintln!("{BOT_NAME}: the ladder refused the bot: {why}");
                code = ExitCode::from(1);
                break;
            }
            SeekEnd::Lost { why, heard } => {
                if heard {
                    attempt = 1; // the stream worked for a while: start the backoff over
                }
                let pause = backoff(attempt, &mut jitter);
                eprintln!("{BOT_NAME}: seek stream lost ({why}); reconnecting in {pause:?}");
                tokio::time::sleep(pause).await;
                attempt += 1;
            }
        }
    }
    while let Some(joined) = run.playing.join_next().await {
        if let Err(error) = joined {
            eprintln!("{BOT_NAME}: a match task failed: {error}");
            run.failed.fetch_add(1, Ordering::Relaxed);
        }
    }
    let failed = run.failed.load(Ordering::Relaxed);
    if failed > 0 {
        eprintln!(
            "{BOT_NAME}: {failed} of {} matches were not played to their end",
            run.started
        );
        code = ExitCode::from(1);
    }
    code
}

impl Run {
    /// Reads one Seek stream, starting a match for each assignment.
    async fn seek(&mut self, endpoint: &Endpoint, bearer: &MetadataValue<Ascii>) -> SeekEnd {
        let channel = match endpoint.connect().await {
            Ok(channel) => channel,
            Err(error) => {
                return SeekEnd::Lost {
                    why: format!("cannot connect: {error}"),
                    heard: false,
                }
            }
        };
        let mut request = Request::new(SeekRequest {
            concurrency: self.options.concurrency,
        });
        request
            .metadata_mut()
            .insert("authorization", bearer.clone());
        let status = match LadderClient::new(channel).seek(request).await {
            Ok(response) => {
                let mut stream = response.into_inner();
                let mut heard = false;
                loop {
                    match stream.message().await {
                        Ok(Some(message)) => {
                            heard = true;
                            if self.handle(message.kind) {
                                // Returning drops the stream, which cancels the call at once:
                                // the ladder assigns nothing we would leave unplayed.
                                return SeekEnd::Enough;
                            }
                        }
                        Ok(None) => {
                            let why = "the ladder ended the stream".to_owned();
                            return SeekEnd::Lost { why, heard };
                        }
                        Err(status) if REFUSALS.contains(&status.code()) => break status,
                        Err(status) => {
                            let why = format!("{:?}: {}", status.code(), status.message());
                            return SeekEnd::Lost { why, heard };
                        }
                    }
                }
            }
            Err(status) if REFUSALS.contains(&status.code()) => status,
            Err(status) => {
                let why = format!("{:?}: {}", status.code(), status.message());
                return SeekEnd::Lost { why, heard: false };
            }
        };
        SeekEnd::Refused(format!("{} ({:?})", status.message(), status.code()))
    }

    /// Acts on one Seek message; true once `--matches` assignments were received.
    fn handle(&mut self, kind: Option<seek_response::Kind>) -> bool {
        use seek_response::Kind;
        match kind {
            Some(Kind::Seeking(seeking)) => eprintln!(
                "{BOT_NAME}: seeking as bot {} ({} at once)",
                seeking.bot_id, seeking.concurrency
            ),
            Some(Kind::Assignment(assignment)) => {
                self.start(assignment);
                return self.options.matches > 0 && self.started >= self.options.matches;
            }
            // reason is the match's; seat_reason (and detail) what happened to our seat.
            Some(Kind::MatchEnded(ended)) => eprintln!(
                "{BOT_NAME}: match {} ended ({}), rank {}; our seat {}: {} {}",
                ended.match_id,
                ended.reason().as_str_name(),
                ended.rank,
                ended.seat,
                ended.seat_reason().as_str_name(),
                ended.detail
            ),
            None => eprintln!("{BOT_NAME}: ignoring an empty message from the ladder"),
        }
        false
    }

    /// Plays an assigned match in its own task, with a fresh bot.
    fn start(&mut self, assignment: Assignment) {
        self.started += 1;
        let setup = assignment.setup.unwrap_or_default();
        eprintln!(
            "{BOT_NAME}: assigned match {}, seat {} ({} {})",
            assignment.match_id, assignment.seat, setup.game, setup.variant
        );
        // Reap the tasks already done, so a bot that plays for days keeps no list of them.
        while self.playing.try_join_next().is_some() {}
        // The referee that hosts the match: the ladder's own address (plaintext, as the ladder
        // is) unless the assignment names another.
        let (address, tls) = if assignment.referee_address.is_empty() {
            (self.options.address.clone(), false)
        } else {
            eprintln!(
                "{BOT_NAME}: match {} is hosted by the referee at {}",
                assignment.match_id, assignment.referee_address
            );
            (assignment.referee_address, assignment.referee_tls)
        };
        let (ticket, id) = (assignment.ticket, assignment.match_id);
        let seed = self.seed.wrapping_add(u64::from(self.started));
        let failed = Arc::clone(&self.failed);
        self.playing.spawn(async move {
            let why = match play_match(&address, tls, &ticket, seed).await {
                Outcome::Over => return,
                Outcome::Displaced => "displaced: another connection took this seat over".into(),
                Outcome::Failed(error) => format!("stream lost twice ({error})"),
            };
            eprintln!("{BOT_NAME}: match {id}: {why}");
            failed.fetch_add(1, Ordering::Relaxed);
        });
    }
}

/// The pause before the attempt-th reconnect (1, 2, ...): between half and all of the ceiling.
fn backoff(attempt: u32, jitter: &mut Rng) -> Duration {
    let ceiling = BACKOFF
        .saturating_mul(1 << attempt.saturating_sub(1).min(10))
        .min(BACKOFF_CAP);
    let millis = ceiling.as_millis() as u64;
    Duration::from_millis(millis / 2 + jitter.below(millis / 2 + 1))
}
