//! Presenting a lesson in step mode, read off the screen at every step: the pane the narration
//! names has the room, the room's question and its answer are a band of their own that covers
//! nothing, the plan shows only the step just run, and the keys say what they do now.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail loudly"
)]
use capa_tui::tui::update::{InputMsg, JobMsg};

mod common;

use capa_tui::lab::engine::Progress;
use capa_tui::tui::layout;
use capa_tui::tui::state::{Pane, State};
use capa_tui::tui::update::{Msg, update};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use common::scenes::{draw, scene, text_of};

fn key(s: &mut State, code: KeyCode) {
    update(s, Msg::Input(InputMsg::Key(KeyEvent::from(code))));
}

/// The action the room is shown runs, as the runtime reports it.
fn run_shown_action(s: &mut State, i: usize) {
    let title = s.current().unwrap().spec.actions[i].step.title();
    update(
        s,
        Msg::Job(JobMsg::Progress(Progress::Started { step: i + 1, title })),
    );
    update(
        s,
        Msg::Job(JobMsg::Progress(Progress::Done {
            step: i + 1,
            summary: format!("outcome of action {}", i + 1).into(),
        })),
    );
    update(s, Msg::Job(JobMsg::Ended(Ok(()))));
}

/// Lessons 2, 5, 6 and 7 stepped through with the clicker's space bar, presenting, at three
/// sizes.
#[test]
fn each_presented_step_shows_what_it_narrates() {
    for (lesson, (w, h)) in [1, 4, 5, 6]
        .into_iter()
        .flat_map(|l| [(160, 45), (120, 40), (80, 24)].map(|size| (l, size)))
    {
        let mut s = scene(lesson, |_| {}).present(true).size(w, h).build();
        let lang = s.session().lang;
        key(&mut s, KeyCode::Char('g'));
        let actions = s.current().unwrap().spec.actions.clone();
        let spec = s.current().unwrap().spec.clone();
        let answered_by = |asked: usize| spec.answered_by(asked);
        for (i, action) in actions.iter().enumerate() {
            let area = Rect::new(0, 0, w, h);
            let screen = text_of(&draw(&s, w, h));
            let rows: Vec<&str> = screen.lines().collect();
            // The pane the narration names is drawn whole and large.
            if let Some(pane) = s.watched_pane() {
                let areas = layout::areas(&s, area);
                let drawn = areas.panes.iter().find(|(p, _)| *p == pane);
                let (_, rect) = drawn.unwrap_or_else(|| {
                    panic!(
                        "{w}x{h}, action {}: {pane:?} is not on screen:\n{screen}",
                        i + 1
                    )
                });
                // A small screen also holds the question's band and the narration.
                let least = if h >= 30 { h / 3 } else { 6 };
                assert!(
                    rect.height >= least,
                    "{w}x{h}, action {}: {pane:?} is only {} rows",
                    i + 1,
                    rect.height
                );
                assert!(
                    screen.contains(&pane.title(lang)),
                    "{w}x{h}: its title is on screen:\n{screen}"
                );
            }
            // The footer says the clicker runs the next action.
            assert!(
                rows.last().unwrap().contains("next action"),
                "{w}x{h} footer: {}",
                rows.last().unwrap()
            );
            if let Some(ask) = &action.ask {
                question_has_a_band_of_its_own(&rows, ask, lang, (w, h));
                key(&mut s, KeyCode::Char('2'));
            }
            key(&mut s, KeyCode::Char(' '));
            assert!(s.run().step_mode.as_ref().unwrap().running, "space runs it");
            run_shown_action(&mut s, i);
            let screen = text_of(&draw(&s, w, h));
            // A question is answered once the cluster shows it: after the action that settles it.
            let answered_here = actions
                .iter()
                .enumerate()
                .any(|(j, a)| a.ask.is_some() && answered_by(j) == i);
            assert_eq!(
                screen.contains("you said: "),
                answered_here,
                "{w}x{h}, action {}: the answer beside the live value only once it is there:\n{screen}",
                i + 1
            );
            // Only the step just run shows, with its outcome; no step still to come.
            assert!(
                screen.contains(&format!("outcome of action {}", i + 1)) || h < 30,
                "{w}x{h}, action {}: its outcome:\n{screen}",
                i + 1
            );
            let done: Vec<String> = actions[..=i]
                .iter()
                .map(|a| capa_tui::i18n::Say::say(&a.step.title(), lang))
                .collect();
            for later in &actions[i + 1..] {
                let title = capa_tui::i18n::Say::say(&later.step.title(), lang);
                if !done.contains(&title) {
                    assert!(
                        !screen.contains(&title),
                        "{w}x{h}, after action {}: a step to come ({title}) is listed:\n{screen}",
                        i + 1
                    );
                }
            }
            if w >= 110 && h >= 30 {
                let areas = layout::areas(&s, Rect::new(0, 0, w, h));
                assert!(
                    areas.big_key.is_some(),
                    "{w}x{h}: the key pressed is shown large"
                );
                // What the action just run changed stays in sight until the next press, even
                // when the next action watches another pane.
                if let Some(last) = actions[..=i].iter().rev().find_map(|a| a.watch) {
                    let last = Pane::named(last);
                    assert!(
                        areas.panes.iter().any(|(p, r)| *p == last && r.height >= 8),
                        "{w}x{h}, after action {}: {last:?} is not drawn whole:\n{screen}",
                        i + 1
                    );
                }
            }
        }
    }
}

