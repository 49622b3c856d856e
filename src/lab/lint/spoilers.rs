//! Step mode asks a question before the action that answers it: the narration on screen at that
//! moment (the asking action's `say`, the previous action's `then`) must not name an answer, or
//! the room reads it instead of predicting it.

use super::tree::{Pos, Tree};
use super::{Finding, Folder, Problem};

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
                    let at = actions.get(i).map_or(Pos { line: 1, column: 1 }, |n| n.at);
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
