//! `pvlint migrate`: the command around `pvlint_core::api::migrate` — reading inputs, writing
//! the YAML to stdout or one file per object, and the account of what changed.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use pvlint_core::api::{self, MigrateOptions, MigrateRequest, Migration};
use pvlint_core::render;

use crate::exit::Exit;
use crate::{inputs, output};

#[derive(clap::Args)]
pub struct Args {
    /// Files, directories or - (stdin).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,
    /// Write one file per object into DIR (created if missing) instead of stdout.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print what changed and why, per object, on stdout (the YAML goes only to --out).
    #[arg(long)]
    explain: bool,
    /// yaml (the migrated objects) or json (the migration: schema pvlint-migrate/v1).
    #[arg(long, value_enum, default_value_t = Format::Yaml)]
    format: Format,
    /// The same as --format json.
    #[arg(long, hide = true, conflicts_with = "format")]
    json: bool,
    /// Keep each volume's persistentVolumeReclaimPolicy (default: set Retain).
    #[arg(long)]
    keep_reclaim_policy: bool,
    /// Rename a StorageClass in claims and volumes (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    map_class: Vec<String>,
    /// Rename a namespace, in claims and in volumes' claimRefs (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    map_namespace: Vec<String>,
}

/// What migrate prints on stdout.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Yaml,
    Json,
}

/// `old=new` pairs into a map; the error names the flag and the bad value.
fn mappings(flag: &str, pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut map = BTreeMap::new();
    for p in pairs {
        let bad = || format!("{flag} {p:?}: write it as OLD=NEW (e.g. {flag} standard=gp3)");
        let (old, new) = p.split_once('=').ok_or_else(bad)?;
        let (old, new) = (old.trim(), new.trim());
        if old.is_empty() || new.is_empty() {
            return Err(bad());
        }
        if let Some(prev) = map.insert(old.to_string(), new.to_string()) {
            if prev != new {
                return Err(format!("{flag}: {old} is mapped twice ({prev} and {new})"));
            }
        }
    }
    Ok(map)
}

pub fn run(args: Args) -> Exit {
    let options = match (
        mappings("--map-class", &args.map_class),
        mappings("--map-namespace", &args.map_namespace),
    ) {
        (Ok(map_class), Ok(map_namespace)) => MigrateOptions {
            keep_reclaim_policy: args.keep_reclaim_policy,
            map_class,
            map_namespace,
        },
        (Err(e), _) | (_, Err(e)) => return output::error(e),
    };
    let loaded = inputs::load(&args.paths);
    for e in &loaded.errors {
        output::error(e);
    }
    if !loaded.errors.is_empty() {
        eprintln!("pvlint: nothing written: every input must be read to migrate it");
        return Exit::Error;
    }
    if loaded.sources.is_empty() {
        return output::error(
            "nothing to migrate (no .yaml, .yml or .json files in the given paths)",
        );
    }
    let m = api::migrate(&MigrateRequest {
        sources: loaded.sources,
        options,
    });
    if !m.errors.is_empty() {
        for e in &m.errors {
            eprintln!("{}:{}:{}: error: {}", e.file, e.line, e.column, e.message);
        }
        eprintln!(
            "pvlint: nothing written: {} document{} could not be read; fix {} and run migrate again",
            m.errors.len(),
            if m.errors.len() == 1 { "" } else { "s" },
            if m.errors.len() == 1 { "it" } else { "them" }
        );
        return Exit::Error;
    }
    if let Some(dir) = &args.out {
        if let Err(e) = write_dir(dir, &m) {
            return output::error(e);
        }
    }
    let json = args.json || args.format == Format::Json;
    let summary = render::migration_summary(&m, args.explain);
    let stdout = if json {
        Some(render::migration_json(&m))
    } else if args.explain {
        Some(summary.clone())
    } else if args.out.is_none() {
        Some(m.yaml())
    } else {
        None
    };
    if !args.explain || json {
        eprint!("{summary}");
    }
    match stdout {
        Some(s) => output::print(&s),
        None => Exit::Clean,
    }
}

/// A file name for an object: `persistentvolumeclaim-NAMESPACE-NAME.yaml`.
fn file_name(o: &pvlint_core::api::MigratedObject) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut n = clean(&o.object.kind.to_ascii_lowercase());
    if let Some(ns) = &o.object.namespace {
        n.push('-');
        n.push_str(&clean(ns));
    }
    n.push('-');
    n.push_str(&clean(if o.object.name.is_empty() {
        "unnamed"
    } else {
        &o.object.name
    }));
    n
}

fn write_dir(dir: &Path, m: &Migration) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    let mut used = HashSet::new();
    for o in &m.objects {
        let base = file_name(o);
        let mut name = format!("{base}.yaml");
        let mut n = 2;
        while !used.insert(name.clone()) {
            name = format!("{base}-{n}.yaml");
            n += 1;
        }
        let path = dir.join(&name);
        std::fs::write(&path, &o.text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
