//! `GET .../pods/{name}/log`: what a simulated container printed, as plain text, read the way
//! the kubelet reads a container's log file: `tailLines` picks the last lines, then
//! `sinceSeconds`/`sinceTime` drop older ones, `timestamps` prefixes each line with the time it
//! was written, `limitBytes` cuts the output short, and `follow=true` keeps the response open
//! until the container exits (docs/sim-behaviour.md §15.2).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jiff::Timestamp;
use serde_json::Value;

use super::ApiState;
use super::path::ResourcePath;
use super::request::{Query, form_pairs};
use crate::logs::Line;
use crate::status::{ApiError, ApiResult};
use crate::store::Key;

/// The `PodLogOptions` a log request carries besides the container and `follow`.
#[derive(Debug, Default, Clone, PartialEq)]
struct LogOptions {
    timestamps: bool,
    since: Option<Timestamp>,
    tail_lines: Option<usize>,
    limit_bytes: Option<usize>,
    previous: bool,
}

impl LogOptions {
    fn parse(raw: Option<&str>, pod: &str, now: Timestamp) -> ApiResult<LogOptions> {
        let mut o = LogOptions::default();
        let (mut since_seconds, mut since_time) = (None, None);
        for (key, value) in form_pairs(raw.unwrap_or_default()) {
            let flag = matches!(value.as_str(), "true" | "1");
            match key.as_str() {
                "timestamps" => o.timestamps = flag,
                "previous" => o.previous = flag,
                "tailLines" => o.tail_lines = Some(number(pod, "tailLines", &value, 0)?),
                "limitBytes" => o.limit_bytes = Some(number(pod, "limitBytes", &value, 1)?),
                "sinceSeconds" => since_seconds = Some(number(pod, "sinceSeconds", &value, 1)?),
                "sinceTime" => {
                    since_time = Some(value.parse::<Timestamp>().map_err(|_| {
                        ApiError::bad_request(format!(
                            "parsing time {value:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse"
                        ))
                    })?)
                }
                _ => {}
            }
        }
        if since_seconds.is_some() && since_time.is_some() {
            return Err(invalid(
                pod,
                "at most one of `sinceTime` or `sinceSeconds` may be specified",
            ));
        }
        o.since = since_time
            .or_else(|| since_seconds.map(|s| now - jiff::SignedDuration::from_secs(s as i64)));
        Ok(o)
    }
}

fn number(pod: &str, field: &str, value: &str, min: i64) -> ApiResult<usize> {
    let n: i64 = value
        .parse()
        .map_err(|_| ApiError::bad_request(format!("{field}: invalid value {value:?}")))?;
    if n < min {
        return Err(invalid(
            pod,
            &format!(
                "{field}: Invalid value: {n}: must be greater than {}",
                min - 1
            ),
        ));
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

fn invalid(pod: &str, cause: &str) -> ApiError {
    ApiError {
        code: 422,
        reason: "Invalid",
        message: format!("PodLogOptions \"{pod}\" is invalid: {cause}"),
        details: Some(serde_json::json!({"name": pod, "kind": "PodLogOptions"})),
    }
}

/// The lines a read returns: the last `tail_lines`, then those not older than `since`.
fn select<'a>(lines: &'a [Line], o: &LogOptions) -> &'a [Line] {
    let from_tail = o.tail_lines.map_or(0, |n| lines.len().saturating_sub(n));
    let tail = &lines[from_tail..];
    let from_since = o
        .since
        .map_or(0, |since| tail.iter().take_while(|l| l.at < since).count());
    &tail[from_since..]
}

/// A line as written to the client: `2026-07-01T12:00:01.000000000Z text` with timestamps.
fn render(line: &Line, o: &LogOptions) -> String {
    if o.timestamps {
        format!(
            "{} {}",
            line.at.strftime("%Y-%m-%dT%H:%M:%S.%9fZ"),
            line.text
        )
    } else {
        line.text.clone()
    }
}

/// Keeps at most `budget` more bytes of `out`, lowering the budget by what it kept.
fn within(mut out: String, budget: &mut Option<usize>) -> String {
    if let Some(left) = budget {
        if out.len() > *left {
            let mut cut = *left;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
        }
        *left -= out.len();
    }
    out
}

