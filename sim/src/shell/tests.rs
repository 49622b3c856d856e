//! Unit tests of `shell`.

use super::*;

fn argv(words: &[&str]) -> Result<Trace, ShellError> {
    run(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>())
}

fn sh(script: &str) -> Result<Trace, ShellError> {
    argv(&["sh", "-c", script])
}

/// A trace that only prints `lines` (one step each) and exits with `code`.
fn printed(lines: &[&str], code: i32) -> Result<Trace, ShellError> {
    let steps = lines.iter().map(|l| Step::Output(l.to_string())).collect();
    Ok(Trace {
        steps,
        exit_code: code,
    })
}

fn slept(secs: f64) -> Result<Trace, ShellError> {
    let steps = vec![Step::Sleep(Duration::from_secs_f64(secs))];
    Ok(Trace {
        steps,
        exit_code: 0,
    })
}

fn refused(command: &str) -> Result<Trace, ShellError> {
    Err(unsupported(command))
}

#[test]
fn lab_commands() {
    assert_eq!(sh("echo migrate ok"), printed(&["migrate ok\n"], 0));
    assert_eq!(
        sh("echo migrate failed; exit 1"),
        printed(&["migrate failed\n"], 1)
    );
    assert_eq!(
        argv(&["/bin/sh", "-c", "echo smoke ok"]),
        printed(&["smoke ok\n"], 0)
    );
    assert_eq!(run(&[]), printed(&[], 0));
}

#[test]
fn argv_forms() {
    assert_eq!(argv(&["echo", "hi"]), printed(&["hi\n"], 0));
    // Without a shell, quotes and `$?` are just text.
    assert_eq!(
        argv(&["/bin/echo", "'$?'", "a  b"]),
        printed(&["'$?' a  b\n"], 0)
    );
    assert_eq!(argv(&["false"]), printed(&[], 1));
    assert_eq!(argv(&["sleep", "1"]), slept(1.0));
    assert_eq!(argv(&["ash", "-c", "exit 4"]), printed(&[], 4));
    assert_eq!(
        argv(&["bash", "-lc", "echo hi", "$0"]),
        printed(&["hi\n"], 0)
    );
    assert_eq!(argv(&["sh"]), printed(&[], 0));
    assert_eq!(argv(&["sh", "run.sh"]), refused("sh run.sh"));
    assert_eq!(argv(&["sh", "-x", "-c", "echo"]), refused("sh -x"));
    assert_eq!(argv(&["sh", "-c", "-e", "false; echo no"]), printed(&[], 1));
    assert_eq!(argv(&["sh", "-c"]), Err(syntax("-c requires an argument")));
    assert_eq!(argv(&["curl", "-s", "http://web"]), refused("curl"));
    assert_eq!(argv(&["echo", "-e", "a\\tb"]), refused("echo -e"));
    assert_eq!(argv(&[""]), refused(""));
}

