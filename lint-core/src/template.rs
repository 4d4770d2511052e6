//! Unrendered templates: Helm / Go templates (`{{ .Values.x }}`), envsubst placeholders
//! (`${VAR}`, `$VAR`) and `@VAR@` markers. Such a file is not what reaches the API server, so
//! pvlint says once per file how to render it first instead of reporting the placeholders as
//! invalid values or the template syntax as YAML errors.

/// What kind of template a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Helm charts and other Go templates.
    Go,
    /// envsubst-style `${VAR}` / `$VAR`.
    Env,
    /// `@VAR@` markers replaced by sed in build scripts.
    At,
    /// Go `fmt` verbs (`%s`, `%d`) that test code fills with `fmt.Sprintf`.
    Printf,
    /// A bare word where a value of another type belongs (`storage: teststorage`): a
    /// placeholder a script replaces (sed, Ansible), as no one writes a size without a number.
    Word,
    /// A field a kustomization's `replacements` overwrite with a value from another object.
    Replacement,
    /// A ytt template or overlay (Carvel): `#@` annotations drive what it renders to.
    Ytt,
    /// An object a kustomization's patch changes: what reaches the API server is the patched
    /// object, not the one written.
    Patched,
    /// `<name>` placeholders a person fills in (a driver's sample: `"<isDefault>"`,
    /// `csi.example.com/<array_id>-fc`).
    Angle,
}

impl Kind {
    /// How to render it, for the finding's help.
    pub fn how_to_render(self) -> &'static str {
        match self {
            Kind::Go => "render it first, e.g. `helm template RELEASE CHART | pvlint lint -`",
            Kind::Env => "render it first, e.g. `envsubst < FILE | pvlint lint -`",
            Kind::At => "render it first with the script that replaces the @VAR@ markers, then `pvlint lint -`",
            Kind::Printf => "lint what the program that fills in the %s / %d placeholders writes out",
            Kind::Word => "lint the file the script that fills in its placeholders writes out",
            Kind::Replacement => "lint the rendered overlay, e.g. `kubectl kustomize DIR | pvlint lint -`",
            Kind::Ytt => "render it first, e.g. `ytt -f DIR | pvlint lint -`",
            Kind::Patched => "lint the rendered overlay, e.g. `kubectl kustomize DIR | pvlint lint -`",
            Kind::Angle => "fill in the <...> placeholders, then lint the result",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Go => "Helm/Go template ({{ ... }})",
            Kind::Env => "envsubst template (${VAR})",
            Kind::At => "template with @VAR@ markers",
            Kind::Printf => "template with Go fmt placeholders (%s, %d)",
            Kind::Word => "template with placeholder words",
            Kind::Replacement => {
                "Kustomize replacement target (the kustomization writes this field)"
            }
            Kind::Ytt => "ytt template (#@ annotations)",
            Kind::Patched => "object a Kustomize patch changes",
            Kind::Angle => "sample with <...> placeholders to fill in",
        }
    }
}

fn ident(s: &str) -> usize {
    s.char_indices()
        .take_while(|(i, c)| c.is_ascii_alphabetic() || *c == '_' || (*i > 0 && c.is_ascii_digit()))
        .count()
}

/// A Go `fmt` verb (`%s`, `%d`, `%v`, `%q`, `%[1]s`, `%03d`) in `text`.
fn printf_verb(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'%' {
            return false;
        }
        let mut j = i + 1;
        // An explicit argument index, flags, width.
        if b.get(j) == Some(&b'[') {
            while j < b.len() && b[j] != b']' {
                j += 1;
            }
            j += 1;
        }
        while j < b.len() && matches!(b[j], b'-' | b'+' | b'#' | b' ' | b'0'..=b'9') {
            j += 1;
        }
        matches!(b.get(j), Some(b's' | b'd' | b'v' | b'q'))
            && b.get(j + 1).is_none_or(|n| !n.is_ascii_alphanumeric())
    })
}

/// Whether a plain scalar where a quantity or number belongs is a bare placeholder word:
/// letters (and `-`, `_`), no digit at all, as no size or count is written. (A quoted word is
/// taken as written.)
pub fn placeholder_word(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
        && text.len() >= 3
}

