//! Label keys, values and selectors against the answers and error words apimachinery gives.
use super::*;
use serde_json::json;

fn err(text: &str) -> String {
    LabelSelector::parse(text).unwrap_err()
}

#[test]
fn parse_errors_are_worded_as_the_apimachinery_parser_words_them() {
    for (text, want) in [
        (
            "a in b",
            "unable to parse requirement: found 'b' expected: '('",
        ),
        (
            "a notin b",
            "unable to parse requirement: found 'b' expected: '('",
        ),
        (
            "=x",
            "found '=', expected: !, identifier, or 'end of string'",
        ),
        ("a,,b", "found ',', expected: identifier after ','"),
        ("a,", "found '', expected: identifier after ','"),
        (
            "a in (b",
            "unable to parse requirement: found '', expected: ',' or ')'",
        ),
        (
            "a in (b c)",
            "unable to parse requirement: found 'c', expected: ',' or ')'",
        ),
        ("a=b=c", "found '=', expected: ',' or 'end of string'"),
        ("a!=b!=c", "found '!=', expected: ',' or 'end of string'"),
        (
            "a b",
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
        ),
        (
            "a!",
            "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt",
        ),
        (
            "!",
            "unable to parse requirement: found '', expected: identifier",
        ),
        (
            "a=(b)",
            "unable to parse requirement: found '(', expected: identifier",
        ),
        (
            "(a)",
            "found '(', expected: !, identifier, or 'end of string'",
        ),
        (
            "a>x",
            "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
        ),
    ] {
        assert_eq!(err(text), want, "{text}");
    }
    assert_eq!(
        err("a=b@"),
        "unable to parse requirement: values[0][a]: Invalid value: \"b@\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
    );
    assert!(err("x/").starts_with(
        "unable to parse requirement: <nil>: Invalid value: \"x/\": name part must be non-empty; name part must consist of"
    ));
    assert_eq!(
        err(&"k".repeat(64)),
        format!(
            "unable to parse requirement: <nil>: Invalid value: \"{}\": name part must be no more than 63 bytes",
            "k".repeat(64)
        )
    );
}

#[test]
fn every_form_selects_as_kubernetes_does() {
    let labels = json!({"app": "web", "tier": "front", "n": "5"});
    for (text, want) in [
        ("", true),
        ("app=web", true),
        ("app==web,tier=front", true),
        ("app!=web", false),
        ("app in (api, web)", true),
        ("tier notin (front)", false),
        ("app", true),
        ("!app", false),
        ("!legacy", true),
        ("a in ()", false),
        ("a==", false),
        ("app in (,web)", true),
        ("n>4,n<6", true),
        ("n>5", false),
        ("missing notin (x)", true),
    ] {
        let sel = LabelSelector::parse(text).unwrap();
        assert_eq!(sel.matches_labels(&labels), want, "{text}");
    }
}

#[test]
fn selector_objects_select_as_label_selector_as_selector() {
    let labels = json!({"app": "web"});
    let null = LabelSelector::from_object(&Value::Null).unwrap();
    assert!(!null.is_empty() && !null.matches_labels(&labels));
    let empty = LabelSelector::from_object(&json!({})).unwrap();
    assert!(empty.is_empty() && empty.matches_labels(&labels));
    let sel = json!({"matchLabels": {"app": "web"}, "matchExpressions": [
        {"key": "tier", "operator": "DoesNotExist"}]});
    assert!(
        LabelSelector::from_object(&sel)
            .unwrap()
            .matches_labels(&labels)
    );
    assert_eq!(
        LabelSelector::from_object(
            &json!({"matchExpressions": [{"key": "a", "operator": "Bogus"}]})
        )
        .unwrap_err(),
        "\"Bogus\" is not a valid label selector operator"
    );
    assert_eq!(
        LabelSelector::from_object(&json!({"matchExpressions": [{"key": "a", "operator": "In"}]}))
            .unwrap_err(),
        "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
    );
}

#[test]
fn keys_and_values_are_worded_as_content_words_them() {
    assert!(key_problems("app.kubernetes.io/name").is_empty());
    assert_eq!(
        key_problems("a/b/c"),
        vec![
            "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    );
    assert_eq!(key_problems("Bad_/x").len(), 1);
    assert!(key_problems("Bad_/x")[0].starts_with("prefix part a lowercase RFC 1123"));
    assert_eq!(
        value_problems(&"v".repeat(64)),
        vec!["must be no more than 63 bytes"]
    );
}
