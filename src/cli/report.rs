//! `bitmc verify --report FILE.html`: the result of a run as one self-contained HTML page
//! (inline CSS and SVG, no script, nothing fetched), for a person rather than a tool.
//!
//! The page is built from the run's JSON document ([`super::json`]: the same values `--json`
//! writes, so the two cannot disagree) and, for each violation, the counterexample's path on
//! the front end's CFA ([`bitmc::witness::trace::Trace::path`], from the same run as the
//! document's steps). It shows:
//! - a header: the input, the data model, the verdict line (the vocabulary of the text
//!   output's last line), the time, and one row per property (verdict, engine, time, why it is
//!   UNKNOWN), with the properties bitmc does not check;
//! - per violated property: where it fails (gcc's form), the inputs (nondet values with their
//!   call sites and types), the source with the lines the counterexample executed highlighted
//!   (class `executed`), each with its step numbers in order and the values assigned or the
//!   conditions that held there, the failing line marked distinctly (class `error-line`) with
//!   the message, the steps in order, and the CFA with the path drawn on it ([`cfa`]);
//! - per property, the `-v` statistics of its engine as a table;
//! - for a run without a counterexample, the plain source.

mod cfa;

use bitmc::cfa::{Cfa, EdgeId};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The page's style sheet.
const STYLE: &str = include_str!("report/style.css");
/// The most executions of one line annotated beside it (the first ones and the last ones).
const VISITS: usize = 16;
/// The width (pixels) of a drawing beyond which it is first shown scaled to the page.
const FIT_WIDTH: f64 = 1600.0;
/// The most steps listed in the table of steps.
const STEP_ROWS: usize = 2000;

/// A violation's path on the CFA its steps were read from, for the drawing.
pub struct PathOn<'a> {
    pub cfa: &'a Cfa,
    /// The run's edges, each with the index of its printed step.
    pub path: &'a [(EdgeId, Option<usize>)],
}

/// HTML-escapes text (XML's escapes, and `'` for attributes in single quotes).
fn esc(s: &str) -> String {
    bitmc::witness::svcomp::graphml::esc(s).replace('\'', "&#39;")
}

/// A JSON value as text: a string without quotes, null as empty, anything else as JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// `LINE:COL` of a JSON position (empty for null).
fn at(p: &Value) -> String {
    if p.is_null() {
        String::new()
    } else {
        format!("{}:{}", p["line"], p["column"])
    }
}

/// The class of a verdict's colour: `true`, `false` or `unknown`.
fn tone(verdict: &str) -> &'static str {
    if verdict.starts_with("TRUE") {
        "true"
    } else if verdict.starts_with("FALSE") {
        "false"
    } else {
        "unknown"
    }
}

/// A table with a header row and rows of cells that are HTML already.
fn table(class: &str, head: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = format!("<table class=\"{class}\"><thead><tr>");
    for h in head {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s += "</tr></thead><tbody>\n";
    for r in rows {
        s += "<tr>";
        for c in r {
            let _ = write!(s, "<td>{c}</td>");
        }
        s += "</tr>\n";
    }
    s + "</tbody></table>\n"
}

/// The page of a run: `doc` is its JSON document and `paths` each property's path on its CFA
/// (in the document's order; none without one). The source is read from the document's input.
pub fn page(doc: &Value, paths: &[Option<PathOn>]) -> String {
    let input = text(&doc["input"]);
    let source = std::fs::read(&input)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| format!("(cannot read {input}: {e})"));
    render(doc, &source, paths)
}

