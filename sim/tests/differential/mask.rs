//! What always differs between two clusters and says nothing about fidelity, masked before two
//! answers are compared: uids, resourceVersions, times and ages, ports and addresses, generated
//! names' random suffixes, Unix seconds, and the padding tables get from those. Everything else
//! must match byte for byte (a probe or a corpus file can add masks of its own, with a reason).

use regex::Regex;

use super::corpus::Mask;

/// The masks every probe gets, in order (a later one sees the earlier ones' output).
fn always() -> Vec<(Regex, &'static str)> {
    [
        // klog's header on a client's warning: severity, date, time, thread id, file:line
        (r"\b([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ ", "${1}<klog> "),
        // client-go's reflector saying a watch ended because the client cancelled its own
        // context (helm stopping its waiter): whether the stream's read sees the cancellation
        // before the watcher's own stop is a race inside the client (its StreamWatcher), on
        // either cluster, not an answer of the server (seen once in five runs, on
        // survey-helm/chart-crds/install against the embedded cluster).
        (
            r#"(?m)^[IWEF]<klog> reflector\.go:\d+\] "Warning: watch ended with error".*context canceled.*\n?"#,
            "",
        ),
        // uids
        (
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "<uid>",
        ),
        // RFC 3339 times, with or without fractions, in UTC or with an offset
        (
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)",
            "<time>",
        ),
        // Go's time.Time printed by kubectl describe: Wed, 03 Dec 2026 08:00:56 +0000
        (
            r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}",
            "<time>",
        ),
        // resourceVersions in JSON and YAML
        (
            r#""resourceVersion": ?"\d+""#,
            r#""resourceVersion":"<rv>""#,
        ),
        (r#"resourceVersion: "\d+""#, r#"resourceVersion: "<rv>""#),
        // loopback ports
        (r"127\.0\.0\.1:\d+", "127.0.0.1:<port>"),
        // other IPv4 addresses (Service and Pod IPs are chosen by each cluster)
        (r"\b(\d{1,3}\.){3}\d{1,3}\b", "<ip>"),
        // Unix seconds of this era (in generated hook names too)
        (r"\b1[789]\d{8}\b", "<unix>"),
        // the random suffix of a generated name (Kubernetes' alphabet, five letters)
        (r"-[bcdfghjklmnpqrstvwxz2456789]{5}\b", "-<gen>"),
        // a ReplicaSet's pod-template-hash: Kubernetes hashes Go's printing of the template
        // struct, which the embedded cluster cannot reproduce (docs/sim-fidelity.md)
        (r"-[bcdfghjklmnpqrstvwxz2456789]{6,10}\b", "-<hash>"),
        // ages in kubectl's tables and describe: 5s, 2m3s, 10m, 3h4m, 2d
        (r"\b\d+(d\d+h|d|h\d+m|h|m\d+s|m|s)\b", "<age>"),
    ]
    .into_iter()
    .map(|(re, with)| (Regex::new(re).unwrap(), with))
    .collect()
}

/// `text` with the always-masks, then `extra`, applied; runs of spaces (table padding, which
/// follows the masked values' widths) become one, and trailing spaces go.
pub fn mask(text: &str, extra: &[Mask]) -> String {
    let mut out = text.to_string();
    for (re, with) in always() {
        out = re.replace_all(&out, with).into_owned();
    }
    for m in extra {
        let re = Regex::new(&m.regex).unwrap_or_else(|e| panic!("mask {:?}: {e}", m.regex));
        out = re.replace_all(&out, m.with.as_str()).into_owned();
    }
    let spaces = Regex::new(r" {2,}").unwrap();
    out.lines()
        .map(|l| spaces.replace_all(l.trim_end(), " ").into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_always_differs_is_masked_and_nothing_else() {
        let a = "pod/migrate-9ab0cf3-presync-1796285198-k4r6v   0/1   Completed   0   16s\n\
                 uid: 2f1c3b8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b\nresourceVersion: \"4711\"\n\
                 created: 2026-12-03T07:59:19Z at https://127.0.0.1:6443 on 10.43.0.17";
        let b = "pod/migrate-9ab0cf3-presync-1796286000-x2z9q   0/1   Completed   0   3m2s\n\
                 uid: 00000000-1111-4222-8333-444444444444\nresourceVersion: \"12\"\n\
                 created: 2026-12-04T01:02:03.123456Z at https://127.0.0.1:40123 on 10.43.200.1";
        assert_eq!(mask(a, &[]), mask(b, &[]));
        assert_ne!(
            mask("replicas: 3", &[]),
            mask("replicas: 4", &[]),
            "values are compared"
        );
        assert_ne!(mask("Synced", &[]), mask("OutOfSync", &[]));
        let cancelled = "I1205 10:31:02.123456   4242 reflector.go:578] \"Warning: watch ended with error\" reflector=\"k8s.io/client-go/tools/cache/reflector.go:289\" err=\"an error on the server (\\\"unable to decode an event from the watch stream: context canceled\\\") has prevented the request from succeeding\"\nNAME: c";
        assert_eq!(mask(cancelled, &[]), "NAME: c");
        let other = "W1205 10:31:02.123456   4242 reflector.go:578] \"Warning: watch ended with error\" err=\"too old resource version\"";
        assert_ne!(
            mask(other, &[]),
            "",
            "only the client's own cancellation is masked"
        );
    }
}
