//! GraphML witnesses, format 1.0 (sv-witnesses `README-GraphML.md`), parsed with `roxmltree`.
//!
//! Structural checks:
//! - the root is `graphml` in the GraphML namespace, with exactly one `graph`, which has
//!   `edgedefault` and holds only nodes, edges, data and a description;
//! - every `data` element refers to a key declared by a `<key>` element whose `for` allows the
//!   element the data is on (`graphml`, `graph`, `node`, `edge`, or `all`); key ids are unique;
//! - the graph has the required data `witness-type`, `sourcecodelang`, `producer`,
//!   `specification`, `programfile`, `programhash`, `architecture`, `creationtime`, with
//!   values of the right form (`witness-type` violation_witness|correctness_witness,
//!   `sourcecodelang` C, `architecture` 32bit|64bit, `programhash` 64 hex digits equal to the
//!   program's SHA-256, `creationtime` ISO 8601);
//! - node ids are unique and exactly one node is the entry; a violation witness has a
//!   violation node and a correctness witness none;
//! - every edge joins existing nodes; `startline`/`endline`/offsets are numbers, `control` is
//!   condition-true|condition-false, boolean keys are true|false, and
//!   `assumption.resultfunction` comes with an `assumption`.
//!
//! A violation witness is read along its path from the entry node (edges into sink nodes are
//! ignored) to a violation node: each edge whose `assumption` has `\result == V;` and an
//! `assumption.resultfunction` gives one nondet value, and any other edge's `assumption` is
//! something the witness says holds after the statement on its `startline`; the `startline` of
//! the edge into the violation node is the target line. In a correctness witness, each node with an `invariant`
//! stands at the loop found on the `startline` of the edges entering it (those marked
//! `enterLoopHead`, or all of them when none is marked).

use super::source::Source;
use super::{
    check_hash, data_model, resolve_program, result_value, Assumption, Check, Format, Invariant,
    Kind, Location, NondetValue, Property, Rejection, Witness,
};
use roxmltree::{Document, Node};
use std::collections::{HashMap, HashSet};
use std::path::Path;

const GRAPHML_NS: &str = "http://graphml.graphdrawing.org/xmlns";

/// The values of a key's `for` attribute in GraphML.
const GRAPHML_DOMAINS: [&str; 8] = [
    "all",
    "graphml",
    "graph",
    "node",
    "edge",
    "hyperedge",
    "port",
    "endpoint",
];

/// The graph data every witness must have.
pub const REQUIRED_GRAPH_DATA: [&str; 8] = [
    "witness-type",
    "sourcecodelang",
    "producer",
    "specification",
    "programfile",
    "programhash",
    "architecture",
    "creationtime",
];

/// Keys whose values are booleans.
const BOOLEAN_KEYS: [&str; 5] = ["entry", "sink", "violation", "enterLoopHead", "cyclehead"];

/// Keys whose values are non-negative integers.
const NUMBER_KEYS: [&str; 5] = [
    "startline",
    "endline",
    "startoffset",
    "endoffset",
    "threadId",
];

fn structure(msg: impl Into<String>) -> Rejection {
    Rejection::new(Check::Structure, msg)
}

/// A declared key: what it is for and its default value.
struct Key {
    domain: String,
    default: Option<String>,
}

/// The data of one element, by key id (the key's default where the element has none).
type Data = HashMap<String, String>;

fn is(n: &Node, name: &str) -> bool {
    n.is_element() && n.tag_name().name() == name
}

