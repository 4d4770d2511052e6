//! The YAML stage's tests: splitting, typing, merge keys, duplicates, bombs, positions.

use super::*;
use crate::node::{ScalarKind, Value};
use crate::source::Pos;

#[test]
fn splits_and_keeps_lines() {
    let (docs, issues) = parse_stream("a: 1\n---\nb: [2\n---\n# only a comment\n---\nc: 3\n");
    assert_eq!(docs.len(), 3);
    assert!(docs[0].root.is_some());
    assert!(docs[1].root.is_none());
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind, IssueKind::Syntax);
    assert_eq!(issues[0].document, 1);
    let c = docs[2].root.as_ref().unwrap().entry("c").unwrap();
    assert_eq!(c.key_span.start, Pos { line: 7, column: 1 });
    assert_eq!(c.value.span.start, Pos { line: 7, column: 4 });
}

/// apimachinery pkg/util/yaml/decoder.go: a stream that starts with `{` is JSON, decoded
/// value after value (`kubectl ... -o json` on several files prints such a stream).
#[test]
fn a_stream_of_json_objects_is_every_object() {
    let text = "{\n  \"a\": \"}{\\\"\",\n  \"b\": [1, {}]\n}\n{\n  \"c\": 3\n}\n  {\"d\": 4}\n";
    let (docs, issues) = parse_stream(text);
    assert_eq!(issues, vec![]);
    assert_eq!(docs.len(), 3);
    let root = |i: usize| docs[i].root.as_ref().unwrap();
    assert_eq!(root(0).get("a").unwrap().as_scalar().unwrap().text, "}{\"");
    let c = root(1).entry("c").unwrap();
    assert_eq!(c.key_span.start, Pos { line: 6, column: 3 });
    assert_eq!(
        root(2).entry("d").unwrap().key_span.start,
        Pos { line: 8, column: 4 }
    );
    // kubectl 1.36 (apimachinery's YAMLOrJSONDecoder): JSON values one after another,
    // wherever they start; after one value a failing one switches the rest to YAML; after
    // two, a failing one ends the file.
    let read = |text: &str| {
        let (docs, issues) = parse_stream(text);
        let objects = docs.iter().filter(|d| d.root.is_some()).count();
        (objects, issues.iter().any(|i| i.kind.fails()))
    };
    assert_eq!(read("{\"a\": 1}{\"b\": 2}\n"), (2, false));
    assert_eq!(read("{\"a\": 1}\n5\n"), (2, false));
    assert_eq!(read("{\"a\": 1\n{\"b\": 2}\n"), (0, true));
    assert_eq!(read("{\"a\": 1}\n---\nb: 2\n"), (2, false));
    assert_eq!(read("{\"a\": 1}\n{\"b\": 2}\n---\nc: 3\n"), (2, true));
    // JSON with comments is no JSON, nor YAML kubectl reads.
    assert_eq!(read("{\n  \"a\": 1, // note\n  \"b\": 2\n}\n"), (0, true));
    assert_eq!(parse_stream("{a: 1}\n---\n{b: 2}\n").0.len(), 2);
}

/// Merge keys (plain or tagged `!!merge`), explicit keys over merged ones, and a repeated
/// key whose last value wins, as kubectl (go-yaml v2, non-strict) reads them.
#[test]
fn merge_keys_and_duplicates() {
    let (docs, issues) =
        parse_stream("base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3\n  q: 4\nt:\n  !!merge <<: *b\n");
    let root = docs[0].root.as_ref().unwrap();
    let m = root.get("m").unwrap();
    assert_eq!(m.get("p").unwrap().as_scalar().unwrap().text, "1");
    assert_eq!(m.get("q").unwrap().as_scalar().unwrap().text, "4");
    assert_eq!(root.at("t.q").unwrap().as_scalar().unwrap().text, "2");
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind, IssueKind::DuplicateKey);
    assert!(!issues[0].kind.fails());
    assert_eq!(issues[0].span.start.line, 5);
}

/// A key written twice with the same value changes nothing: no issue.
#[test]
fn a_repeated_key_with_the_same_value_is_no_issue() {
    let (docs, issues) = parse_stream("a: 1\nb: {x: [1, 2]}\na: 1\nb:\n  x: [1, 2]\n");
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        docs[0]
            .root
            .as_ref()
            .unwrap()
            .get("a")
            .unwrap()
            .as_scalar()
            .unwrap()
            .text,
        "1"
    );
    let (_, issues) = parse_stream("a: 1\na: \"1\"\n");
    assert_eq!(issues.len(), 1, "an int and a string differ");
}

