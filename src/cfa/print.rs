//! Text form of a CFA (`bitmc cfa`): variables, locations, and edges with their commands and
//! source lines. Terms are printed in SMT-LIB syntax with the variables' C names.

use super::{Cfa, Gcl, HavocKind, LocKind};
use std::fmt::{self, Write};

impl Cfa {
    /// One command per line, indented; nested `Choice`s are printed as alternatives.
    pub fn write_gcl(&self, g: &Gcl, indent: usize, out: &mut String) -> fmt::Result {
        let pad = " ".repeat(indent);
        match g {
            Gcl::Seq(v) if v.is_empty() => writeln!(out, "{pad}skip"),
            Gcl::Seq(v) => v.iter().try_for_each(|g| self.write_gcl(g, indent, out)),
            Gcl::Choice(v) => {
                for (i, a) in v.iter().enumerate() {
                    writeln!(out, "{pad}{}", if i == 0 { "either" } else { "or" })?;
                    self.write_gcl(a, indent + 2, out)?;
                }
                writeln!(out, "{pad}end")
            }
            Gcl::Assume(t, o) => {
                writeln!(
                    out,
                    "{pad}assume {}{}",
                    self.tm.display(*t),
                    self.origin_note(*o)
                )
            }
            Gcl::Assign(v, t, o) => writeln!(
                out,
                "{pad}{} := {}{}",
                self.var(*v).name,
                self.tm.display(*t),
                self.origin_note(*o)
            ),
            Gcl::Havoc(v, k, o) => {
                let why = match k {
                    HavocKind::NondetCall { function, .. } => format!("{function}()"),
                    HavocKind::UndefinedCall { function, .. } => format!("undefined {function}()"),
                    HavocKind::Uninitialized => "uninitialised".to_string(),
                    HavocKind::Iterations => "iterations".to_string(),
                };
                writeln!(
                    out,
                    "{pad}{} := havoc ({why}){}",
                    self.var(*v).name,
                    self.origin_note(*o)
                )
            }
        }
    }

    fn origin_note(&self, o: super::OriginId) -> String {
        match self.origin(o) {
            Some(or) => match &or.pos {
                Some(p) if or.text.is_empty() => format!("    // line {}", p.line),
                Some(p) => format!("    // line {}: {}", p.line, or.text),
                None if !or.text.is_empty() => format!("    // {}", or.text),
                None => String::new(),
            },
            None => String::new(),
        }
    }

    /// A short description of a location.
    pub fn loc_label(&self, l: super::Loc) -> String {
        let info = &self.locations[l.index()];
        let kind = match &info.kind {
            LocKind::Normal => String::new(),
            LocKind::Init => "init".into(),
            LocKind::Error => format!("ERROR ({})", self.property),
            LocKind::Exit => "exit".into(),
            LocKind::Sink(r) => format!("UNKNOWN sink: {r}"),
        };
        let mut s = format!("{l}");
        let mut parts = Vec::new();
        if !kind.is_empty() {
            parts.push(kind);
        }
        if !info.note.is_empty()
            && !matches!(
                info.kind,
                LocKind::Init | LocKind::Exit | LocKind::Error | LocKind::Sink(_)
            )
        {
            parts.push(info.note.clone());
        }
        if let Some(p) = &info.pos {
            parts.push(format!("line {}", p.line));
        }
        if !parts.is_empty() {
            let _ = write!(s, " [{}]", parts.join(", "));
        }
        s
    }
}

impl fmt::Display for Cfa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "CFA: {} locations, {} edges, {} variables; property {}, data model {}",
            self.locations.len(),
            self.edges.len(),
            self.vars.len(),
            self.property,
            self.data_model
        )?;
        writeln!(f, "variables:")?;
        for v in &self.vars {
            let pos = v
                .pos
                .as_ref()
                .map(|p| format!(", line {}", p.line))
                .unwrap_or_default();
            writeln!(f, "  {}: {} ({}{pos})", v.name, v.ty, v.kind.name())?;
        }
        let heads = self.loop_heads();
        writeln!(
            f,
            "locations: init {}, error {}, exit {}",
            self.init, self.error, self.exit
        )?;
        let out = self.out_edges();
        for l in 0..self.locations.len() {
            let loc = super::Loc(l as u32);
            let head = if heads[l] { " (loop head)" } else { "" };
            writeln!(f, "{}{head}", self.loc_label(loc))?;
            for &e in &out[l] {
                let ed = self.edge(e);
                writeln!(f, "  -> {}", ed.to)?;
                let mut s = String::new();
                self.write_gcl(&ed.cmd, 6, &mut s)?;
                f.write_str(&s)?;
            }
        }
        Ok(())
    }
}