/// The data of an element, checked against the declared keys.
fn data_of(n: Node, keys: &HashMap<String, Key>, what: &str) -> Result<Data, Rejection> {
    let mut out = Data::new();
    for (id, k) in keys {
        if let Some(d) = &k.default {
            if k.domain == what || k.domain == "all" {
                out.insert(id.clone(), d.clone());
            }
        }
    }
    for d in n.children().filter(|c| is(c, "data")) {
        let Some(id) = d.attribute("key") else {
            return Err(structure(format!(
                "a <data> element of a {what} without a key"
            )));
        };
        let Some(k) = keys.get(id) else {
            return Err(structure(format!(
                "the data key `{id}` (on a {what}) is not declared by a <key> element"
            )));
        };
        if k.domain != what && k.domain != "all" {
            return Err(structure(format!(
                "the key `{id}` is declared for={} but used on a {what}",
                k.domain
            )));
        }
        let value = d.text().unwrap_or("").trim().to_string();
        if BOOLEAN_KEYS.contains(&id) && value != "true" && value != "false" {
            return Err(structure(format!("`{id}` is `{value}`, not true or false")));
        }
        if NUMBER_KEYS.contains(&id) && value.parse::<u64>().is_err() {
            return Err(structure(format!("`{id}` is `{value}`, not a number")));
        }
        out.insert(id.to_string(), value);
    }
    Ok(out)
}

