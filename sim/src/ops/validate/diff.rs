//! The unified diff (three lines of context, no file header) that `k8s.io/apimachinery`'s
//! `diff.Diff` writes with go-difflib into some Forbidden messages.

/// One run of an edit script: equal, or old lines replaced by new ones (either side may be
/// empty), as half-open line ranges of each side.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Op {
    equal: bool,
    a: (usize, usize),
    b: (usize, usize),
}

/// The edit script turning `a` into `b`, from a longest common subsequence.
fn opcodes(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<Op> = Vec::new();
    let mut push = |equal: bool, i: usize, j: usize, di: usize, dj: usize| match ops.last_mut() {
        Some(last) if last.equal == equal => {
            last.a.1 += di;
            last.b.1 += dj;
        }
        _ => ops.push(Op {
            equal,
            a: (i, i + di),
            b: (j, j + dj),
        }),
    };
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            push(true, i, j, 1, 1);
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            push(false, i, j, 0, 1);
            j += 1;
        } else {
            push(false, i, j, 1, 0);
            i += 1;
        }
    }
    ops
}

/// `get_grouped_opcodes(3)`: the changes with up to three lines of context each side,
/// changes closer than six lines sharing a hunk.
fn groups(mut ops: Vec<Op>) -> Vec<Vec<Op>> {
    const N: usize = 3;
    if ops.is_empty() {
        return Vec::new();
    }
    if let Some(first) = ops.first_mut().filter(|o| o.equal) {
        first.a.0 = first.a.0.max(first.a.1.saturating_sub(N));
        first.b.0 = first.b.0.max(first.b.1.saturating_sub(N));
    }
    if let Some(last) = ops.last_mut().filter(|o| o.equal) {
        last.a.1 = last.a.1.min(last.a.0 + N);
        last.b.1 = last.b.1.min(last.b.0 + N);
    }
    let mut out = Vec::new();
    let mut group = Vec::new();
    for mut op in ops {
        if op.equal && op.a.1 - op.a.0 > 2 * N {
            group.push(Op {
                equal: true,
                a: (op.a.0, op.a.1.min(op.a.0 + N)),
                b: (op.b.0, op.b.1.min(op.b.0 + N)),
            });
            out.push(std::mem::take(&mut group));
            op.a.0 = op.a.0.max(op.a.1 - N);
            op.b.0 = op.b.0.max(op.b.1 - N);
        }
        group.push(op);
    }
    if !(group.is_empty() || group.len() == 1 && group[0].equal) {
        out.push(group);
    }
    out.retain(|g| g.iter().any(|o| !o.equal));
    out
}

/// difflib's `formatRangeUnified`.
fn range(start: usize, stop: usize) -> String {
    let length = stop - start;
    let beginning = if length == 0 { start } else { start + 1 };
    if length == 1 {
        beginning.to_string()
    } else {
        format!("{beginning},{length}")
    }
}

/// The unified diff of two texts, every line newline-terminated (difflib's `SplitLines`).
pub fn unified(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.split('\n').collect();
    let b: Vec<&str> = new.split('\n').collect();
    let mut out = String::new();
    for group in groups(opcodes(&a, &b)) {
        let (first, last) = (group[0], group[group.len() - 1]);
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(first.a.0, last.a.1),
            range(first.b.0, last.b.1)
        ));
        for op in group {
            if op.equal {
                for line in &a[op.a.0..op.a.1] {
                    out.push_str(&format!(" {line}\n"));
                }
                continue;
            }
            for line in &a[op.a.0..op.a.1] {
                out.push_str(&format!("-{line}\n"));
            }
            for line in &b[op.b.0..op.b.1] {
                out.push_str(&format!("+{line}\n"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_shows_with_three_lines_of_context() {
        let old = (1..=20)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let new = old.replace("l10", "X");
        assert_eq!(
            unified(&old, &new),
            "@@ -7,7 +7,7 @@\n l7\n l8\n l9\n-l10\n+X\n l11\n l12\n l13\n"
        );
        assert_eq!(unified(&old, &old), "");
    }

    #[test]
    fn an_added_line_counts_on_one_side_only() {
        assert_eq!(unified("a\nb", "a\nx\nb"), "@@ -1,2 +1,3 @@\n a\n+x\n b\n");
    }
}