/// The page of a run whose input file holds `source` (see [`page`]).
pub fn render(doc: &Value, source: &str, paths: &[Option<PathOn>]) -> String {
    let input = text(&doc["input"]);
    let verdict = text(&doc["verdict"]);
    let mut body = header(doc);
    let entries = doc["properties"].as_array().cloned().unwrap_or_default();
    let mut shown_source = false;
    for (k, p) in entries.iter().enumerate() {
        let name = text(&p["property"]);
        let v = text(&p["verdict"]);
        let _ = write!(
            body,
            "<section class=\"property\" id=\"property-{}\">\n<h2>{} <span class=\"verdict {}\">{}</span></h2>\n",
            esc(&name),
            esc(&name),
            tone(&v),
            esc(&v)
        );
        let cex = &p["counterexample"];
        if cex.get("steps").is_some() {
            body += &counterexample(cex, &name, &input, source, &format!("p{k}"));
            if let Some(Some(on)) = paths.get(k) {
                let d = cfa::draw(on.cfa, on.path, &format!("cfa{k}"));
                // A drawing much wider than the page is first shown whole, scaled down.
                let fit = if d.width > FIT_WIDTH { " checked" } else { "" };
                let _ = write!(
                    body,
                    "<h3 id=\"cfa{k}\">Control-flow automaton</h3>\n<p class=\"note\">The path of the counterexample is drawn in orange, each edge with the numbers of its steps; visited locations are yellow. {}.</p>\n<input type=\"checkbox\" class=\"fit\" id=\"fit{k}\"{fit}><label for=\"fit{k}\"> scale to the page's width</label>\n<div class=\"cfa\">{}</div>\n",
                    esc(&d.note),
                    d.svg
                );
            }
            let steps = cex["steps"].as_array().cloned().unwrap_or_default();
            body += &step_table(&steps, &cex["before_main"], &format!("p{k}"));
            shown_source = true;
        } else if let Some(why) = cex.get("no_trace") {
            let values: Vec<String> = cex["nondet"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect();
            let _ = write!(
                body,
                "<p class=\"violation\">{} is violated; the counterexample cannot be shown as statements: {}.</p>\n<p>Nondet values: <code>[{}]</code></p>\n",
                esc(&name),
                esc(&text(why)),
                esc(&values.join(", "))
            );
        } else if !p["reason"].is_null() {
            let _ = writeln!(
                body,
                "<p class=\"reason\">UNKNOWN: {}</p>",
                esc(&text(&p["reason"]))
            );
        }
        body += &statistics(&p["statistics"]);
        body += "</section>\n";
    }
    if !shown_source {
        let _ = write!(
            body,
            "<section class=\"program\"><h2>Program</h2>\n{}</section>\n",
            listing(source, &BTreeMap::new(), None, "src")
        );
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>bitmc: {} — {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}<footer>Written by bitmc verify --report; the same values as --json.</footer>\n</body>\n</html>\n",
        esc(&input),
        esc(&verdict)
    )
}

/// The header: input, data model, verdict line, time, and the properties' rows.
fn header(doc: &Value) -> String {
    let verdict = text(&doc["verdict"]);
    let mut s = format!(
        "<header class=\"run {}\">\n<h1>bitmc verify <span class=\"verdict {}\" id=\"verdict\">{}</span></h1>\n",
        tone(&verdict),
        tone(&verdict),
        esc(&verdict)
    );
    let time = doc["time_s"].as_f64().unwrap_or_default();
    let _ = writeln!(
        s,
        "<dl class=\"facts\"><dt>input</dt><dd><code>{}</code></dd><dt>data model</dt><dd>{}</dd><dt>time</dt><dd>{time:.2} s</dd><dt>exit code</dt><dd>{}</dd></dl>",
        esc(&text(&doc["input"])),
        esc(&text(&doc["data_model"])),
        esc(&text(&doc["exit_code"]))
    );
    let mut rows: Vec<Vec<String>> = Vec::new();
    for p in doc["properties"].as_array().into_iter().flatten() {
        let name = text(&p["property"]);
        let v = text(&p["verdict"]);
        rows.push(vec![
            format!("<a href=\"#property-{0}\">{0}</a>", esc(&name)),
            format!("<span class=\"verdict {}\">{}</span>", tone(&v), esc(&v)),
            esc(&text(&p["engine"])),
            format!("{:.2} s", p["time_s"].as_f64().unwrap_or_default()),
            esc(&text(&p["reason"])),
        ]);
    }
    for name in doc["skipped"].as_array().into_iter().flatten() {
        rows.push(vec![
            esc(&text(name)),
            "skipped".into(),
            String::new(),
            String::new(),
            "bitmc does not check it".into(),
        ]);
    }
    s += &table(
        "properties",
        &["property", "verdict", "engine", "time", "reason"],
        &rows,
    );
    s + "</header>\n"
}

/// What a step did, as HTML: the values it assigned, the conditions that held, the
/// iterations it jumped over.
fn effects(step: &Value) -> String {
    let mut parts = Vec::new();
    if step["resumed"] == Value::Bool(true) {
        parts.push("<span class=\"cond\">(continued)</span>".to_string());
    }
    let values: Vec<String> = step["assignments"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            // A function's result reads `f() returns 3`, a variable's `x = 3`.
            let variable = text(&a["variable"]);
            let is = if variable.ends_with(" returns") {
                ""
            } else {
                " ="
            };
            format!(
                "<span class=\"val\">{}{is} {}</span>",
                esc(&variable),
                esc(&text(&a["value"]))
            )
        })
        .collect();
    if !values.is_empty() {
        parts.push(values.join(", "));
    }
    for c in step["conditions"].as_array().into_iter().flatten() {
        parts.push(format!("<span class=\"cond\">[{}]</span>", esc(&text(c))));
    }
    if !step["iterations"].is_null() {
        parts.push(format!(
            "<span class=\"cond\">{} iterations at once</span>",
            esc(&text(&step["iterations"]))
        ));
    }
    parts.join(" ")
}