/// Plain keys are typed as values are, and written as kubectl writes them into JSON.
#[test]
fn typed_keys_become_kubectls_json_keys() {
    // `on` and `y` are both the key "true": the second replaces the first.
    let (docs, issues) = parse_stream("on: a\ny: b\n0x10: c\n\"on\": d\n");
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].kind, IssueKind::DuplicateKey);
    let root = docs[0].root.as_ref().unwrap();
    let keys: Vec<&str> = root
        .as_map()
        .unwrap()
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    assert_eq!(keys, ["true", "16", "on"]);
    assert_eq!(root.get("true").unwrap().as_str(), Some("b"));
    let (docs, _) = parse_stream("~: a\n");
    assert!(docs[0].root.is_none());
    let (docs, issues) = parse_stream("a: .inf\n");
    assert!(docs[0].root.is_none() && issues[0].kind.fails());
    assert!(parse_stream("a: '.inf'\n").1.is_empty());
}

#[test]
fn billion_laughs_is_bounded() {
    let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let mut prev = 'a';
    for c in 'b'..='j' {
        s.push_str(&format!(
            "{c}: &{c} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
        prev = c;
    }
    let (docs, issues) = parse_stream(&s);
    assert!(docs[0].root.is_none());
    assert_eq!(issues[0].kind, IssueKind::Limit);
}

#[test]
fn deep_nesting_is_refused() {
    for s in [
        "[".repeat(10_000) + &"]".repeat(10_000),
        "a:\n".to_string() + &"- ".repeat(5_000) + "x\n",
    ] {
        let (docs, issues) = parse_stream(&s);
        assert!(docs[0].root.is_none());
        assert_eq!(issues[0].kind, IssueKind::Limit, "{}", issues[0].message);
    }
    // Unclosed: still an error, never a crash.
    let (docs, issues) = parse_stream(&"{".repeat(100_000));
    assert!(docs[0].root.is_none());
    assert!(!issues.is_empty());
}

#[test]
fn json_with_tabs() {
    let (docs, issues) = parse_stream("{\n\t\"kind\": \"PersistentVolume\",\n\t\"n\": 1\n}\n");
    assert!(issues.is_empty());
    let root = docs[0].root.as_ref().unwrap();
    assert_eq!(root.get("kind").unwrap().as_str(), Some("PersistentVolume"));
    assert_eq!(
        root.get("n").unwrap().as_scalar().unwrap().kind,
        ScalarKind::Int
    );
}

/// Runs the fast path alone on every document of `text`; where it accepts one, the
/// result must be exactly saphyr-parser's. Returns (documents accepted, documents).
fn fast_vs_saphyr(text: &str) -> (usize, usize) {
    let (mut fast_b, mut slow_b) = (Builder::default(), Builder::default());
    let (mut accepted, mut total) = (0, 0);
    for (i, chunk) in split_documents(text).iter().enumerate() {
        if is_blank(chunk.text) {
            continue;
        }
        // The fast path only reads text that starts a line (see `parse_chunk`).
        if chunk.first_column != 0 {
            continue;
        }
        total += 1;
        fast_b.reset(chunk.first_line, i);
        if fast::parse(chunk.text, chunk.first_line, &mut fast_b).is_err() {
            continue;
        }
        accepted += 1;
        let slow = parse_chunk(
            &mut slow_b,
            chunk.text,
            (chunk.first_line, chunk.first_column),
            i,
            false,
        );
        if (&fast_b.root, &fast_b.issues) != (&slow.0, &slow.1) {
            let f = format!("{:#?}", (&fast_b.root, &fast_b.issues));
            let s = format!("{:#?}", (&slow.0, &slow.1));
            let at = f.lines().zip(s.lines()).take_while(|(a, b)| a == b).count();
            let ctx = |t: &str| {
                t.lines()
                    .skip(at.saturating_sub(12))
                    .take(16)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            panic!(
                "fast path differs from saphyr-parser on:\n{}\n--- fast:\n{}\n--- saphyr:\n{}",
                chunk.text,
                ctx(&f),
                ctx(&s)
            );
        }
    }
    (accepted, total)
}

fn inputs() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [root.join("tests/fixtures"), root.join("../examples")] {
        for sub in std::fs::read_dir(dir).unwrap() {
            let sub = sub.unwrap().path();
            if sub.is_dir() {
                for f in std::fs::read_dir(sub).unwrap() {
                    files.push(f.unwrap().path());
                }
            }
        }
    }
    files.sort();
    let mut texts: Vec<String> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "yaml" || e == "json"))
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    texts.push(SHAPES.to_string());
    // Every document again as JSON: pretty (2 and 4 spaces) and on one line.
    let mut json = Vec::new();
    for t in &texts {
        for d in parse_stream(t).0 {
            let Some(root) = d.root else { continue };
            let v = to_json(&root);
            let pretty = serde_json::to_string_pretty(&v).unwrap();
            let wide: String = pretty
                .lines()
                .map(|l| {
                    let n = l.len() - l.trim_start().len();
                    format!("{}{}\n", " ".repeat(2 * n), l.trim_start())
                })
                .collect();
            json.push(format!("{pretty}\n"));
            json.push(wide);
            json.push(v.to_string());
        }
    }
    texts.extend(json);
    // The same with CRLF line breaks.
    let crlf: Vec<String> = texts.iter().map(|t| t.replace('\n', "\r\n")).collect();
    texts.extend(crlf);
    texts
}