/// The question is on a band across the screen, above the lesson, with every choice.
fn question_has_a_band_of_its_own(
    rows: &[&str],
    ask: &capa_tui::lab::spec::Question,
    lang: capa_tui::i18n::Lang,
    (w, h): (u16, u16),
) {
    let screen = rows.join("\n");
    let question = ask.question.get(lang);
    let at = rows
        .iter()
        .position(|r| r.contains(question))
        .unwrap_or_else(|| panic!("{w}x{h}: the question is on screen:\n{screen}"));
    // The band runs the width of the screen: its own border on both ends, so it
    // is drawn over no pane.
    assert!(
        rows[at].starts_with('║') && rows[at].ends_with('║'),
        "{w}x{h}: the question has a band of its own:\n{screen}"
    );
    let band_end = rows[at..].iter().position(|r| r.starts_with('╚')).unwrap() + at;
    let lesson_top = rows
        .iter()
        .position(|r| r.contains(&Pane::Lesson.title(lang)))
        .unwrap();
    assert!(
        lesson_top > band_end,
        "{w}x{h}: the lesson starts below the band:\n{screen}"
    );
    // Every choice with its number, on the band (a line each where there is room).
    let band: String = rows[..=band_end]
        .iter()
        .flat_map(|r| r.chars())
        .filter(|c| !c.is_whitespace() && *c != '║')
        .collect();
    for (n, choice) in ask.choices.iter().enumerate() {
        let shown = if h >= 30 {
            format!("{}{choice}", n + 1)
        } else {
            format!("{}){choice}", n + 1)
        };
        assert!(
            band.contains(&shown.replace(' ', "")),
            "{w}x{h}: choice {choice} on the band:\n{screen}"
        );
    }
}

