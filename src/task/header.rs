//! The header of a C file written for bitmc: its leading `//` comment lines, which say what the
//! program's verdicts must be. The fixtures, the tests and `bitmc bench` read it here, so that
//! all of them read the same expectations.
//!
//! ```text
//! // expect: unreach-call=false no-overflow=true      verdicts under ILP32 (and LP64 unless overridden)
//! // expect(lp64): unreach-call=true                  overrides under LP64
//! // expect: no-overflow=unknown                      violated only after undefined behaviour: UNKNOWN
//! // expect: error=unsupported                        the program is outside bitmc's C
//! // error-contains: float                            … with this text in the message
//! // witness: 3, 18446744073709551615                 nondet values of a violation (also
//! // witness(no-overflow): 1, 2                       per property or `lp64`)
//! // oracle: skip REASON                              the gcc oracle does not run the program
//! ```
//!
//! The header ends at the first line that is not a `//` comment. The reading is strict: a
//! malformed item (no `=`, a property that does not exist, a value other than `true`, `false`,
//! `unknown`, an `error=` other than `unsupported`, a property given twice, a witness value that
//! is not a `u64`) is an error, so that a typo cannot drop an expectation.

use crate::cfa::{DataModel, Property};

/// The expectations of a C file's header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Expected verdicts under ILP32: (property, holds).
    pub expect: Vec<(Property, bool)>,
    /// Overrides under LP64.
    pub expect_lp64: Vec<(Property, bool)>,
    /// `// oracle: skip <reason>`.
    pub oracle_skip: Option<String>,
    /// `// expect: error=unsupported`.
    pub unsupported: bool,
    /// `// error-contains: <text>`.
    pub error_contains: Option<String>,
    /// `expect: <property>=unknown`: violated only after undefined behaviour, so the answer
    /// must be UNKNOWN (with `true` for `expect(lp64):`).
    pub unknown: Vec<(Property, bool)>,
    /// `// witness: …` (key `None`), `// witness(<property>|lp64): …`: nondet sequences.
    pub witnesses: Vec<(Option<String>, Vec<u64>)>,
}

/// A malformed header line.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("header line `{line}`: {msg}")]
pub struct HeaderError {
    pub line: String,
    pub msg: String,
}

/// What a header says about one property under one data model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The property holds.
    Holds,
    /// The property is violated.
    Violated,
    /// The property is violated only after undefined behaviour: the answer must be UNKNOWN.
    Undefined,
}

impl Header {
    /// Read the leading comment lines of `text`.
    pub fn parse(text: &str) -> Result<Header, HeaderError> {
        let mut h = Header::default();
        for line in text.lines() {
            let Some(c) = line.trim().strip_prefix("//") else {
                break;
            };
            let err = |msg: String| HeaderError {
                line: line.trim().to_string(),
                msg,
            };
            let c = c.trim();
            if let Some(r) = c.strip_prefix("expect(lp64):") {
                h.verdicts(r, true).map_err(err)?;
            } else if let Some(r) = c.strip_prefix("expect:") {
                h.verdicts(r, false).map_err(err)?;
            } else if let Some(r) = c.strip_prefix("oracle:") {
                if let Some(reason) = r.trim().strip_prefix("skip") {
                    h.oracle_skip = Some(reason.trim().to_string());
                }
            } else if let Some(r) = c.strip_prefix("witness") {
                let w = witness(r).map_err(err)?;
                h.witnesses.push(w);
            } else if let Some(r) = c.strip_prefix("error-contains:") {
                h.error_contains = Some(r.trim().to_string());
            }
        }
        Ok(h)
    }

    /// The items of an `expect:` or `expect(lp64):` line.
    fn verdicts(&mut self, s: &str, lp64: bool) -> Result<(), String> {
        for item in s.split_whitespace() {
            let Some((k, v)) = item.split_once('=') else {
                return Err(format!("`{item}` is not PROPERTY=VALUE"));
            };
            if k == "error" && !lp64 {
                if v != "unsupported" {
                    return Err(format!("`{item}`: only error=unsupported"));
                }
                self.unsupported = true;
                continue;
            }
            let Some(p) = Property::from_name(k) else {
                return Err(format!("`{item}`: `{k}` is not a property"));
            };
            match v {
                "unknown" => self.unknown.push((p, lp64)),
                "true" | "false" => {
                    let list = if lp64 {
                        &mut self.expect_lp64
                    } else {
                        &mut self.expect
                    };
                    if list.iter().any(|(q, _)| *q == p) {
                        return Err(format!("`{item}`: `{k}` is given twice"));
                    }
                    list.push((p, v == "true"));
                }
                _ => {
                    return Err(format!(
                        "`{item}`: the value must be true, false or unknown"
                    ))
                }
            }
        }
        Ok(())
    }

    /// The witness of a violation of `p` under `dm`, if the header gives one.
    pub fn witness(&self, p: Property, dm: DataModel) -> Option<&[u64]> {
        let find = |k: Option<&str>| {
            self.witnesses
                .iter()
                .find(|(w, _)| w.as_deref() == k)
                .map(|(_, v)| v.as_slice())
        };
        find(Some(p.name()))
            .or_else(|| {
                (dm == DataModel::Lp64)
                    .then(|| find(Some("lp64")))
                    .flatten()
            })
            .or_else(|| find(None))
    }

