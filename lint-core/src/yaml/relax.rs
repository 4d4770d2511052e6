//! What kubectl's YAML reader accepts and saphyr-parser does not: flow content indented
//! less than the YAML spec asks.
//!
//! kubectl reads YAML with go-yaml (sigs.k8s.io/yaml, a port of libyaml), whose scanner does
//! not check the indentation of the lines that continue a quoted scalar or a flow collection:
//!
//! ```yaml
//! description: "a long text
//! that goes on at column 0"      # go-yaml: one string; saphyr-parser: "invalid indentation"
//! args: [
//!   "-c", "/etc/app.yml",
//! ]                              # go-yaml: a list; saphyr-parser: "invalid indentation"
//! ```
//!
//! Such lines are common in real manifests (CRDs generated with long quoted descriptions,
//! hand-written argument lists). The leading white space of these lines is not part of the
//! value (flow scalars fold line breaks and drop the indentation; flow collections ignore
//! white space), so indenting them further never changes what the document means. When
//! saphyr-parser refuses a document for its indentation, [`relax`] writes it out again with
//! every such line indented to the column where its quoted scalar or flow collection opened,
//! and records how far each line moved, so that positions still point into the file.

/// A document written out again, and how many columns each of its lines moved.
pub(super) struct Relaxed {
    pub(super) text: String,
    /// Columns added at the start of each line (0-based line of the document).
    pub(super) shifts: Vec<u32>,
}

/// Where the scan of a document is.
#[derive(Clone, Copy)]
enum State {
    /// Block context.
    Block,
    /// Inside a double-quoted scalar that opened at column `need`.
    Double { need: usize },
    /// Inside a single-quoted scalar that opened at column `need`.
    Single { need: usize },
    /// Inside a flow collection that opened at column `need`, `depth` brackets deep; `quote`
    /// is the quote character of a scalar open inside it.
    Flow {
        need: usize,
        depth: usize,
        quote: Option<char>,
    },
}

/// The document with its flow continuation lines indented to where their construct opened;
/// `None` when no line needs it.
pub(super) fn relax(text: &str) -> Option<Relaxed> {
    let mut out = String::with_capacity(text.len() + 256);
    let mut shifts = Vec::new();
    let mut state = State::Block;
    // Inside a block scalar (`|`, `>`): lines indented more than this column are its content.
    let mut block_scalar: Option<usize> = None;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        let blank = line.trim().is_empty();
        if let Some(parent) = block_scalar {
            if blank || indent > parent {
                out.push_str(line);
                shifts.push(0);
                continue;
            }
            block_scalar = None;
        }
        let need = match state {
            State::Block => 0,
            State::Double { need } | State::Single { need } | State::Flow { need, .. } => need,
        };
        let shift = if blank {
            0
        } else {
            need.saturating_sub(indent)
        };
        out.extend(std::iter::repeat_n(' ', shift));
        out.push_str(line);
        shifts.push(shift as u32);
        changed |= shift > 0;
        let chars: Vec<char> = line.trim_end_matches(['\n', '\r']).chars().collect();
        // Columns count from the line as written: a construct opened here opens at its own
        // column plus the shift.
        scan(&chars, indent, shift, &mut state, &mut block_scalar);
    }
    changed.then_some(Relaxed { text: out, shifts })
}