/// A violation's counterexample: where it fails, the inputs, the annotated source.
fn counterexample(cex: &Value, property: &str, input: &str, source: &str, id: &str) -> String {
    let v = &cex["violation"];
    let message = text(&v["message"]);
    let mut s = format!(
        "<p class=\"violation\"><code>{}:{}: error: {} ({})</code></p>\n",
        esc(&text(&v["position"]["file"])),
        at(&v["position"]),
        esc(&message),
        esc(property)
    );
    let inputs: Vec<Vec<String>> = cex["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, x)| {
            vec![
                (i + 1).to_string(),
                format!("<code>{}</code>", esc(&text(&x["value"]))),
                format!("<code>{}</code>", esc(&text(&x["type"]))),
                format!("<code>{}</code>", esc(&text(&x["function"]))),
                esc(&at(&x["position"])),
            ]
        })
        .collect();
    s += "<h3>Inputs</h3>\n";
    if inputs.is_empty() {
        s += "<p class=\"note\">The run reads no nondet value.</p>\n";
    } else {
        s += &table(
            "inputs",
            &["#", "value", "type", "call", "line:column"],
            &inputs,
        );
    }
    let uninit: Vec<Vec<String>> = cex["uninitialised"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| vec![esc(&text(&u["variable"])), esc(&text(&u["value"]))])
        .collect();
    if !uninit.is_empty() {
        s += "<h4>Uninitialised variables as read</h4>\n";
        s += &table("inputs", &["variable", "value"], &uninit);
    }
    // The executions of each line of the input file, in order: (step number, effects).
    let steps = cex["steps"].as_array().cloned().unwrap_or_default();
    let mut visits: BTreeMap<u64, Vec<(usize, String)>> = BTreeMap::new();
    for (k, st) in steps.iter().enumerate() {
        let p = &st["position"];
        if text(&p["file"]) == input {
            if let Some(line) = p["line"].as_u64() {
                visits.entry(line).or_default().push((k + 1, effects(st)));
            }
        }
    }
    let error = (text(&v["position"]["file"]) == input)
        .then(|| v["position"]["line"].as_u64())
        .flatten()
        .map(|l| (l, message.as_str()));
    let _ = write!(
        s,
        "<h3>Source</h3>\n<p class=\"note\">{} steps; the lines they executed are highlighted, each with its step numbers in order and the values assigned there; the failing line is red.</p>\n",
        steps.len()
    );
    s + &listing(source, &visits, error, id)
}