    /// Whether an execution may end in the UNKNOWN sink with this reason: the undefined
    /// behaviour it stands for is one the header admits (its property is expected violated,
    /// or, for behaviour no property reports, `oracle: skip` says the program has some).
    pub fn sink_allowed(&self, reason: &str, dm: DataModel) -> bool {
        let prop = if reason.contains("by zero") {
            Some(Property::DivByZero)
        } else if reason.contains("signed overflow") {
            Some(Property::NoOverflow)
        } else if reason.contains("out of bounds") {
            Some(Property::ValidIndex)
        } else {
            None
        };
        match prop {
            Some(p) => self.verdict(p, dm) != Some(true),
            None => self.oracle_skip.is_some(),
        }
    }

    /// Whether the header says the property is violated only after undefined behaviour.
    pub fn ub_dependent(&self, p: Property, dm: DataModel) -> bool {
        self.unknown
            .iter()
            .any(|&(q, lp)| q == p && (!lp || dm == DataModel::Lp64))
    }

    /// The expected verdict of a property under a data model, if given.
    pub fn verdict(&self, p: Property, dm: DataModel) -> Option<bool> {
        let lp = if dm == DataModel::Lp64 {
            self.expect_lp64.iter().find(|(q, _)| *q == p)
        } else {
            None
        };
        lp.or_else(|| self.expect.iter().find(|(q, _)| *q == p))
            .map(|(_, v)| *v)
    }

    /// Whether the header expects anything: a verdict, UNKNOWN, or the unsupported error.
    pub fn has_expectations(&self) -> bool {
        self.unsupported || !self.properties().is_empty()
    }

    /// The properties the header speaks of, in the order it names them first.
    pub fn properties(&self) -> Vec<Property> {
        let mut ps: Vec<Property> = Vec::new();
        let named = self
            .expect
            .iter()
            .chain(&self.expect_lp64)
            .chain(&self.unknown);
        for &(p, _) in named {
            if !ps.contains(&p) {
                ps.push(p);
            }
        }
        ps
    }

    /// What the header says about `p` under `dm`: a verdict, or UNKNOWN for a violation only
    /// after undefined behaviour (an `unknown` item for the data model wins over a verdict).
    pub fn expectation(&self, p: Property, dm: DataModel) -> Option<Expectation> {
        if self.ub_dependent(p, dm) {
            return Some(Expectation::Undefined);
        }
        self.verdict(p, dm).map(|holds| match holds {
            true => Expectation::Holds,
            false => Expectation::Violated,
        })
    }
}

/// The key and values of a `witness…` line (the text after `witness`).
fn witness(r: &str) -> Result<(Option<String>, Vec<u64>), String> {
    let (key, list) = match r.strip_prefix('(').and_then(|x| x.split_once("):")) {
        Some((k, l)) => (Some(k.trim().to_string()), l),
        None => (None, r.strip_prefix(':').unwrap_or("")),
    };
    let mut vals = Vec::new();
    for v in list.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        vals.push(
            v.parse()
                .map_err(|_| format!("witness value `{v}` is not a u64"))?,
        );
    }
    Ok((key, vals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_items_are_errors() {
        for bad in [
            "// expect: unreach-call=flase\n",
            "// expect: unreach-cal=false\n",
            "// expect: unreach-call\n",
            "// expect(lp64): no-overflow=yes\n",
            "// expect: unreach-call=true unreach-call=false\n",
            "// witness: 1, x2\n",
            "// expect: error=unsupported-ish\n",
            "// expect(lp64): error=unsupported\n",
        ] {
            assert!(Header::parse(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn expectations_per_data_model() {
        let h = Header::parse(
            "// expect: unreach-call=false no-overflow=unknown div-by-zero=true\n\
             // expect(lp64): unreach-call=true\n// witness(lp64): 1, 18446744073709551615\n\
             int x;\n// expect: valid-index=false\n",
        )
        .unwrap();
        let (i, l) = (DataModel::Ilp32, DataModel::Lp64);
        use Expectation::*;
        assert_eq!(h.expectation(Property::UnreachCall, i), Some(Violated));
        assert_eq!(h.expectation(Property::UnreachCall, l), Some(Holds));
        assert_eq!(h.expectation(Property::NoOverflow, l), Some(Undefined));
        assert_eq!(h.expectation(Property::DivByZero, l), Some(Holds));
        assert_eq!(
            h.expectation(Property::ValidIndex, i),
            None,
            "after the header"
        );
        assert_eq!(
            h.properties(),
            [
                Property::UnreachCall,
                Property::DivByZero,
                Property::NoOverflow
            ]
        );
        assert_eq!(
            h.witness(Property::UnreachCall, l),
            Some(&[1, u64::MAX][..])
        );
        assert_eq!(h.witness(Property::UnreachCall, i), None);
        assert!(h.has_expectations() && !h.unsupported);
        let e = Header::parse("// expect: error=unsupported\n// error-contains: float\n").unwrap();
        assert!(e.unsupported && e.properties().is_empty());
        assert_eq!(e.error_contains.as_deref(), Some("float"));
        assert!(
            !Header::parse("int main() {}\n// expect: unreach-call=true\n")
                .unwrap()
                .has_expectations()
        );
    }
}
