//! The cluster profile of a request ([`crate::profile`]): what the host says
//! ([`crate::options::Options`] and its `cluster` section), over what the cluster state holds,
//! over the default profile.

use crate::index::Index;
use crate::model::live;
use crate::options::{KubeVersion, Options};
use crate::profile::{
    DefaultClass, DriverFact, Fact, Gate, Given, Key, Nodes, Profile, StateFacts,
};
use crate::source::Source;

/// What the cluster state says of the cluster.
pub(crate) fn state_facts(sources: &[Source], cluster: &Index) -> StateFacts {
    if sources.is_empty() {
        return StateFacts::default();
    }
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    // GetDefaultClass: of several default classes, the newest (then the first by name).
    let default_class = cluster
        .accepted_classes()
        .filter(|c| c.is_default.is_some())
        .max_by(|a, b| {
            a.created
                .cmp(&b.created)
                .then_with(|| b.name.as_str().cmp(a.name.as_str()))
        })
        .map(|c| {
            (
                c.name.to_string(),
                c.provisioner
                    .as_ref()
                    .map(|p| p.value.to_string())
                    .unwrap_or_default(),
            )
        });
    StateFacts {
        source: Some(names.join(", ")),
        nodes: live::node_layout(&cluster.objects),
        default_class,
        drivers: cluster
            .csi_drivers
            .iter()
            .map(|d| DriverFact {
                name: d.name.to_string(),
                attach_required: d.attach_required,
            })
            .collect(),
    }
}

/// The profile: each value from the host (flags, settings, the request), else the cluster
/// state, else the default profile.
pub(crate) fn resolve(options: &Options, state: &StateFacts) -> Profile {
    let spec = &options.cluster;
    // A value the host set: where the host says it came from (the request when it does not).
    let said = |key: Key| spec.given(key);
    let from_state = || Given::ClusterState(state.source.clone().unwrap_or_default());
    let nodes = match (spec.nodes, state.nodes) {
        (Some(n), _) => Fact::new(n, said(Key::Nodes)),
        (None, Some((count, zones))) if count > 0 => Fact::new(
            match (count, zones) {
                (1, _) => Nodes::One,
                (_, z) if z > 1 => Nodes::Zones,
                _ => Nodes::Several,
            },
            from_state(),
        ),
        _ => Fact::new(Nodes::Several, Given::Default),
    };
    let default_class = match options.default_class.as_deref() {
        Some("") => Fact::new(DefaultClass::None, said(Key::DefaultClass)),
        Some(name) => Fact::new(
            DefaultClass::Named {
                name: name.to_string(),
                provisioner: spec.default_provisioner.clone(),
            },
            said(Key::DefaultClass),
        ),
        None if state.source.is_some() => Fact::new(
            match &state.default_class {
                Some((name, provisioner)) => DefaultClass::Named {
                    name: name.clone(),
                    provisioner: Some(provisioner.clone()).filter(|p| !p.is_empty()),
                },
                None => DefaultClass::None,
            },
            from_state(),
        ),
        None if options.complete => Fact::new(DefaultClass::InputOnly, said(Key::Complete)),
        None => Fact::new(DefaultClass::Unnamed, Given::Default),
    };
    let mut drivers: Vec<Fact<DriverFact>> = spec
        .drivers
        .iter()
        .map(|d| Fact::new(d.clone(), said(Key::Drivers)))
        .collect();
    for d in &state.drivers {
        if !drivers.iter().any(|k| k.value.name == d.name) {
            drivers.push(Fact::new(d.clone(), from_state()));
        }
    }
    let kube_version = Fact::new(
        options.kube_version,
        match spec.from.get(&Key::KubeVersion) {
            Some(from) => from.clone(),
            None if options.kube_version == KubeVersion::DEFAULT => Given::Default,
            None => Given::Request,
        },
    );
    let feature_gates = spec
        .feature_gates
        .iter()
        .map(|(&feature, &on)| {
            let locked = !on && feature.locked_in(options.kube_version);
            Gate {
                feature,
                enabled: on || locked,
                from: said(Key::FeatureGates),
                locked,
            }
        })
        .collect();
    let flag = |value: bool, key: Key| match (value, spec.from.get(&key)) {
        (false, None) => Fact::new(false, Given::Default),
        (_, Some(from)) => Fact::new(value, from.clone()),
        (true, None) => Fact::new(true, Given::Request),
    };
    Profile {
        nodes,
        default_class,
        drivers,
        kube_version,
        feature_gates,
        snapshotter: spec
            .snapshotter
            .map(|s| Fact::new(s, said(Key::Snapshotter))),
        complete: flag(options.complete, Key::Complete),
        same_cluster: flag(spec.same_cluster, Key::SameCluster),
    }
}
