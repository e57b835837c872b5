//! SV-COMP verification witnesses: what another tool needs to check a verdict of bitmc on a C
//! program, in the two formats SV-COMP accepts (YAML format 2.0, [`yaml`]; GraphML format 1.0,
//! [`graphml`]).
//!
//! - A FALSE verdict gives a **violation witness**: the values returned by the program's
//!   `__VERIFIER_nondet_*` calls along the replayed counterexample, in order, each at its call
//!   (the call's closing parenthesis), the values of the uninitialised variables it reads, at
//!   the statements that read them, and the target: the statement where the property fails
//!   ([`violation`]).
//! - A TRUE verdict gives a **correctness witness**: an invariant at each loop head, from the
//!   engine's inductive invariant, restricted to the conjuncts a C reader can name at the loop
//!   ([`correctness`]). A proof without an invariant (k-induction) gives the trivial witness,
//!   which the formats allow: no invariant at all.
//!
//! Witnesses speak about the original file: lines and columns are those the preprocessor's line
//! markers give, the program is identified by the SHA-256 of its bytes.

pub mod correctness;
pub mod graphml;
pub mod violation;
pub mod yaml;

pub use crate::cfa::SrcPos;
use crate::cfa::{DataModel, Property};
use sha2::{Digest, Sha256};
use std::path::Path;

/// What a witness is about and who wrote it.
#[derive(Clone, Debug)]
pub struct Metadata {
    /// The program file, as given on the command line.
    pub program: String,
    /// SHA-256 of the program file, in lower-case hex.
    pub program_hash: String,
    pub property: Property,
    /// The specification as SV-COMP writes it, e.g. `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    pub specification: String,
    pub data_model: DataModel,
    /// The producing configuration (the engine that decided, e.g. `pdr:cadical`).
    pub configuration: String,
    /// The producer's version.
    pub version: String,
    /// ISO 8601, UTC.
    pub creation_time: String,
    /// A fresh RFC 4122 version-4 UUID.
    pub uuid: String,
}

/// Why no witness can be made.
#[derive(Debug, thiserror::Error)]
pub enum WitnessError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("the property {0} has no SV-COMP specification, so no witness can state it")]
    NoSpecification(Property),
}

impl Metadata {
    /// The metadata of a witness for `program`, hashed now, with a fresh UUID and the current
    /// time. `specification` overrides the standard text of the property (the text of the
    /// property file SV-COMP passed, for example).
    pub fn new(
        program: &Path,
        property: Property,
        specification: Option<&str>,
        data_model: DataModel,
        configuration: &str,
    ) -> Result<Metadata, WitnessError> {
        let bytes = std::fs::read(program).map_err(|source| WitnessError::Read {
            path: program.display().to_string(),
            source,
        })?;
        let specification = match specification {
            Some(s) => s.trim().to_string(),
            None => standard_specification(property)
                .ok_or(WitnessError::NoSpecification(property))?
                .to_string(),
        };
        Ok(Metadata {
            program: program.display().to_string(),
            program_hash: sha256_hex(&bytes),
            property,
            specification,
            data_model,
            configuration: configuration.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            creation_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now())
                .to_string(),
            uuid: uuid::Uuid::new_v4().to_string(),
        })
    }

    /// The file a position is in, as the witness names it: the program as given when the
    /// position is in it (the preprocessor may have spelt its path otherwise).
    pub fn file_of<'a>(&'a self, pos: &'a SrcPos) -> &'a str {
        let name = |p: &'a str| Path::new(p).file_name();
        if name(&pos.file) == name(&self.program) {
            &self.program
        } else {
            &pos.file
        }
    }

    /// `32bit` or `64bit`, as GraphML witnesses name the data model.
    pub fn architecture(&self) -> &'static str {
        match self.data_model {
            DataModel::Ilp32 => "32bit",
            DataModel::Lp64 => "64bit",
        }
    }

    /// `ILP32` or `LP64`, as YAML witnesses name it.
    pub fn data_model_name(&self) -> &'static str {
        match self.data_model {
            DataModel::Ilp32 => "ILP32",
            DataModel::Lp64 => "LP64",
        }
    }
}

/// The SV-COMP specification of a property, if SV-COMP has one.
pub fn standard_specification(p: Property) -> Option<&'static str> {
    match p {
        Property::UnreachCall => Some("CHECK( init(main()), LTL(G ! call(reach_error())) )"),
        Property::NoOverflow => Some("CHECK( init(main()), LTL(G ! overflow) )"),
        Property::DivByZero | Property::ValidIndex => None,
    }
}

/// SHA-256 of bytes in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A point of a counterexample that a violation witness names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waypoint {
    pub kind: WaypointKind,
    pub pos: SrcPos,
    /// The C function the point is in.
    pub function: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaypointKind {
    /// A call of `function` returned `value` (a decimal in the range of its C type).
    Return { function: String, value: String },
    /// The C expression `constraint` holds at the start of the statement at the waypoint's
    /// position (the value of an uninitialised variable the run reads there). `holds_after`:
    /// the statement leaves it true (GraphML states assumptions after a statement).
    Assumption {
        constraint: String,
        holds_after: bool,
    },
    /// The property fails here.
    Target,
}

/// An invariant at the head of a loop (at its keyword).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    pub pos: SrcPos,
    pub function: String,
    /// A side-effect-free C expression over variables in scope at the loop.
    pub value: String,
}

/// A witness: its metadata and what it says.
#[derive(Clone, Debug)]
pub struct Witness {
    pub meta: Metadata,
    pub content: Content,
    /// What the witness leaves out of the proof, written as a comment.
    pub note: Option<String>,
}

#[derive(Clone, Debug)]
pub enum Content {
    /// A counterexample: waypoints in order, the last one the target.
    Violation(Vec<Waypoint>),
    /// Invariants at loop heads (possibly none).
    Correctness(Vec<LoopInvariant>),
}

/// The witness formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YAML, format 2.0 (`.yml`, `.yaml`).
    Yaml,
    /// GraphML, format 1.0 (`.graphml`, `.xml`).
    GraphMl,
}

impl Format {
    /// The format a file name asks for, by its extension.
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()? {
            "yml" | "yaml" => Some(Format::Yaml),
            "graphml" | "xml" => Some(Format::GraphMl),
            _ => None,
        }
    }
}

impl Witness {
    /// The witness written in a format.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Yaml => yaml::write(self),
            Format::GraphMl => graphml::write(self),
        }
    }
}
