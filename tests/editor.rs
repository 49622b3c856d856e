//! The schema in an editor: the YAML language server that VS Code, Neovim and Helix use
//! (`yaml-language-server`, installed by `scripts/install-clients`) reads a lesson.yaml's
//! modeline, finds `lessons/lesson.schema.json`, flags a misspelt key and a step missing its
//! fields, and completes the keys of a plan action, as an author would see them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers fail the test by panicking, with what went wrong"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn server() -> std::path::PathBuf {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".tools/node/node_modules/.bin/yaml-language-server");
    assert!(
        bin.exists(),
        "{} is missing: run scripts/install-clients (scripts/test does)",
        bin.display()
    );
    bin
}

/// The server's messages (LSP framing: a Content-Length header, a blank line, the JSON).
fn messages(stdout: std::process::ChildStdout) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel::<Value>();
    let mut out = BufReader::new(stdout);
    std::thread::spawn(move || {
        loop {
            let mut len = 0;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    len = n.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            out.read_exact(&mut body).unwrap();
            let _ = tx.send(serde_json::from_slice(&body).unwrap());
        }
    });
    rx
}

#[test]
fn the_schema_checks_and_completes_a_lesson_yaml_in_the_editors_yaml_server() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/01-helm-chart/lesson.yaml");
    let uri = format!("file://{}", path.display());
    // What the author has typed so far: a misspelt key, and a new action with only `do: wait`.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("slug: helm-chart\n", "slug: helm-chart\nsulg: typo\n");
    let text = format!("{}\n  - do: wait\n    \n", text.trim_end());
    let last_line = text.lines().count() - 1;

    let mut child = Command::new(server())
        .arg("--stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut send = |msg: Value| {
        let body = msg.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    };
    let rx = messages(child.stdout.take().unwrap());
    let root = format!("file://{}", env!("CARGO_MANIFEST_DIR"));
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": root, "capabilities": {}}}));
    send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(
        json!({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
        "params": {"settings": {"yaml": {"validate": true, "completion": true,
            "schemaStore": {"enable": false}}}}}),
    );
    send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}}),
    );
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": {
        "textDocument": {"uri": uri}, "position": {"line": last_line, "character": 4}}}),
    );

    let mut diagnostics: Vec<String> = Vec::new();
    let mut completion: Option<Vec<String>> = None;
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline && (completion.is_none() || diagnostics.is_empty()) {
        let Ok(msg) = rx.recv_timeout(Duration::from_millis(500)) else {
            continue;
        };
        if msg["id"] == 2 {
            let items = msg["result"]["items"]
                .as_array()
                .or(msg["result"].as_array());
            completion = Some(
                items
                    .into_iter()
                    .flatten()
                    .filter_map(|i| i["label"].as_str().map(String::from))
                    .collect(),
            );
        }
        if msg["method"] == "textDocument/publishDiagnostics" {
            diagnostics.extend(
                msg["params"]["diagnostics"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|d| {
                        format!(
                            "{}: {}",
                            d["range"]["start"]["line"].as_u64().unwrap() + 1,
                            d["message"].as_str().unwrap()
                        )
                    }),
            );
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let completion = completion.expect("the server answered the completion request");
    for key in ["app", "until", "say", "then", "watch", "ask", "done_when"] {
        assert!(
            completion.iter().any(|c| c == key),
            "{key} not offered for a wait action: {completion:?}"
        );
    }
    let said = diagnostics.join("\n");
    assert!(said.contains("4: Property sulg is not allowed."), "{said}");
    assert!(said.contains("Missing property \"app\""), "{said}");
    assert!(said.contains("Missing property \"until\""), "{said}");
    // Nothing else in the lesson is flagged: the schema accepts the lab as it is.
    assert_eq!(diagnostics.len(), 3, "{said}");
}