/// The kind of placeholder in a scalar value, if any.
pub fn in_value(text: &str) -> Option<Kind> {
    // Every kind below starts at one of these bytes; most values hold none of them.
    if !text
        .bytes()
        .any(|b| matches!(b, b'{' | b'$' | b'%' | b'@' | b'<'))
    {
        return None;
    }
    if let Some(i) = text.find("{{") {
        if text[i..].contains("}}") {
            return Some(Kind::Go);
        }
    }
    let mut rest = text;
    while let Some(i) = rest.find("${") {
        let after = &rest[i + 2..];
        let n = ident(after);
        if n > 0 && after[n..].starts_with(['}', ':', '-', '=', '?', '+']) && after.contains('}') {
            return Some(Kind::Env);
        }
        rest = &rest[i + 2..];
    }
    if let Some(v) = text.strip_prefix('$') {
        if !v.is_empty() && ident(v) == v.len() {
            return Some(Kind::Env);
        }
    }
    if printf_verb(text) {
        return Some(Kind::Printf);
    }
    let mut rest = text;
    while let Some(i) = rest.find('@') {
        let after = &rest[i + 1..];
        let n = ident(after);
        if n > 0 && after[n..].starts_with('@') {
            return Some(Kind::At);
        }
        rest = after;
    }
    if angle_placeholder(text) {
        return Some(Kind::Angle);
    }
    None
}

/// A `<name>` placeholder in a value: `<`, a letter, then letters, digits, `_`, `-` or `.`, then
/// `>`, with a capital, `_`, `-` or `.` in the name or the whole value the placeholder (so
/// `<isDefault>`, `<array_id>`, `<name>` as a whole value; not an HTML tag inside text such as
/// `<br>`); or a whole value of two or more words in angle brackets (`<nfs server ip>`). No field a Kubernetes object carries holds such a value: a name, a class, a
/// quantity or a label key with `<` is refused by the API server.
fn angle_placeholder(text: &str) -> bool {
    // A whole value of words in angle brackets, spaces allowed (`<nfs server ip>`, `<your
    // bucket>`): a person's note of what to write there.
    if let Some(inner) = text
        .trim()
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
    {
        let words = inner.split(' ').filter(|w| !w.is_empty()).count();
        if words >= 2
            && inner.starts_with(|c: char| c.is_ascii_alphabetic())
            && inner
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.' | '/'))
        {
            return true;
        }
    }
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let n = after
            .char_indices()
            .take_while(|(k, c)| {
                c.is_ascii_alphabetic()
                    || (*k > 0 && (c.is_ascii_digit() || matches!(c, '_' | '-' | '.')))
            })
            .count();
        // `<none>` and `<unset>` are what kubectl prints for an empty field (get, describe),
        // not a value to fill in.
        if n >= 2 && after[n..].starts_with('>') && !matches!(&after[..n], "none" | "unset") {
            let name = &after[..n];
            let whole = text.trim() == format!("<{name}>");
            if whole
                || name.contains(|c: char| c.is_ascii_uppercase() || matches!(c, '_' | '-' | '.'))
            {
                return true;
            }
        }
        rest = after;
    }
    false
}

/// The kind of placeholder in a map key, if any: as in a value, but for a bare `$word`, which
/// as a key is JSON Schema's (`$schema`, `$ref`: fields of a CustomResourceDefinition's
/// `openAPIV3Schema`, apiextensions' JSONSchemaProps) or a strategic-merge directive
/// (`$patch`, `$retainKeys`), not an envsubst variable.
pub fn in_key(text: &str) -> Option<Kind> {
    if text.starts_with('$') && ident(&text[1..]) == text.len() - 1 {
        return None;
    }
    in_value(text)
}

/// The first ytt annotation (`#@ load(...)`, `#@overlay/match ...`, `#@data/values`) of a
/// text, 1-based line and column: a ytt file is a template whatever it parses to.
pub fn ytt_annotation(text: &str) -> Option<(u32, u32)> {
    text.lines().enumerate().find_map(|(n, line)| {
        let t = line.trim_start();
        (t.starts_with("#@ ")
            || t.starts_with("#@overlay/")
            || t.starts_with("#@data/")
            || t.starts_with("#@yaml/")
            || t.starts_with("#@template/")
            || t == "#@")
            .then(|| (n as u32 + 1, (line.len() - t.len()) as u32 + 1))
    })
}

