//! Step mode asks a question before the action that answers it: the narration on screen at that
//! moment (the asking action's `say`, the previous action's `then`) must not name an answer, or
//! the room reads it instead of predicting it. Nor may an earlier action have set off the sync
//! that answers it (a hard refresh, an Application applied since the last wait): the room would
//! watch the answer arrive in the panes while it is asked to predict it.

use super::tree::{Pos, Tree};
use super::{Finding, Folder, Problem};
use crate::lab::spec::{LessonSpec, Step};

pub fn check(f: &Folder, out: &mut Vec<Problem>) {
    let (Some(spec), Some(tree)) = (&f.spec, &f.tree) else {
        return;
    };
    let actions = match tree.get("actions").map(|n| &n.value) {
        Some(Tree::Seq(items)) => items.as_slice(),
        _ => &[],
    };
    for (i, action) in spec.actions.iter().enumerate() {
        let Some(ask) = &action.ask else {
            continue;
        };
        let at = actions.get(i).map_or(Pos { line: 1, column: 1 }, |n| n.at);
        if let Some((started, does)) = set_off_before(spec, i) {
            out.push(Problem {
                file: f.yaml_path.clone(),
                at,
                finding: Finding::AskedAfterItStarted {
                    action: started + 1,
                    does: does.to_string(),
                },
            });
        }
        let before = i.checked_sub(1).and_then(|p| spec.actions[p].then.as_ref());
        let shown = action.say.iter().chain(before);
        for text in shown {
            for lang in text.languages() {
                let Some(words) = text.get_exactly(lang) else {
                    continue;
                };
                // A number is a count the narration may well state as an input ("replicaCount
                // 3"); a word or a name in it is the answer itself.
                let named = ask.choices.iter().find(|c| {
                    c.parse::<f64>().is_err() && c.chars().count() > 1 && words.contains(c.as_str())
                });
                if let Some(choice) = named {
                    // The text as written may still hold `${…}`: point at the asking action.
                    out.push(Problem {
                        file: f.yaml_path.clone(),
                        at,
                        finding: Finding::NarrationGivesAway {
                            choice: choice.clone(),
                            code: lang.to_string(),
                        },
                    });
                }
            }
        }
    }
}

/// The action since the last wait before action `asked` that set Argo CD syncing (a hard
/// refresh, an Application applied), with its `do:`: the answer is on its way when the
/// question comes. A scale or a commit is not one: the cluster does not act on them by itself
/// before the next wait (a commit waits for a refresh), and a scale is the premise of what is
/// asked after it.
fn set_off_before(spec: &LessonSpec, asked: usize) -> Option<(usize, &'static str)> {
    let since = spec.actions[..asked]
        .iter()
        .rposition(|a| matches!(a.step, Step::Wait { .. }))
        .map_or(0, |w| w + 1);
    (since..asked).find_map(|i| match spec.actions[i].step {
        Step::HardRefresh { .. } => Some((i, "hard-refresh")),
        Step::ApplyApp { .. } => Some((i, "apply-app")),
        _ => None,
    })
}
