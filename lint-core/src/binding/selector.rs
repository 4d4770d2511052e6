//! Label selectors, as `metav1.LabelSelectorAsSelector` builds them: `matchLabels` are
//! equality requirements, `matchExpressions` use In, NotIn, Exists, DoesNotExist. The model
//! parses them with diagnostics (an unknown operator is reported there, and the API server
//! rejects such an object), so a selector here is always well-formed.

use super::Labels;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    Equals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

impl Requirement {
    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Requirement::Equals(k, v) => labels.get(k) == Some(v),
            Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
            Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
            Requirement::Exists(k) => labels.contains_key(k),
            Requirement::DoesNotExist(k) => !labels.contains_key(k),
        }
    }
}

/// A selector: every requirement must hold. An empty selector matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LabelSelector {
    pub requirements: Vec<Requirement>,
}

impl LabelSelector {
    pub fn matches(&self, labels: &Labels) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }
}

/// The operators `matchExpressions` accepts.
pub const OPERATORS: &[&str] = &["In", "NotIn", "Exists", "DoesNotExist"];

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go TestRequirementMatches:
    /// NotIn and DoesNotExist match objects without the key.
    #[test]
    fn requirements() {
        let l = labels(&[("env", "prod"), ("tier", "db")]);
        let s = |r: Vec<Requirement>| LabelSelector { requirements: r };
        assert!(s(vec![]).matches(&l));
        assert!(s(vec![Requirement::Equals("env".into(), "prod".into())]).matches(&l));
        assert!(!s(vec![Requirement::Equals("env".into(), "dev".into())]).matches(&l));
        assert!(s(vec![Requirement::In(
            "tier".into(),
            vec!["db".into(), "x".into()]
        )])
        .matches(&l));
        assert!(s(vec![Requirement::NotIn("zone".into(), vec!["a".into()])]).matches(&l));
        assert!(!s(vec![Requirement::NotIn("env".into(), vec!["prod".into()])]).matches(&l));
        assert!(s(vec![Requirement::Exists("env".into())]).matches(&l));
        assert!(s(vec![Requirement::DoesNotExist("zone".into())]).matches(&l));
        assert!(!s(vec![Requirement::DoesNotExist("env".into())]).matches(&l));
    }
}