/// Follows one line (`chars`, indented by `indent` spaces, moved `shift` columns) through the
/// scanner's states.
fn scan(
    chars: &[char],
    indent: usize,
    shift: usize,
    state: &mut State,
    block_scalar: &mut Option<usize>,
) {
    let at = |i: usize| chars.get(i).copied();
    let space_or_end = |i: usize| at(i).is_none_or(|c| c == ' ' || c == '\t');
    // In block context: whether a node starts here (so a quote or bracket opens one), and
    // the column of the key or `-` that owns what follows (a block scalar's parent).
    let mut node_start = true;
    let mut owner = indent;
    let mut token = indent;
    let mut i = indent;
    while i < chars.len() {
        let c = chars[i];
        match *state {
            State::Block => {
                if node_start {
                    match c {
                        ' ' | '\t' => {}
                        '-' | '?' if space_or_end(i + 1) => owner = i,
                        '"' => {
                            *state = State::Double { need: i + shift };
                            token = i;
                            node_start = false;
                        }
                        '\'' => {
                            *state = State::Single { need: i + shift };
                            token = i;
                            node_start = false;
                        }
                        '[' | '{' => {
                            *state = State::Flow {
                                need: i + shift,
                                depth: 1,
                                quote: None,
                            };
                            node_start = false;
                        }
                        '|' | '>' => {
                            // A block scalar header: its content follows on the next lines.
                            if chars[i + 1..]
                                .iter()
                                .take_while(|c| !matches!(c, ' ' | '\t'))
                                .all(|c| c.is_ascii_digit() || *c == '+' || *c == '-')
                            {
                                *block_scalar = Some(owner);
                            }
                            return;
                        }
                        '#' => return,
                        '&' | '!' => {
                            // An anchor or a tag: the node itself follows.
                            while i < chars.len() && !matches!(chars[i], ' ' | '\t') {
                                i += 1;
                            }
                            continue;
                        }
                        _ => {
                            token = i;
                            node_start = false;
                        }
                    }
                } else if c == ':' && space_or_end(i + 1) {
                    // What came before was a key: its value starts here.
                    owner = token;
                    node_start = true;
                } else if c == '#' && i > 0 && matches!(chars[i - 1], ' ' | '\t') {
                    return;
                }
            }
            State::Double { .. } => match c {
                '\\' => i += 1,
                '"' => *state = State::Block,
                _ => {}
            },
            State::Single { .. } => {
                if c == '\'' {
                    if at(i + 1) == Some('\'') {
                        i += 1;
                    } else {
                        *state = State::Block;
                    }
                }
            }
            State::Flow { need, depth, quote } => match quote {
                Some('"') => match c {
                    '\\' => i += 1,
                    '"' => {
                        *state = State::Flow {
                            need,
                            depth,
                            quote: None,
                        }
                    }
                    _ => {}
                },
                Some(_) => {
                    if c == '\'' {
                        if at(i + 1) == Some('\'') {
                            i += 1;
                        } else {
                            *state = State::Flow {
                                need,
                                depth,
                                quote: None,
                            };
                        }
                    }
                }
                None => {
                    // A quote opens a scalar only where a token starts.
                    let token_start = chars[..i]
                        .iter()
                        .rev()
                        .find(|c| !matches!(c, ' ' | '\t'))
                        .is_none_or(|p| matches!(p, '[' | '{' | ',' | ':' | '?'));
                    match c {
                        '"' | '\'' if token_start => {
                            *state = State::Flow {
                                need,
                                depth,
                                quote: Some(c),
                            }
                        }
                        '[' | '{' => {
                            *state = State::Flow {
                                need,
                                depth: depth + 1,
                                quote: None,
                            }
                        }
                        ']' | '}' if depth == 1 => {
                            *state = State::Block;
                            node_start = false;
                        }
                        ']' | '}' => {
                            *state = State::Flow {
                                need,
                                depth: depth - 1,
                                quote: None,
                            }
                        }
                        '#' if i == 0 || matches!(chars[i - 1], ' ' | '\t') => return,
                        _ => {}
                    }
                }
            },
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::relax;

    #[test]
    fn continuation_lines_move_to_where_their_construct_opened() {
        let r = relax("a:\n  k: \"hello\nworld\"\n  args: [\n \"-c\",\n  ]\n").unwrap();
        assert_eq!(
            r.text,
            "a:\n  k: \"hello\n     world\"\n  args: [\n        \"-c\",\n        ]\n"
        );
        assert_eq!(r.shifts, [0, 0, 5, 0, 7, 6]);
    }

    #[test]
    fn block_scalars_comments_and_plain_quotes_are_left_alone() {
        for text in [
            "a: |\n  x: \"open\nb: 1\n",
            "a: it's # \"not open\nb: 1\n",
            "a: \"one line\"\nb: [1, 2]\n",
            "- k: >-\n    [not a flow\n- j: 2\n",
        ] {
            assert!(relax(text).is_none(), "{text}");
        }
    }
}