/// The first marker of a template that breaks YAML (`{{ }}`, `@VAR@`; envsubst's `${VAR}`
/// never does) in a source's text, outside `#` comment lines: its kind and 1-based line and
/// column. Used when the text does not parse as YAML.
pub fn in_text(text: &str) -> Option<(Kind, u32, u32)> {
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') {
            continue;
        }
        // envsubst's and <...> placeholders never break YAML.
        if let Some(kind) = in_value(line).filter(|k| !matches!(k, Kind::Env | Kind::Angle)) {
            let col = match kind {
                Kind::Go => line.find("{{"),
                Kind::Env => line.find('$'),
                Kind::At => line.find('@'),
                Kind::Printf => line.find('%'),
                Kind::Word | Kind::Replacement | Kind::Ytt | Kind::Angle | Kind::Patched => None,
            }
            .unwrap_or(0);
            return Some((kind, n as u32 + 1, line[..col].chars().count() as u32 + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ytt_annotations() {
        assert_eq!(
            ytt_annotation("#@ load(\"@ytt:overlay\", \"overlay\")\n---\n"),
            Some((1, 1))
        );
        assert_eq!(
            ytt_annotation("a: 1\n  #@overlay/match by=overlay.all\n"),
            Some((2, 3))
        );
        assert_eq!(ytt_annotation("# @ a comment\nb: '#@ not'\n"), None);
    }

    #[test]
    fn placeholders() {
        assert_eq!(in_value("{{ .Values.size }}"), Some(Kind::Go));
        assert_eq!(in_value("{{- include \"x\" . }}"), Some(Kind::Go));
        assert_eq!(in_value("${PVC_SIZE}"), Some(Kind::Env));
        assert_eq!(in_value("${SIZE:-10Gi}"), Some(Kind::Env));
        assert_eq!(in_value("data-${APP}"), Some(Kind::Env));
        assert_eq!(in_value("$STORAGE_CLASS"), Some(Kind::Env));
        assert_eq!(in_value("@STS_NAME@"), Some(Kind::At));
        // <...> placeholders of drivers' samples (dell/csi-powermax, dell/csi-unity).
        assert_eq!(in_value("<isDefault>"), Some(Kind::Angle));
        assert_eq!(
            in_value("csi-unity.dellemc.com/<array_id>-fc"),
            Some(Kind::Angle)
        );
        assert_eq!(in_value("<name>"), Some(Kind::Angle));
        // A whole value of words (justmeandopensource/kubernetes yamls/4-pv-nfs.yaml).
        assert_eq!(in_value("<nfs server ip>"), Some(Kind::Angle));
        assert_eq!(in_value("a <b c> d"), None);
        assert_eq!(in_value("line one<br>line two"), None);
        assert_eq!(in_value("a < b > c"), None);
        assert_eq!(in_value("<"), None);
        // kubectl's word for an empty field.
        assert_eq!(in_value("<none>"), None);
        assert_eq!(in_value("%s"), Some(Kind::Printf));
        assert_eq!(in_value("pvc-%s"), Some(Kind::Printf));
        assert_eq!(in_value("%[1]s"), Some(Kind::Printf));
        assert_eq!(in_value("%03d"), Some(Kind::Printf));
        assert!(placeholder_word("teststorage"));
        assert!(placeholder_word("volume-capacity"));
        assert!(!placeholder_word("10Gi") && !placeholder_word("1Gi") && !placeholder_word("Gi"));
        for plain in [
            "10Gi",
            "gp3",
            "user@example.com",
            "$",
            "a$b",
            "{not a template}",
            "${",
            "price: $5",
            "50%",
            "100%-used",
            "%start",
        ] {
            assert_eq!(in_value(plain), None, "{plain}");
        }
        assert_eq!(
            in_text("# {{ comment }}\nname: {{ .Release.Name }}\n"),
            Some((Kind::Go, 2, 7))
        );
        assert_eq!(in_text("kind: Pod\n"), None);
        // ${VAR} in a shell script never breaks YAML: not a reason to drop parse errors.
        assert_eq!(in_text("data:\n  run.sh: mkdir ${dir}\n"), None);
    }
}