fn to_json(n: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &n.value {
        Value::Scalar(s) => match s.kind {
            ScalarKind::Null => J::Null,
            ScalarKind::Bool(b) => J::Bool(b),
            ScalarKind::Int | ScalarKind::Float => s
                .text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map_or_else(|| J::String(s.text.to_string()), J::Number),
            ScalarKind::Str => J::String(s.text.to_string()),
        },
        Value::Seq(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(es) => J::Object(
            es.iter()
                .map(|e| (e.key.to_string(), to_json(&e.value)))
                .collect(),
        ),
    }
}

/// Shapes the fast path reads, and near misses it must leave alone.
const SHAPES: &str = "a: 1\nb:\n  c: x y  \n  d: [p, q]\n  e: {f: g, h: i}\n  j:\n  - k\n  - l: m\n    n: o\n  p:\nq: \"s\"\nr: []\ns: {}\n---\n# c\na:   # hi\n  - \n  -\n    b: 1\n  - - x\n    - y\nc: http://x:80/a#b # c\n\"d e\": 'it''s'\n---\n- a\n- b:\n- c: {x: [1, {y: z}]}\n-\n---\n{\"a\":1, \"b\": [\"c\", \"d\\\"e\"]}\n---\nk: -1\nl: -.5\nm: ~\nn: 0x1F\no: yes\np: \"yes\"\nq: 1e3\nr: a:b\ns: é ü\nt: [é, {ü: ö}]\n<<: {u: 1}\nu: 2\nv: 1\nv: 2\n---\n  a: 1\n  b:\n  - 2\n---\nplain scalar\n---\n[1, 2]\n---\n\"q\"\n";

#[test]
fn fast_path_matches_saphyr() {
    let mut accepted = 0;
    let mut total = 0;
    for t in inputs() {
        let (a, n) = fast_vs_saphyr(&t);
        accepted += a;
        total += n;
    }
    // Nearly every real manifest takes the fast path.
    assert!(
        accepted * 10 >= total * 9,
        "{accepted} of {total} documents"
    );
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INSERTS: &[&str] = &[
    ":", ": ", " :", "[", "]", "{", "}", ",", ", ", "&a ", "*a", "!!str ", "- ", "-", "-1", "\t",
    "\"", "'", "''", "\\", "\\n", "\\u00e9", "#", " #", " # c", "? ", "|", ">", "%", "@", "`",
    "\r", "é", "\u{85}", "\u{feff}", "\u{2028}", " ", "  ", "\n", "\n  ", "\n- ", "---", "...",
    "<<: ", "~", "null", "yes", "0x", "a", "a: b", "{a: b}", "[a]", "{}", "[]",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(9) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2..=4 => {
                let ins = INSERTS[rng.below(INSERTS.len())];
                let l = &mut lines[i];
                let cut = l
                    .char_indices()
                    .map(|(b, _)| b)
                    .nth(rng.below(l.chars().count() + 1))
                    .unwrap_or(l.len());
                l.insert_str(cut, ins);
            }
            5 => lines[i] = format!("{}{}", " ".repeat(1 + rng.below(3)), lines[i]),
            6 => {
                let n = lines[i].len() - lines[i].trim_start_matches(' ').len();
                let cut = n.min(1 + rng.below(3));
                lines[i] = lines[i][cut..].to_string();
            }
            7 => {
                // Delete one character.
                let l = &mut lines[i];
                if let Some((b, _)) = l.char_indices().nth(rng.below(l.chars().count() + 1)) {
                    l.remove(b);
                }
            }
            _ => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
        }
    }
    let mut out = lines.join("\n");
    if rng.below(2) == 0 {
        out.push('\n');
    }
    out
}

