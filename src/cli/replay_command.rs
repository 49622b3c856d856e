//! `capa-tui replay FILE` (and `--replay FILE` on the tutor): a recorded session played on this
//! terminal with no cluster, or drawn into a cast with `--export cast`.

use std::path::{Path, PathBuf};

use super::Global;
use crate::i18n::Say;
use crate::t;
use crate::tui::replay::{Recording, Replay, Watching};
use crate::{errln, outln};

/// A lesson folder's recorded demo, made by `scripts/record-demos`.
pub const DEMO: &str = "demo.replay";

/// What `--export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// An asciicast v2 file (`asciinema play`, asciinema's web player).
    Cast,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The recording: the .replay file that --record wrote beside its cast (or that cast), or a
    /// lesson's folder for its recorded demo (lessons/06-failed-hook).
    pub file: PathBuf,
    /// Start paused (space plays, PgDn steps a moment).
    #[arg(long)]
    pub paused: bool,
    /// Draw the recording into a file instead of playing it.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub export: Option<ExportFormat>,
    /// With --export: the file to write [default: beside the recording, named by its language
    /// and size, e.g. lesson-6.zh.80x24.cast].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// With --export: the terminal's size, COLSxROWS [default: the recorded size].
    #[arg(long, value_name = "COLSxROWS", value_parser = size)]
    pub size: Option<(u16, u16)>,
}

/// `120x40` as (columns, rows).
fn size(text: &str) -> Result<(u16, u16), String> {
    let (cols, rows) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("{text:?} is not COLSxROWS (e.g. 120x40)"))?;
    let parse = |n: &str| n.trim().parse::<u16>().ok().filter(|n| *n >= 20);
    match (parse(cols), parse(rows)) {
        (Some(c), Some(r)) => Ok((c, r)),
        _ => Err(format!(
            "{text:?} is not COLSxROWS with each at least 20 (e.g. 120x40)"
        )),
    }
}

/// Plays (or exports) the recording at `file`; `--speed` is how many times as fast.
pub fn replay(g: &Global, file: &Path, args: Option<&ReplayArgs>) -> i32 {
    let lang = super::lab_commands::lang(g);
    let settings = match g.settings() {
        Ok(s) => s,
        Err(e) => {
            errln!("capa-tui: {}", e.say(lang));
            return 2;
        }
    };
    // A lesson's folder: its recorded demo.
    let demo = file.join(DEMO);
    let file = if file.is_dir() { demo.as_path() } else { file };
    let recording = match Recording::read(file) {
        Ok(r) => r,
        Err(e) => {
            errln!("capa-tui: {}", e.say(lang));
            return 1;
        }
    };
    let export = args.and_then(|a| a.export);
    let size = match (export, args.and_then(|a| a.size)) {
        (_, Some(size)) => size,
        (Some(_), None) => recording.header.size,
        (None, None) => ratatui::crossterm::terminal::size().unwrap_or(recording.header.size),
    };
    let watching = Watching {
        lang: settings.lang.value,
        present: settings.present.value,
        theme: crate::tui::theme::Theme::named(settings.theme.value),
        size,
    };
    let replayer = match Replay::new(recording, watching) {
        Ok(r) => r,
        Err(e) => {
            errln!(
                "capa-tui: {}",
                t!(
                    lang,
                    "replay-error-lessons",
                    path = file.display().to_string(),
                    why = e.to_string()
                )
            );
            return 1;
        }
    };
    if export.is_some() {
        let out = args
            .and_then(|a| a.out.clone())
            .unwrap_or_else(|| exported_beside(file, watching));
        let seconds = format!("{:.0}", replayer.duration());
        return match crate::tui::replay::export_cast(replayer, &out) {
            Ok(()) => {
                outln!(
                    "{}",
                    t!(
                        lang,
                        "replay-exported",
                        out = out.display().to_string(),
                        width = i64::from(size.0),
                        height = i64::from(size.1),
                        lang = watching.lang.code(),
                        seconds = seconds
                    )
                );
                0
            }
            Err(e) => {
                errln!(
                    "capa-tui: {}",
                    t!(
                        lang,
                        "replay-error-write",
                        out = out.display().to_string(),
                        why = e.to_string()
                    )
                );
                1
            }
        };
    }
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        errln!("capa-tui: {}", t!(lang, "cli-needs-terminal"));
        return 2;
    }
    let speed = g.speed.filter(|s| *s > 0.0).unwrap_or(1.0);
    // Presenting, the room's pace is the presenter's: it waits for the first PgDn or space.
    let paused = args.is_some_and(|a| a.paused) || settings.present.value;
    crate::tui::replay::play(replayer, crate::tui::replay::Controls::new(speed, paused))
}

/// `lesson-6.replay` → `lesson-6.zh.80x24.cast`: never the recording's own cast.
fn exported_beside(file: &Path, w: Watching) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "replay".into(), |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!(
        "{stem}.{}.{}x{}.cast",
        w.lang.code(),
        w.size.0,
        w.size.1
    ))
}