/// The source with line numbers (row ids `ID-LN`); the lines in `visits` highlighted with
/// their executions, the `error` line (with its message) marked.
fn listing(
    source: &str,
    visits: &BTreeMap<u64, Vec<(usize, String)>>,
    error: Option<(u64, &str)>,
    id: &str,
) -> String {
    let mut s = String::from("<table class=\"source\"><tbody>\n");
    for (i, line) in source.lines().enumerate() {
        let n = i as u64 + 1;
        let failing = error.filter(|(l, _)| *l == n);
        let mut class = String::from("line");
        if visits.contains_key(&n) {
            class += " executed";
        }
        if failing.is_some() {
            class += " error-line";
        }
        let mut notes = String::new();
        if let Some(v) = visits.get(&n) {
            notes += "<ol class=\"visits\">";
            for (j, (step, what)) in v.iter().enumerate() {
                if v.len() > VISITS && j == VISITS / 2 {
                    let _ = write!(
                        notes,
                        "<li class=\"more\">… {} more executions …</li>",
                        v.len() - VISITS
                    );
                }
                if v.len() <= VISITS || j < VISITS / 2 || j >= v.len() - VISITS / 2 {
                    let _ = write!(notes, "<li><span class=\"step\">#{step}</span> {what}</li>");
                }
            }
            notes += "</ol>";
        }
        if let Some((_, message)) = failing {
            let _ = write!(
                notes,
                "<div class=\"message\">error: {}</div>",
                esc(message)
            );
        }
        let _ = writeln!(
            s,
            "<tr class=\"{class}\" id=\"{id}-L{n}\" data-line=\"{n}\"><td class=\"ln\">{n}</td><td class=\"code\"><code>{}</code></td><td class=\"at\">{notes}</td></tr>",
            esc(line)
        );
    }
    s + "</tbody></table>\n"
}

/// The steps in order (and what ran before `main`), folded away when there are many.
fn step_table(steps: &[Value], before_main: &Value, id: &str) -> String {
    let row = |number: String, st: &Value| {
        let p = &st["position"];
        vec![
            number,
            match p["line"].as_u64() {
                Some(l) => format!("<a href=\"#{id}-L{l}\">{}</a>", at(p)),
                None => String::new(),
            },
            esc(&text(&st["function"])),
            format!("<code>{}</code>", esc(&text(&st["statement"]))),
            effects(st),
        ]
    };
    let mut rows: Vec<Vec<String>> = before_main
        .as_array()
        .into_iter()
        .flatten()
        .map(|st| row("before main".into(), st))
        .collect();
    rows.extend(
        steps
            .iter()
            .take(STEP_ROWS)
            .enumerate()
            .map(|(k, st)| row(format!("#{}", k + 1), st)),
    );
    let open = if steps.len() <= 20 { " open" } else { "" };
    let mut s = format!(
        "<details class=\"steps\"{open}><summary>The {} steps in order</summary>\n",
        steps.len()
    );
    s += &table(
        "steps",
        &["step", "line:column", "function", "statement", "values"],
        &rows,
    );
    if steps.len() > STEP_ROWS {
        let _ = writeln!(
            s,
            "<p class=\"note\">The first {STEP_ROWS} of {} steps are listed (all are in the JSON document of --json).</p>",
            steps.len()
        );
    }
    s + "</details>\n"
}

/// The engine's statistics (of `-v`) as a table.
fn statistics(stats: &Value) -> String {
    let rows: Vec<Vec<String>> = stats
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let shown = match (&v["before"], &v["after"]) {
                (Value::Number(b), Value::Number(a)) => format!("{b} -> {a}"),
                _ => text(v),
            };
            vec![esc(k), esc(&shown)]
        })
        .collect();
    if rows.is_empty() {
        return "<p class=\"note\">No statistics.</p>\n".into();
    }
    format!(
        "<h3>Statistics</h3>\n{}",
        table("statistics", &["statistic", "value"], &rows)
    )
}

/// Writes a page to `path`.
pub fn write(path: &std::path::Path, page: &str) -> anyhow::Result<()> {
    std::fs::write(path, page).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