/// Whether a text is an ISO 8601 date and time (`2016-12-24T13:15:32+02:00`, with optional
/// fractional seconds, `Z` or an offset).
pub fn iso8601(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|x| x.iter().all(u8::is_ascii_digit));
    if b.len() < 19
        || !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10))
        || !(b[10] == b'T' || b[10] == b' ')
        || !(digits(11..13) && b[13] == b':' && digits(14..16) && b[16] == b':' && digits(17..19))
    {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest.as_bytes() {
        [] | [b'Z'] => true,
        [s, h1, h2, b':', m1, m2] => {
            (*s == b'+' || *s == b'-') && [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// Read a GraphML witness: structure, hash, and what it says.
pub fn read(path: &Path, text: &str) -> Result<Witness, Rejection> {
    let doc =
        Document::parse(text).map_err(|e| Rejection::new(Check::Read, format!("not XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "graphml" || root.tag_name().namespace() != Some(GRAPHML_NS) {
        return Err(structure(format!(
            "the root element is {:?}, not graphml in the namespace {GRAPHML_NS}",
            root.tag_name()
        )));
    }
    let mut keys: HashMap<String, Key> = HashMap::new();
    for k in root.children().filter(|c| is(c, "key")) {
        let id = k
            .attribute("id")
            .ok_or_else(|| structure("a <key> element without an id"))?;
        let domain = k.attribute("for").unwrap_or("all").to_string();
        if !GRAPHML_DOMAINS.contains(&domain.as_str()) {
            return Err(structure(format!("the key `{id}` has for=\"{domain}\"")));
        }
        let default = k
            .children()
            .find(|c| is(c, "default"))
            .map(|d| d.text().unwrap_or("").trim().to_string());
        if keys
            .insert(id.to_string(), Key { domain, default })
            .is_some()
        {
            return Err(structure(format!("the key `{id}` is declared twice")));
        }
    }
    let graphs: Vec<Node> = root.children().filter(|c| is(c, "graph")).collect();
    let [graph] = graphs.as_slice() else {
        return Err(structure(format!(
            "{} <graph> elements, expected one",
            graphs.len()
        )));
    };
    if graph.attribute("edgedefault").is_none() {
        return Err(structure("the <graph> element has no edgedefault"));
    }
    data_of(root, &keys, "graphml")?;
    let gdata = data_of(*graph, &keys, "graph")?;
    for k in REQUIRED_GRAPH_DATA {
        if gdata.get(k).is_none_or(|v| v.is_empty()) {
            return Err(structure(format!("the graph has no `{k}` data")));
        }
    }
    let kind = match gdata["witness-type"].as_str() {
        "violation_witness" => Kind::Violation,
        "correctness_witness" => Kind::Correctness,
        other => return Err(structure(format!("witness-type `{other}`"))),
    };
    if gdata["sourcecodelang"] != "C" {
        return Err(structure(format!(
            "sourcecodelang `{}`",
            gdata["sourcecodelang"]
        )));
    }
    let dm = data_model(&gdata["architecture"])
        .filter(|_| gdata["architecture"].ends_with("bit"))
        .ok_or_else(|| structure(format!("architecture `{}`", gdata["architecture"])))?;
    let hash = &gdata["programhash"];
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(structure(format!("programhash `{hash}` is not a SHA-256")));
    }
    if !iso8601(&gdata["creationtime"]) {
        return Err(structure(format!(
            "creationtime `{}` is not ISO 8601",
            gdata["creationtime"]
        )));
    }
    let spec = &gdata["specification"];
    let property = Property::from_specification(spec).ok_or_else(|| {
        structure(format!(
            "the specification `{spec}` is neither unreach-call nor no-overflow"
        ))
    })?;

    // Nodes and edges.
    let mut nodes: HashMap<String, Data> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for n in graph.children().filter(|c| is(c, "node")) {
        let id = n
            .attribute("id")
            .ok_or_else(|| structure("a <node> without an id"))?;
        if nodes
            .insert(id.to_string(), data_of(n, &keys, "node")?)
            .is_some()
        {
            return Err(structure(format!("the node id `{id}` is used twice")));
        }
        order.push(id.to_string());
    }
    let flag = |d: &Data, k: &str| d.get(k).is_some_and(|v| v == "true");
    let entries: Vec<&String> = order.iter().filter(|n| flag(&nodes[*n], "entry")).collect();
    let [entry] = entries.as_slice() else {
        return Err(structure(format!(
            "{} entry nodes, expected one",
            entries.len()
        )));
    };
    let violations = order
        .iter()
        .filter(|n| flag(&nodes[*n], "violation"))
        .count();
    match kind {
        Kind::Violation if violations == 0 => {
            return Err(structure("a violation witness without a violation node"))
        }
        Kind::Correctness if violations > 0 => {
            return Err(structure("a correctness witness with a violation node"))
        }
        _ => {}
    }
    let mut edges: Vec<(String, String, Data)> = Vec::new();
    for e in graph.children().filter(|c| is(c, "edge")) {
        let (Some(s), Some(t)) = (e.attribute("source"), e.attribute("target")) else {
            return Err(structure("an <edge> without source or target"));
        };
        for end in [s, t] {
            if !nodes.contains_key(end) {
                return Err(structure(format!(
                    "an edge {s} -> {t} names the missing node `{end}`"
                )));
            }
        }
        let d = data_of(e, &keys, "edge")?;
        if let Some(c) = d.get("control") {
            if c != "condition-true" && c != "condition-false" {
                return Err(structure(format!("control `{c}`")));
            }
        }
        if d.contains_key("assumption.resultfunction") && !d.contains_key("assumption") {
            return Err(structure(format!(
                "the edge {s} -> {t} has assumption.resultfunction without an assumption"
            )));
        }
        edges.push((s.to_string(), t.to_string(), d));
    }
    for n in graph.children().filter(|c| c.is_element()) {
        let name = n.tag_name().name();
        if !["node", "edge", "data", "desc"].contains(&name) {
            return Err(structure(format!("a <{name}> element inside <graph>")));
        }
    }

    let program = resolve_program(path, &gdata["programfile"])?;
    check_hash(&program, hash)?;
    let mut w = Witness {
        format: Format::GraphMl,
        kind,
        path: path.to_path_buf(),
        program,
        property,
        data_model: dm,
        producer: gdata["producer"].clone(),
        values: Vec::new(),
        target: None,
        assumptions: Vec::new(),
        invariants: Vec::new(),
    };
    let startline = |d: &Data| d.get("startline").and_then(|l| l.parse::<usize>().ok());
    match kind {
        Kind::Violation => {
            // Follow the path from the entry node to a violation node.
            let mut at: &str = entry;
            let mut seen = HashSet::new();
            while !flag(&nodes[at], "violation") {
                if !seen.insert(at.to_string()) {
                    return Err(structure(format!(
                        "the path from the entry returns to node `{at}`"
                    )));
                }
                let out: Vec<&(String, String, Data)> = edges
                    .iter()
                    .filter(|(s, t, _)| s == at && !flag(&nodes[t], "sink"))
                    .collect();
                let [(_, t, d)] = out.as_slice() else {
                    return Err(structure(format!(
                        "node `{at}` has {} edges to non-sink nodes: this validator replays a single path",
                        out.len()
                    )));
                };
                if let Some(f) = d.get("assumption.resultfunction") {
                    let a = &d["assumption"];
                    let results: Vec<i128> = a
                        .split(';')
                        .filter(|c| {
                            c.trim().starts_with("\\result") || c.trim().starts_with("(\\result")
                        })
                        .map(|c| {
                            result_value(c).ok_or_else(|| {
                                structure(format!(
                                    "the assumption `{a}` is not `\\result == <integer>;`"
                                ))
                            })
                        })
                        .collect::<Result<_, _>>()?;
                    let [value] = results.as_slice() else {
                        return Err(structure(format!(
                            "the assumption `{a}` for {f} gives {} values of \\result",
                            results.len()
                        )));
                    };
                    w.values.push(NondetValue {
                        value: *value,
                        function: Some(f.clone()),
                        location: startline(d).map(Location::at_line),
                    });
                } else if let (Some(a), Some(line)) = (d.get("assumption"), startline(d)) {
                    let parts: Vec<&str> = a
                        .split(';')
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .collect();
                    if !parts.is_empty() {
                        w.assumptions.push(Assumption {
                            expr: parts
                                .iter()
                                .map(|c| format!("({c})"))
                                .collect::<Vec<_>>()
                                .join(" && "),
                            location: Location::at_line(line),
                            after_values: w.values.len(),
                        });
                    }
                }
                if flag(&nodes[t], "violation") {
                    w.target = startline(d).map(Location::at_line);
                }
                at = t;
            }
        }
        Kind::Correctness => {
            let text = std::fs::read_to_string(&w.program)
                .map_err(|e| Rejection::new(Check::Read, e.to_string()))?;
            let src = Source::new(&text);
            for id in &order {
                let Some(expr) = nodes[id].get("invariant") else {
                    continue;
                };
                let incoming: Vec<&Data> = edges
                    .iter()
                    .filter(|(_, t, _)| t == id)
                    .map(|(_, _, d)| d)
                    .collect();
                let marked: Vec<&Data> = incoming
                    .iter()
                    .copied()
                    .filter(|d| flag(d, "enterLoopHead"))
                    .collect();
                let from = if marked.is_empty() { incoming } else { marked };
                let mut lines: Vec<usize> = from
                    .iter()
                    .filter_map(|d| startline(d))
                    .filter(|&l| loop_on_line(&src, l))
                    .collect();
                lines.sort_unstable();
                lines.dedup();
                let line = match lines.as_slice() {
                    [l] => *l,
                    [] if is_trivial(expr) => continue,
                    [] => {
                        return Err(structure(format!(
                            "the invariant `{expr}` of node `{id}`: no edge into the node starts on a line with a loop"
                        )))
                    }
                    more => {
                        return Err(structure(format!(
                            "the invariant `{expr}` of node `{id}`: the edges into the node start at loops on lines {more:?}"
                        )))
                    }
                };
                w.invariants.push(Invariant {
                    location: Location {
                        line,
                        column: None,
                        function: nodes[id].get("invariant.scope").cloned(),
                    },
                    expr: expr.clone(),
                });
            }
        }
    }
    Ok(w)
}

/// Whether a line has a loop keyword (`while` that ends a `do` loop excluded).
fn loop_on_line(src: &Source, line: usize) -> bool {
    !super::invariants::loop_keywords_on_line(src, line).is_empty()
}

/// `1`, `true`, `(1)`: an invariant that says nothing.
pub fn is_trivial(expr: &str) -> bool {
    matches!(
        expr.trim().trim_matches(|c| c == '(' || c == ')').trim(),
        "1" | "true" | "!0" | ""
    )
}