/// `PVLINT_FUZZ_ROUNDS` and `PVLINT_FUZZ_SEED` run it longer or elsewhere.
#[test]
fn fast_path_matches_saphyr_on_mutations() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let rounds = env("PVLINT_FUZZ_ROUNDS", 30_000) as usize;
    let texts = inputs();
    let mut rng = Rng(env("PVLINT_FUZZ_SEED", 0x9E37_79B9_7F4A_7C15) | 1);
    let mut accepted = 0;
    for round in 0..rounds {
        let base = &texts[round % texts.len()];
        let mut m = mutate(base, &mut rng);
        if rng.below(4) == 0 {
            m = mutate(&m, &mut rng);
        }
        accepted += fast_vs_saphyr(&m).0;
    }
    assert!(accepted * 3 > rounds, "{accepted} of {rounds}");
}

/// Random documents from YAML-ish pieces: structures the fixtures do not have.
#[test]
fn fast_path_matches_saphyr_on_random_documents() {
    const PIECES: &[&str] = &[
        "a",
        "b",
        "key",
        "<<",
        "1",
        "-1",
        "yes",
        "~",
        "x y",
        "a:b",
        "http://h/p#f",
        "é",
        ": ",
        ":",
        " ",
        "  ",
        "- ",
        "-",
        "[",
        "]",
        "{",
        "}",
        ", ",
        ",",
        "\"q\"",
        "\"\"",
        "'s'",
        "'it''s'",
        "\"e\\\"x\"",
        " # c",
        "#",
        "{a: b}",
        "[a, b]",
        "{}",
        "[]",
        "&x ",
        "*x",
        "!!str ",
        "|",
        "? ",
        "\t",
    ];
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let rounds = env("PVLINT_FUZZ_ROUNDS", 30_000) as usize;
    let mut rng = Rng(env("PVLINT_FUZZ_SEED", 0x2545_F491_4F6C_DD1D) | 1);
    let mut accepted = 0;
    const KEYS: &[&str] = &["a", "b", "c", "<<", "\"q\"", "'s'", "k k", "a"];
    const VALUES: &[&str] = &[
        "",
        "",
        "1",
        "x",
        "yes",
        "~",
        "\"v\"",
        "'w'",
        "[]",
        "{}",
        "[1, [2]]",
        "{p: q, r: [s]}",
        "{\"j\":1}",
        "a b ",
        "-2",
        "-",
        "x: y",
        "[a,",
        "{<<: {z: 1}}",
    ];
    for round in 0..rounds {
        let mut doc = String::new();
        let mut indent = 0usize;
        for _ in 0..1 + rng.below(8) {
            if round % 2 == 0 {
                doc.push_str(&" ".repeat(rng.below(4) * 2 + rng.below(2) * rng.below(2)));
                for _ in 0..1 + rng.below(4) {
                    doc.push_str(PIECES[rng.below(PIECES.len())]);
                }
            } else {
                // indentation near the last line's, dashes, a key, a value, a comment
                indent = match rng.below(6) {
                    0 => indent.saturating_sub(2),
                    1 => indent + 2,
                    2 => indent.saturating_sub(1 + rng.below(4)),
                    _ => indent,
                };
                doc.push_str(&" ".repeat(indent));
                for _ in 0..rng.below(3) {
                    doc.push_str(["- ", "-  ", "-"][rng.below(3)]);
                }
                if rng.below(3) > 0 {
                    doc.push_str(KEYS[rng.below(KEYS.len())]);
                    doc.push_str([": ", ":", ":  "][rng.below(3)]);
                }
                doc.push_str(VALUES[rng.below(VALUES.len())]);
                if rng.below(5) == 0 {
                    doc.push_str(["  # c", " #", "#"][rng.below(3)]);
                }
            }
            doc.push_str(if rng.below(5) == 0 { "\r\n" } else { "\n" });
        }
        accepted += fast_vs_saphyr(&doc).0;
    }
    assert!(accepted * 20 > rounds, "{accepted} of {rounds}");
}

/// Positions on very long lines (columns in characters) cost linear time.
#[test]
fn long_non_ascii_lines_are_linear() {
    let items = vec!["é"; 200_000].join(", ");
    let (docs, issues) = parse_stream(&format!("a: [{items}]\nb: c\n"));
    assert!(issues.is_empty());
    let root = docs[0].root.as_ref().unwrap();
    let last = root.get("a").unwrap().as_seq().unwrap().last().unwrap();
    assert_eq!(last.span.start.column, 5 + 3 * 199_999);
    assert_eq!(root.entry("b").unwrap().key_span.start.line, 2);
}

#[test]
fn quoted_values_are_strings() {
    let (docs, _) = parse_stream("a: \"yes\"\nb: yes\nc: !!str 5\n");
    let r = docs[0].root.as_ref().unwrap();
    assert_eq!(r.get("a").unwrap().as_str(), Some("yes"));
    assert_eq!(r.get("b").unwrap().as_str(), None);
    assert_eq!(r.get("c").unwrap().as_str(), Some("5"));
}