/// A narration that tells the room to watch a pane names it in `watch:` too, so presenting
/// gives that pane the room: the words and the screen agree in every lesson.
#[test]
fn every_narrated_pane_is_the_one_the_action_watches() {
    use capa_tui::i18n::Lang;
    let catalog = common::scenes::catalog();
    let panes = [
        Pane::Apps,
        Pane::Timeline,
        Pane::Fields,
        Pane::Values,
        Pane::Evidence,
    ];
    let mut named = 0;
    for lesson in catalog.lessons() {
        for (i, action) in lesson.spec.actions.iter().enumerate() {
            let Some(say) = &action.say else { continue };
            let say = say.get(Lang::FALLBACK);
            let told: Vec<Pane> = panes
                .into_iter()
                .filter(|p| {
                    let title = p.title(Lang::FALLBACK);
                    say.contains(&format!("Watch {title}"))
                        || say.contains(&format!("Watch the {}", title.to_lowercase()))
                        || say.contains(&format!(
                            "Watch the {}",
                            p.short_title(Lang::FALLBACK).to_lowercase()
                        ))
                })
                .collect();
            if let [pane] = told[..] {
                named += 1;
                assert_eq!(
                    action.watch.map(Pane::named),
                    Some(pane),
                    "lesson {} action {}: \"{say}\" names {pane:?}",
                    lesson.spec.number,
                    i + 1
                );
            }
        }
    }
    assert!(named >= 6, "the lessons narrate panes ({named} found)");
}

/// From the start of step mode until the room has seen the answer of each question (its reveal
/// has run), nothing on screen but the question gives an answer away: the lesson's title, text
/// and checklist wait, and the values pane keeps its winner; once every answer is seen, they
/// are back.
#[test]
fn a_question_is_asked_before_anything_on_screen_gives_its_answer_away() {
    let mut asked = 0;
    for lesson in 0..8 {
        for (w, h) in [(160, 45), (80, 24)] {
            let mut s = scene(lesson, |_| {}).present(true).size(w, h).build();
            let lang = s.session().lang;
            let spec = s.current().unwrap().spec.clone();
            let title = s.current().unwrap().title(lang).to_string();
            let steps: Vec<String> = spec
                .checklist
                .iter()
                .map(|c| c.step.get(lang).to_string())
                .collect();
            let winner = |screen: &str| {
                screen.lines().any(|l| {
                    l.contains("▶ valuesObject")
                        || l.contains("▶ parameters")
                        || l.contains("▶ valueFiles")
                        // The values pane's live value (a reveal band's "you said … live:"
                        // is an answer the room has seen).
                        || (l.contains("live: ") && !l.contains("you said"))
                })
            };
            key(&mut s, KeyCode::Char('g'));
            for (i, action) in spec.actions.iter().enumerate() {
                // A question asked here or later, or answered with its reveal still to run.
                let unseen = spec
                    .actions
                    .iter()
                    .enumerate()
                    .any(|(j, a)| a.ask.is_some() && spec.answered_by(j) >= i);
                let screen = text_of(&draw(&s, w, h));
                let words: String = screen.split_whitespace().collect();
                let gone =
                    |text: &str| !words.contains(&text.split_whitespace().collect::<String>());
                if unseen {
                    assert!(
                        gone(&title),
                        "{w}x{h}, action {}: the title waits:\n{screen}",
                        i + 1
                    );
                    for step in &steps {
                        assert!(
                            gone(step),
                            "{w}x{h}, action {}: {step} waits:\n{screen}",
                            i + 1
                        );
                    }
                    assert!(
                        !winner(&screen),
                        "{w}x{h}, action {}: the winner waits:\n{screen}",
                        i + 1
                    );
                    // Only the lesson that traces values asks about them: another's question
                    // does not hide an earlier lesson's winner.
                    assert!(
                        spec.values.is_some() || !words.contains("untilthequestion"),
                        "{w}x{h}, lesson {}, action {}: the values wait for this question only where it is about them:\n{screen}",
                        spec.number,
                        i + 1
                    );
                } else {
                    assert!(
                        screen.contains(&format!("{} · ", spec.number))
                            && !screen.contains("once the room has seen the answer"),
                        "{w}x{h}, action {}: every answer seen, the lesson is back:\n{screen}",
                        i + 1
                    );
                }
                if action.ask.is_some() {
                    asked += 1;
                    key(&mut s, KeyCode::Char('1'));
                }
                key(&mut s, KeyCode::Char(' '));
                run_shown_action(&mut s, i);
            }
        }
    }
    assert!(asked >= 8, "the lessons ask questions: {asked}");
}
