//! The timeline's rows, bars and words on hand-built lanes and operations.
use super::*;

fn item(phase: &str, created: i64, healthy: Option<i64>, failed: Option<i64>) -> LaneItem {
    LaneItem {
        kind: "Job".into(),
        name: "migrate".into(),
        phase: phase.into(),
        hook: Some("PreSync".into()),
        message: String::new(),
        created_at: Some(created),
        healthy_at: healthy,
        failed_at: failed,
        changed_at: None,
    }
}

const ENDED_AT_10: Reach = Reach {
    seconds: 10,
    ended: true,
};
const EN: Lang = Lang::FALLBACK;

#[test]
fn a_failed_hook_reads_failed_never_a_tick() {
    let (phase, times) = outcome(&item("Failed", 0, Some(2), None), ENDED_AT_10, EN);
    assert_eq!(status_glyph(&phase), "✗");
    assert_eq!(times, " failed +2s");
    let (phase, times) = outcome(&item("Succeeded", 0, Some(2), None), ENDED_AT_10, EN);
    assert_eq!(
        (status_glyph(&phase), times.as_str()),
        ("✓", " +0s → done +2s")
    );
}

/// A prune says what it did: deleted, or kept by its sync options; never "gone or not yet seen".
#[test]
fn a_prune_says_it_deleted_or_kept_the_object() {
    let mut old = item("Pruned", 0, None, None);
    (old.kind, old.hook, old.created_at) = ("ConfigMap".into(), None, None);
    let (phase, times) = outcome(&old, ENDED_AT_10, EN);
    assert_eq!(
        (status_glyph(&phase), times.as_str()),
        ("✓", " pruned: this sync deleted it")
    );
    let mut keep = old.clone();
    keep.phase = "PruneSkipped".into();
    keep.created_at = Some(-60);
    let (phase, times) = outcome(&keep, ENDED_AT_10, EN);
    assert_eq!(status_glyph(&phase), "‖");
    assert!(
        times.starts_with(" not pruned: its sync options keep it"),
        "{times}"
    );
}

/// A Job ran to its end ("done"); only what serves is "ready".
#[test]
fn a_job_completes_and_a_deployment_is_ready() {
    let mut api = item("Synced", 1, Some(4), None);
    api.kind = "Deployment".into();
    api.hook = None;
    assert_eq!(outcome(&api, ENDED_AT_10, EN).1, " +1s → ready +4s");
    let job = item("Succeeded", 1, Some(4), None);
    assert_eq!(outcome(&job, ENDED_AT_10, EN).1, " +1s → done +4s");
    for &lang in &Lang::all()[1..] {
        assert_ne!(
            outcome(&job, ENDED_AT_10, lang).1,
            outcome(&api, ENDED_AT_10, lang).1
        );
    }
}

/// An object older than the operation says whether this sync changed it: lesson 6's fix
/// sync configures `settings` (the point of the lesson), and a walk read "(existed before)"
/// with no word of it.
#[test]
fn an_older_object_says_whether_this_sync_changed_it() {
    let mut settings = item("Synced", -300, None, None);
    settings.message = "configmap/settings configured".into();
    assert_eq!(
        outcome(&settings, ENDED_AT_10, EN).1,
        " changed (existed before)"
    );
    settings.message = "configmap/settings unchanged".into();
    assert_eq!(outcome(&settings, ENDED_AT_10, EN).1, " (existed before)");
}

