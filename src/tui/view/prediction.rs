//! The band across the screen when presenting: the question step mode asks, large, or the
//! room's answers beside the live values, drawn over nothing (its lines: `tui::prediction`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Widget};

use crate::t;
use crate::tui::prediction::band_lines;
use crate::tui::state::State;

/// The band across the screen, presenting: the question large, or the answer beside the live
/// value.
pub struct Band<'a>(pub &'a State);

impl Widget for &Band<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.0;
        let block = Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Double)
            .border_style(s.ui().theme.accent())
            .title(Span::styled(
                t!(s.lang(), "predict-title"),
                s.ui().theme.title(),
            ));
        let inner = block.inner(area);
        block.render(area, buf);
        // Wrapped to the band, so nothing is cut.
        Paragraph::new(crate::tui::wrap::wrap(band_lines(s), inner.width)).render(inner, buf);
    }
}
