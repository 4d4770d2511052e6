//! What happens to the findings of the rules before they are reported: graded by certainty,
//! settled by the user's configuration and suppressions, one per root cause, sorted, and
//! deduplicated across apply sets.

use std::collections::HashSet;

use super::Annotations;
use crate::finding::{Consequence, Severity};
use crate::index;
use crate::options::Options;
use crate::rules::Reported;
use crate::sim;
use crate::source::Source;
use crate::string::Str;

/// Drops findings that repeat the one before them but for their apply set (the findings are
/// sorted).
pub(super) fn dedup_across_sets(findings: &mut Vec<Reported>) {
    findings.dedup_by(|later, earlier| {
        let set = later.apply_set;
        later.apply_set = earlier.apply_set;
        let same = later == earlier;
        later.apply_set = set;
        same
    });
}

/// The rules' configured severities, the files rendered input came from, and suppressions
/// (`pvlint.io/ignore`), applied to findings about the objects the annotations were read
/// from: (kept, suppressed).
pub(super) fn settle(
    annotations: &Annotations,
    options: &Options,
    mut findings: Vec<Reported>,
) -> (Vec<Reported>, Vec<Reported>) {
    grade(&mut findings);
    for f in &mut findings {
        if let Some(sev) = options
            .rules
            .get(f.rule.as_str())
            .and_then(|l| l.severity())
        {
            f.severity = sev;
        }
    }
    annotations.origins.annotate(&mut findings);
    annotations.ignored.split(findings)
}

/// Certainty decides severity: an error says the input fails (or loses data) on every cluster
/// consistent with it. A finding whose consequence rests on an assumption about the cluster
/// (a class or driver the input does not define, a default class, what else exists there)
/// is at most a warning, whatever the rule says; with that knowledge given (`--complete`,
/// `--cluster-state`, `--against-cluster`, `--default-class`), the same outcome is an error.
/// Rules state their assumptions; this is the one place that grades them. A rule's configured
/// severity (`.pvlint.yaml`) is applied after it, as the user's word.
pub(super) fn grade(findings: &mut [Reported]) {
    for f in findings {
        if f.severity == Severity::Error && f.rests_on_assumptions() {
            f.severity = Severity::Warning;
        }
    }
}

/// A finding that rests on objects of another file of its apply set rests on those files
/// being applied together, which is how pvlint groups a directory (or a kustomization) by
/// default, not something the input says: an assumption, named in the finding.
///
/// `kubectl apply` cannot create an object that has only `metadata.generateName` ("cannot
/// use generate name with apply"; such files are made for `kubectl create`): a finding that
/// rests on one in another file never happens under `kubectl apply -f DIR`, and is dropped.
pub(super) fn across_files(sources: &[Source], ix: &index::Index, findings: &mut Vec<Reported>) {
    let generated =
        |source: usize, document: usize| ix.generate_named.contains(&(source, document));
    findings.retain(|f| {
        let here = (f.location.source, f.location.document);
        let across = f.related.iter().filter(|r| r.location.source != here.0);
        let mut involved = across
            .map(|r| (r.location.source, r.location.document))
            .peekable();
        involved.peek().is_none()
            || !(generated(here.0, here.1) || involved.any(|(s, d)| generated(s, d)))
    });
    for f in findings.iter_mut() {
        let here = f.location.source;
        let Some(other) = f.related.iter().find(|r| r.location.source != here) else {
            continue;
        };
        let a = sim::Assumption::AppliedTogether {
            file: Str::from(sources[here].name.as_str()),
            other: Str::from(other.location.file.as_str()),
        };
        match &mut f.consequence {
            Some(c) => c.assumptions.push(Str::from(a.describe())),
            None => {
                f.consequence = Some(Box::new(
                    Consequence::said(Str::default()).assuming(vec![Str::from(a.describe())]),
                ))
            }
        }
    }
}

/// An unrendered template gets `unrendered-template` and nothing else: a document with a
/// placeholder in a field pvlint reads, and every document of a file whose template syntax
/// breaks YAML, are not what the cluster gets, so what pvlint would say of them as written
/// is not about the cluster.
pub(super) fn only_the_note_on_templates(ix: &index::Index, findings: &mut Vec<Reported>) {
    let (docs, files) = (&ix.template_docs, &ix.template_files);
    if docs.is_empty() && files.is_empty() {
        return;
    }
    findings.retain(|f| {
        let l = &f.location;
        f.rule == "unrendered-template"
            || !(files.contains(&l.source) || docs.contains(&(l.source, l.document)))
    });
}

/// One finding per root cause: a predicted consequence gives way to the rule that reports
/// the cause, and only the first consequence of a cause is kept.
pub(super) fn one_per_cause(findings: &mut Vec<Reported>) {
    let causes: HashSet<sim::CauseKey> = findings
        .iter()
        .filter_map(|f| f.cause.as_deref())
        .filter(|(_, role)| *role == sim::Role::Cause)
        .map(|(k, _)| k.clone())
        .collect();
    let mut seen = HashSet::new();
    findings.retain(|f| match f.cause.as_deref() {
        Some((key, sim::Role::Consequence)) => !causes.contains(key) && seen.insert(key.clone()),
        _ => true,
    });
}

/// File order, line, column, severity (highest first), rule, message.
pub(super) fn sort(findings: &mut Vec<Reported>) {
    // A stable sort of the findings themselves needs scratch space for half of them (several
    // MB of 700-byte findings on a large input, at the run's peak): sort their positions
    // instead (stably, so equal findings keep the order the rules reported them in), then
    // move each finding to its place.
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&findings[a], &findings[b]);
        let ka = (a.location.source, a.location.line, a.location.column);
        let kb = (b.location.source, b.location.line, b.location.column);
        ka.cmp(&kb)
            .then(b.severity.cmp(&a.severity))
            .then(a.rule.cmp(&b.rule))
            .then(a.message.cmp(&b.message))
    });
    permute(findings, order);
    findings.dedup();
}

/// Reorders `items` so that position `i` holds what was at `order[i]` (`order` is a
/// permutation), in place: each cycle of the permutation is walked once, by swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut i = start;
        while order[i] != start {
            let next = order[i];
            items.swap(i, next);
            order[i] = i;
            i = next;
        }
        order[i] = i;
    }
}

#[cfg(test)]
mod tests {
    use super::permute;

    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        // Every permutation of five items (120), against building the result by indexing.
        fn all(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            let mut out = Vec::new();
            for p in all(n - 1) {
                for at in 0..n {
                    let mut q = p.clone();
                    q.insert(at, n - 1);
                    out.push(q);
                }
            }
            out
        }
        let perms = all(5);
        assert_eq!(perms.len(), 120);
        for order in perms {
            let mut items = vec!["a", "b", "c", "d", "e"];
            let want: Vec<&str> = order.iter().map(|&i| items[i]).collect();
            permute(&mut items, order.clone());
            assert_eq!(items, want, "order {order:?}");
        }
    }
}