/// The moment the apply changed an older object, as the API server dated it (its
/// `argocd-controller` managedFields entry), is on the axis: lesson 6's narration puts the
/// fix's settings between the hook and the app, and the timeline showed no bar for it.
#[test]
fn an_older_object_changed_by_the_sync_has_its_moment_on_the_axis() {
    let mut settings = item("Synced", -300, None, None);
    settings.message = "configmap/settings configured".into();
    settings.changed_at = Some(2);
    assert_eq!(
        outcome(&settings, ENDED_AT_10, EN).1,
        " changed +2s (existed before)"
    );
    assert_eq!(bar(&settings, ENDED_AT_10, 11), "  █        ");
    // An older Deployment stays Available from before the sync: its change still shows.
    let mut app = item("Synced", -300, Some(-200), None);
    app.message = "deployment.apps/app configured".into();
    app.changed_at = Some(4);
    assert_eq!(bar(&app, ENDED_AT_10, 11), "    █      ");
    // A change before this operation (an earlier sync's) is not this operation's.
    settings.changed_at = Some(-40);
    assert_eq!(
        outcome(&settings, ENDED_AT_10, EN).1,
        " changed (existed before)"
    );
    assert_eq!(bar(&settings, ENDED_AT_10, 11).trim(), "");
}

/// What the sync did to an older object comes first and survives an 80-column row in every
/// language (a row gives way from its end): a zh walk read "（之前就已存在）+0s 时被…", the
/// change cut away and the background kept.
#[test]
fn the_change_to_an_older_object_survives_a_narrow_row_in_every_language() {
    let lane = Lane {
        phase: "Sync".into(),
        wave: -1,
        items: Vec::new(),
    };
    let mut settings = item("Synced", -300, None, None);
    (settings.kind, settings.name, settings.hook) =
        ("ConfigMap".into(), "src-helm-greeting".into(), None);
    settings.message = "configmap/src-helm-greeting configured".into();
    settings.changed_at = Some(2);
    for &lang in Lang::all() {
        let catalog = std::sync::Arc::new(crate::lab::catalog::Catalog::embedded().unwrap());
        let s = crate::tui::state::State::builder(catalog)
            .lang(lang)
            .build();
        let look = Look::of(&s);
        let row =
            words_of(&item_rows(look, &lane, &settings, (ENDED_AT_10, axis_width(78), 78)).whole);
        let change = crate::t!(lang, "timeline-existed-changed-at", at = 2);
        // The words before the background in brackets: what this sync did.
        let first = change.split(['(', '（']).next().unwrap().trim();
        assert!(
            !first.is_empty(),
            "{lang:?}: {change:?} leads with the background"
        );
        assert!(
            row.contains(first),
            "{lang:?}: {first:?} is cut from {row:?}"
        );
    }
}

/// An Application that never ran an operation (a render error before its first sync)
/// says so, not "last operation ?" above an empty axis.
#[test]
fn an_app_without_an_operation_says_it_has_none() {
    let catalog = std::sync::Arc::new(crate::lab::catalog::Catalog::embedded().unwrap());
    let s = crate::tui::state::State::builder(catalog)
        .app(&serde_json::json!({
            "apiVersion": "argoproj.io/v1alpha1",
            "kind": "Application",
            "metadata": {"name": "src-waves", "namespace": "argocd"},
            "spec": {"destination": {}, "project": "default"},
            "status": {"sync": {"status": "Unknown"}, "health": {"status": "Healthy"},
                "conditions": [{"type": "ComparisonError", "message": "cannot render"}]}
        }))
        .build();
    let view = TimelineView {
        live: s.live(),
        app: "src-waves",
        look: Look::of(&s),
    };
    let text: Vec<String> = view
        .fitted(80, 40)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(text, ["src-waves: no operation yet"]);
}

#[test]
fn an_ended_operation_leaves_no_row_running() {
    let (phase, times) = outcome(&item("Running", 1, None, None), ENDED_AT_10, EN);
    assert_eq!(phase, UNFINISHED);
    assert!(times.contains("did not finish"), "{times}");
    let running = Reach {
        seconds: 10,
        ended: false,
    };
    assert_eq!(
        outcome(&item("Running", 1, None, None), running, EN).0,
        "Running"
    );
}