#[test]
fn sequences_and_operators() {
    let cases: &[(&str, &[&str], i32)] = &[
        ("false; echo after", &["after\n"], 0),
        ("echo a; false", &["a\n"], 1),
        ("echo a\necho b\n", &["a\n", "b\n"], 0),
        ("false && echo no", &[], 1),
        ("false || echo yes", &["yes\n"], 0),
        ("true && echo a || echo b", &["a\n"], 0),
        ("false && echo a || echo b", &["b\n"], 0),
        // Equal precedence, left to right: (true || echo a) && echo b.
        ("true || echo a && echo b", &["b\n"], 0),
        ("false &&\n  echo no ||\n  echo yes", &["yes\n"], 0),
        ("exit 3; echo never", &[], 3),
        ("false; exit", &[], 1),
        ("false || exit 4; echo never", &[], 4),
        ("false; echo $? \"$?\"; echo $?", &["1 1\n", "0\n"], 0),
        (": ; true; :", &[], 0),
        ("", &[], 0),
        ("exit 256", &[], 0),
        ("exit 300", &[], 44),
        (
            "exit abc; echo never",
            &["sh: exit: Illegal number: abc\n"],
            2,
        ),
        ("exit -1", &["sh: exit: Illegal number: -1\n"], 2),
        ("exit 99999999999", &[], 255),
        ("exit 2147483648", &[], 0),
        ("exit 4294967297", &[], 1),
        ("exit 18446744073709551617", &[], 0),
        ("exit +3", &["sh: exit: Illegal number: +3\n"], 2),
        ("echo ok? [x]", &["ok? [x]\n"], 0),
        (r#"echo 'a  b' "c\"d" e\ f"#, &["a  b c\"d e f\n"], 0),
        // No escape processing: backslashes stay unless they quote $ ` " \ or a newline.
        (
            r#"echo "a\nb" 'x\ty' \$ "\$\\""#,
            &["a\\nb x\\ty $ $\\\n"],
            0,
        ),
        ("echo -n hi; echo -n; echo -nE '!'", &["hi", "!"], 0),
        ("echo; echo ''; echo -- -x -", &["\n", "\n", "-- -x -\n"], 0),
        (
            "echo a \\\n  b # note\n# a whole line\necho c#d $",
            &["a b\n", "c#d $\n"],
            0,
        ),
        ("echo \"two\nlines\"   'é'", &["two\nlines é\n"], 0),
        (
            "sleep soon; echo $?",
            &["sleep: invalid number 'soon'\n", "1\n"],
            0,
        ),
        ("sleep", &["sleep: missing operand\n"], 1),
        (
            "sleep 99999999999999999999",
            &["sleep: invalid number '99999999999999999999'\n"],
            1,
        ),
    ];
    for (script, lines, code) in cases {
        assert_eq!(sh(script), printed(lines, *code), "{script}");
    }
}

#[test]
fn errexit_counts_only_the_last_command_of_a_list() {
    let ec = |script| argv(&["sh", "-ec", script]);
    assert_eq!(ec("false; echo no"), printed(&[], 1));
    assert_eq!(ec("true && false; echo no"), printed(&[], 1));
    assert_eq!(ec("false && true; echo yes"), printed(&["yes\n"], 0));
    assert_eq!(ec("false || echo yes"), printed(&["yes\n"], 0));
}

#[test]
fn sleeps() {
    assert_eq!(sh("sleep 2"), slept(2.0));
    assert_eq!(sh("sleep 0.5"), slept(0.5));
    assert_eq!(sh("sleep .25"), slept(0.25));
    assert_eq!(sh("sleep 1m 1.5"), slept(61.5));
    assert_eq!(sh("sleep 1h"), slept(3600.0));
    let forever = Trace {
        steps: vec![Step::Sleep(FOREVER)],
        exit_code: 0,
    };
    assert_eq!(sh("sleep infinity"), Ok(forever.clone()));
    assert_eq!(sh("sleep 9999999999d 1"), Ok(forever));
}

#[test]
fn refuses_what_it_cannot_run() {
    let cases = [
        ("curl -s http://web/healthz", "curl"),
        ("echo ok; ls /data | wc -l", "ls"),
        ("echo ok | tee log", "| (pipe)"),
        ("echo ok > /tmp/log", "> (redirection)"),
        ("echo $HOME", "$HOME (variable)"),
        ("echo ${X:-1}", "${...} (variable)"),
        ("echo $(date)", "$(...) (command substitution)"),
        ("echo `date`", "` (command substitution)"),
        ("N=1 echo", "N=1 (variable)"),
        ("if true; then echo y; fi", "if"),
        ("echo *", "* (filename glob)"),
        ("sleep 1 &", "& (background job)"),
        ("(echo a)", "( (subshell)"),
        ("$? x", "$?"),
        ("echo -ne 'a\\n'", "echo -e"),
        // Refused even where it would never run, so a lesson never depends on luck.
        ("false && wget x", "wget"),
    ];
    for (script, command) in cases {
        assert_eq!(sh(script), refused(command), "{script}");
    }
    let message = unsupported("curl").to_string();
    assert!(
        message.starts_with("curl: not available in the embedded cluster"),
        "{message}"
    );
    assert!(message.contains("echo, sleep, exit, true and false") && message.contains("busybox"));
}

#[test]
fn syntax_errors() {
    let cases = [
        ("echo \"oops", "unterminated quoted string"),
        ("echo 'oops", "unterminated quoted string"),
        ("; echo", "unexpected \";\""),
        ("echo a;;", "unexpected \";;\""),
        ("echo a &&", "unexpected end of file"),
        ("|| echo", "unexpected \"||\""),
        ("echo a && ; echo b", "unexpected \";\""),
    ];
    for (script, message) in cases {
        assert_eq!(sh(script), Err(syntax(message)), "{script}");
    }
}

#[test]
fn odd_input_never_panics() {
    #[rustfmt::skip]
    let odd = [
        "\\", "$", "'", "\"", "echo \\", "echo $", "echo \"\\", "\u{0}", ";;;", "&&||", "#",
        "\n\n", "echo -", "sleep .", "sleep 1.2.3", "exit ''", "echo é\u{301}ü", "echo a\r",
        "\t", "echo ''\"\"", "a=", "=a", "sleep 1e3", "sleep -1", "sleep 5x", "\\\n",
    ];
    for script in odd {
        let _ = sh(script);
        let _ = argv(&[script, script]);
    }
}
