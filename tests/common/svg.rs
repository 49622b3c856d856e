//! Draws a ratatui test buffer as an SVG picture: the tutor's own drawing, cell for cell, so the
//! README's screenshots come from the code and a test can tell when they are stale.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const CELL_WIDTH_PX: u32 = 9;
const CELL_HEIGHT_PX: u32 = 18;
const BACKGROUND: &str = "#1e1e1e";
const FOREGROUND: &str = "#d4d4d4";

fn hex(c: Color, default: &str) -> String {
    match c {
        Color::Reset => default.to_string(),
        Color::Black => "#000000".into(),
        Color::Red => "#cd3131".into(),
        Color::Green => "#0dbc79".into(),
        Color::Yellow => "#e5e510".into(),
        Color::Blue => "#2472c8".into(),
        Color::Magenta => "#bc3fbc".into(),
        Color::Cyan => "#11a8cd".into(),
        Color::Gray => "#e5e5e5".into(),
        Color::DarkGray => "#767676".into(),
        Color::LightRed => "#f14c4c".into(),
        Color::LightGreen => "#23d18b".into(),
        Color::LightYellow => "#f5f543".into(),
        Color::LightBlue => "#3b8eea".into(),
        Color::LightMagenta => "#d670d6".into(),
        Color::LightCyan => "#29b8db".into(),
        Color::White => "#ffffff".into(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => {
            let (r, g, b) = xterm_256(i);
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    }
}

/// The colour xterm draws for a 256-palette index above the 16 named ones.
fn xterm_256(i: u8) -> (u8, u8, u8) {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    match i {
        16..=231 => {
            let n = usize::from(i - 16);
            (LEVELS[n / 36], LEVELS[n / 6 % 6], LEVELS[n % 6])
        }
        232..=255 => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
        _ => (i * 16, i * 16, i * 16),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One run of cells in the same style on one row.
struct Run {
    x: u16,
    cells: u16,
    text: String,
    fill: String,
    background: Option<String>,
    bold: bool,
}

fn runs_of_row(buf: &Buffer, y: u16) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for x in 0..buf.area.width {
        let cell = &buf[(x, y)];
        let fill = hex(cell.fg, FOREGROUND);
        let background = (cell.bg != Color::Reset).then(|| hex(cell.bg, BACKGROUND));
        let bold = cell.modifier.contains(Modifier::BOLD);
        match runs.last_mut() {
            Some(r) if r.fill == fill && r.background == background && r.bold == bold => {
                r.text.push_str(cell.symbol());
                r.cells += 1;
            }
            _ => runs.push(Run {
                x,
                cells: 1,
                text: cell.symbol().to_string(),
                fill,
                background,
                bold,
            }),
        }
    }
    runs
}

/// The buffer as a standalone SVG document.
pub fn render(buf: &Buffer, title: &str) -> String {
    let (w, h) = (
        u32::from(buf.area.width) * CELL_WIDTH_PX,
        u32::from(buf.area.height) * CELL_HEIGHT_PX,
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"15\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"{BACKGROUND}\"/>\n",
        escape(title)
    );
    for y in 0..buf.area.height {
        let baseline = u32::from(y) * CELL_HEIGHT_PX + CELL_HEIGHT_PX - 5;
        for run in runs_of_row(buf, y) {
            let x = u32::from(run.x) * CELL_WIDTH_PX;
            let width = u32::from(run.cells) * CELL_WIDTH_PX;
            if let Some(bg) = &run.background {
                out.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{}\" width=\"{width}\" height=\"{CELL_HEIGHT_PX}\" fill=\"{bg}\"/>\n",
                    u32::from(y) * CELL_HEIGHT_PX
                ));
            }
            if run.text.trim().is_empty() {
                continue;
            }
            out.push_str(&format!(
                "<text x=\"{x}\" y=\"{baseline}\" fill=\"{}\"{} textLength=\"{width}\" lengthAdjust=\"spacingAndGlyphs\" xml:space=\"preserve\">{}</text>\n",
                run.fill,
                if run.bold { " font-weight=\"bold\"" } else { "" },
                escape(&run.text)
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