#[test]
fn times_after_the_operation_are_not_counted_into_it() {
    // Ready again at +52s: a later rollout, not this 10 s operation.
    let (_, times) = outcome(&item("Succeeded", 1, Some(52), None), ENDED_AT_10, EN);
    assert!(!times.contains("52"), "{times}");
    assert!(
        times.contains("settled after the operation ended"),
        "{times}"
    );
    assert_eq!(
        bar(&item("Succeeded", 1, Some(52), None), ENDED_AT_10, 11),
        " █         "
    );
    let (_, times) = outcome(&item("Succeeded", 40, None, None), ENDED_AT_10, EN);
    assert!(!times.contains("40"), "{times}");
}

#[test]
fn the_pause_between_waves_is_the_one_the_times_show() {
    let lane = |wave, items| Lane {
        phase: "Sync".into(),
        wave,
        items,
    };
    let (a, b) = (
        lane(0, vec![item("Succeeded", 0, Some(9), None)]),
        lane(1, vec![item("Succeeded", 11, Some(12), None)]),
    );
    assert_eq!(
        gap_words(EN, &a, &b, ENDED_AT_10.with(20)),
        "wave done +9s · 2 s pause · next +11s"
    );
    // Sped up: no pause to speak of, and none claimed.
    let c = lane(1, vec![item("Succeeded", 9, Some(10), None)]);
    assert_eq!(
        gap_words(EN, &a, &c, ENDED_AT_10.with(20)),
        "wave done +9s · next +9s"
    );
}

#[test]
fn bars_sit_on_the_time_axis() {
    assert_eq!(
        bar(&item("Succeeded", 0, Some(5), None), ENDED_AT_10, 11),
        "██████     "
    );
    assert_eq!(
        bar(&item("Succeeded", 10, None, None), ENDED_AT_10, 11),
        "          █"
    );
}

/// The rows' text after the bar: a resource's words, its continued lines joined.
fn words_of(rows: &[Line<'_>]) -> String {
    rows.iter()
        .map(|row| {
            let text: String = row.spans.iter().map(|s| s.content.as_ref()).collect();
            text.rsplit("│ ")
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Narrow, a row keeps its name whole and its words go on under themselves, in their own
/// column (`Job/sm… +10s · se… the operation ended` said neither; then a ko walk at 120×40
/// read `Deployment/app +4s → 준…`, the ready time cut).
#[test]
fn a_narrow_row_keeps_the_name_and_continues_its_words_below() {
    let tz = jiff::tz::TimeZone::UTC;
    let lane = Lane {
        phase: "Sync".into(),
        wave: 1,
        items: Vec::new(),
    };
    let smoke = LaneItem {
        name: "smoke".into(),
        hook: None,
        ..item("Succeeded", 10, Some(52), None)
    };
    for &lang in Lang::all() {
        let look = Look {
            theme: crate::tui::theme::Theme::Default,
            lang,
            tz: &tz,
        };
        let whole = outcome(&smoke, ENDED_AT_10, lang).1;
        for width in [80, 68, 60, 52] {
            let rows = item_rows(look, &lane, &smoke, (ENDED_AT_10, 13, width)).whole;
            let words = words_of(&rows);
            assert!(words.starts_with("✓ Job/smoke"), "{width}: {words}");
            let said: String = words.split_whitespace().collect();
            let meant: String = format!("Job/smoke{whole}").split_whitespace().collect();
            assert!(
                said.ends_with(&meant),
                "{lang:?} {width}: {words:?} lost words of {meant:?}"
            );
            for row in &rows {
                let text: String = row.spans.iter().map(|s| s.content.as_ref()).collect();
                assert!(
                    unicode_width::UnicodeWidthStr::width(text.as_str()) <= width,
                    "{width}: {text}"
                );
                // The phase and bar columns keep their rules on every line.
                assert_eq!(text.matches('│').count(), 2, "{width}: {text}");
            }
        }
    }
}

impl Reach {
    fn with(self, seconds: i64) -> Self {
        Reach { seconds, ..self }
    }
}