pub async fn serve(
    st: &Arc<ApiState>,
    rp: &ResourcePath,
    method: &Method,
    q: &Query,
    raw_query: Option<&str>,
) -> ApiResult<Response> {
    if method != Method::GET {
        return Err(ApiError::method_not_allowed(method.as_str(), "pods/log"));
    }
    let (ns, name) = (
        rp.namespace.as_deref().unwrap_or_default(),
        rp.name.as_deref().unwrap_or_default(),
    );
    let pod = st
        .store
        .get(&Key::new(rp.ty, ns, name))
        .ok_or_else(|| ApiError::not_found(rp.ty, name))?;
    let opts = LogOptions::parse(raw_query, name, st.store.clock.now())?;
    let container = pick_container(&pod, name, q.container.as_deref())?;
    if opts.previous {
        // No container of the embedded cluster ever restarts, so there is no previous one.
        return Err(ApiError::bad_request(format!(
            "previous terminated container \"{container}\" in pod \"{name}\" not found"
        )));
    }
    let now = st.store.clock.now();
    let Some(view) = st.logs.view(ns, name, &container, now) else {
        return Err(ApiError::bad_request(format!(
            "container \"{container}\" in pod \"{name}\" is waiting to start: ContainerCreating"
        )));
    };
    let mut budget = opts.limit_bytes;
    let first: String = select(&view.lines, &opts)
        .iter()
        .map(|l| render(l, &opts))
        .collect();
    let first = within(first, &mut budget);
    if !q.follow || view.finished || budget == Some(0) {
        return Ok(plain(Body::from(first)));
    }
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(16);
    let (logs, store) = (st.logs.clone(), st.store.clone());
    let (ns, name) = (ns.to_string(), name.to_string());
    let mut sent = Sent::after(&view.lines);
    let (mut changes, mut repeats) = (view.changes, view.repeats);
    tokio::spawn(async move {
        if tx.send(Ok(first.into_bytes())).await.is_err() {
            return;
        }
        loop {
            // Woken by a new line, or when a repeating line is due.
            let now = store.clock.now();
            let due = repeats.iter().map(|r| r.next_after(now)).min();
            let wait = due.map(|d| store.clock.real(d.duration_since(now).unsigned_abs()));
            tokio::select! {
                changed = changes.changed() => if changed.is_err() { return },
                () = sleep_or_forever(wait) => {}
            }
            let Some(view) = logs.view(&ns, &name, &container, store.clock.now()) else {
                return;
            };
            repeats = view.repeats;
            let fresh: String = sent
                .fresh(&view.lines)
                .iter()
                .map(|l| render(l, &opts))
                .collect();
            sent = Sent::after(&view.lines);
            let fresh = within(fresh, &mut budget);
            if !fresh.is_empty() && tx.send(Ok(fresh.into_bytes())).await.is_err() {
                return;
            }
            if view.finished || budget == Some(0) {
                return;
            }
        }
    });
    Ok(plain(Body::from_stream(
        tokio_stream::wrappers::ReceiverStream::new(rx),
    )))
}

async fn sleep_or_forever(wait: Option<std::time::Duration>) {
    match wait {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}

/// How far a follower has read: the time of the last line sent, and how many lines of that
/// very moment it has sent (a log is in time order; old lines may rotate out of a view).
struct Sent {
    last: Option<Timestamp>,
    at_last: usize,
}

impl Sent {
    fn after(lines: &[Line]) -> Sent {
        let last = lines.last().map(|l| l.at);
        let at_last = lines.iter().filter(|l| Some(l.at) == last).count();
        Sent { last, at_last }
    }

    fn fresh<'a>(&self, lines: &'a [Line]) -> &'a [Line] {
        let Some(last) = self.last else {
            return lines;
        };
        let before = lines.iter().take_while(|l| l.at < last).count();
        let same = lines[before..].iter().take_while(|l| l.at == last).count();
        &lines[before + same.min(self.at_last)..]
    }
}

fn plain(body: Body) -> Response {
    (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain")], body).into_response()
}

/// The container a request means: the one named, or the only one there is.
fn pick_container(pod: &Value, name: &str, asked: Option<&str>) -> ApiResult<String> {
    let containers: Vec<&str> = pod["spec"]["containers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    match (asked, containers.as_slice()) {
        (Some(c), _) if containers.contains(&c) => Ok(c.to_string()),
        (Some(c), _) => Err(ApiError::bad_request(format!(
            "container {c} is not valid for pod {name}"
        ))),
        (None, [only]) => Ok((*only).to_string()),
        (None, _) => Err(ApiError::bad_request(format!(
            "a container name must be specified for pod {name}, choose one of: [{}]",
            containers.join(" ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines() -> Vec<Line> {
        (0..5)
            .map(|i| Line {
                at: Timestamp::from_second(1_000 + i * 10).unwrap(),
                text: format!("line {i}\n"),
            })
            .collect()
    }

    #[test]
    fn tail_is_taken_before_since_as_the_kubelet_does() {
        let now = Timestamp::from_second(1_045).unwrap();
        let o = LogOptions::parse(Some("tailLines=3&sinceSeconds=20"), "p", now).unwrap();
        let all = lines();
        let picked: Vec<&str> = select(&all, &o).iter().map(|l| l.text.as_str()).collect();
        assert_eq!(picked, ["line 3\n", "line 4\n"]);
        let o = LogOptions::parse(Some("tailLines=0"), "p", now).unwrap();
        assert!(select(&all, &o).is_empty());
    }

    #[test]
    fn timestamps_are_rfc3339_with_nanoseconds() {
        let o = LogOptions::parse(Some("timestamps=true"), "p", Timestamp::UNIX_EPOCH).unwrap();
        assert_eq!(
            render(&lines()[0], &o),
            "1970-01-01T00:16:40.000000000Z line 0\n"
        );
    }

    #[test]
    fn limit_bytes_cuts_and_both_sinces_are_refused() {
        let mut budget = Some(8);
        assert_eq!(within("line 0\nline 1\n".into(), &mut budget), "line 0\nl");
        assert_eq!(budget, Some(0));
        let e = LogOptions::parse(
            Some("sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z"),
            "p",
            Timestamp::UNIX_EPOCH,
        )
        .unwrap_err();
        assert_eq!(e.code, 422);
        assert!(
            e.message
                .contains("at most one of `sinceTime` or `sinceSeconds`")
        );
    }
}
