//! `bitmc verify --report FILE.html`: the page of a run says what the JSON document of the same
//! run says. On fixtures with a FALSE verdict (a loop with calls, a goto loop, a no-overflow
//! violation), a TRUE one and an UNKNOWN one: the verdicts in the header; the highlighted
//! source lines are exactly the lines of the document's steps, each step number beside its
//! own line, in order, with the values it assigned; the one error line is the violation's;
//! the CFA drawing is well-formed SVG with the path on it; nothing refers outside the page.
//! Then Chromium (headless) renders a page and the rendered DOM is checked: the error line's
//! element holds the failing line's text (a skip without Chromium, a failure under CI=true).

mod common;
mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{bitmc, temp_dir};

/// The fixtures: (file, property, expected verdict line).
const CASES: &[(&str, &str, &str)] = &[
    (
        "fixtures/c/functions/static_local_reach.c",
        "unreach-call",
        "FALSE(unreach-call)",
    ),
    (
        "fixtures/c/control/goto_backward_reach.c",
        "unreach-call",
        "FALSE(unreach-call)",
    ),
    (
        "fixtures/c/overflow/increment_overflow.c",
        "no-overflow",
        "FALSE(no-overflow)",
    ),
    ("fixtures/c/loops/count_to_n.c", "unreach-call", "TRUE"),
    (
        "fixtures/c/semantics/shift_out_of_range_then_check.c",
        "unreach-call",
        "UNKNOWN",
    ),
];

/// One run with `--json` and `--report`: its page and its document.
fn run(dir: &Path, file: &str, property: &str) -> (String, Value) {
    let name = Path::new(file).file_stem().unwrap().to_string_lossy();
    let html = dir.join(format!("{name}.html"));
    let json = dir.join(format!("{name}.json"));
    let r = bitmc(&[
        "verify",
        file,
        "--property",
        property,
        "--timeout",
        "20",
        "--json",
        json.to_str().unwrap(),
        "--report",
        html.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(&html)
        .unwrap_or_else(|e| panic!("{file}: no page ({e}): {}{}", r.stdout, r.stderr));
    let doc = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (page, doc)
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    tag[i..].split('"').next()
}

/// The rows of the source listings: (classes, line, the row's HTML).
fn rows(page: &str) -> Vec<(String, u64, String)> {
    let mut out = Vec::new();
    for chunk in page.split("<tr ").skip(1) {
        let tag = format!(" {}", &chunk[..chunk.find('>').unwrap_or(0)]);
        let Some(line) = attr(&tag, "data-line").and_then(|l| l.parse().ok()) else {
            continue;
        };
        let class = attr(&tag, "class").unwrap_or_default();
        let row = &chunk[..chunk.find("</tr>").unwrap_or(chunk.len())];
        out.push((class.to_string(), line, row.to_string()));
    }
    out
}

/// The step numbers written in a row, in order.
fn step_numbers(row: &str) -> Vec<usize> {
    row.split("<span class=\"step\">#")
        .skip(1)
        .filter_map(|s| s.split('<').next()?.parse().ok())
        .collect()
}

/// Text as the page escapes it.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Every `<svg>…</svg>` of the page, parsed as XML: (number of drawings, on-path edges).
fn drawings(page: &str) -> Result<(usize, usize), String> {
    let mut count = 0;
    let mut on_path = 0;
    let mut rest = page;
    while let Some(i) = rest.find("<svg") {
        let j = rest[i..].find("</svg>").ok_or("an <svg> without its end")?;
        let svg = &rest[i..i + j + "</svg>".len()];
        let doc = roxmltree::Document::parse(svg).map_err(|e| format!("not XML: {e}"))?;
        on_path += doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("edge on-path"))
            .filter(|n| n.children().any(|c| c.has_tag_name("path")))
            .count();
        count += 1;
        rest = &rest[i + j..];
    }
    Ok((count, on_path))
}

/// Checks one page against its document; the counterexample's checks need a violation.
fn agree(file: &str, page: &str, doc: &Value, verdict: &str) -> Result<(), String> {
    if doc["verdict"] != verdict {
        return Err(format!("document verdict {}", doc["verdict"]));
    }
    if !page.contains(&format!("id=\"verdict\">{verdict}</span>")) {
        return Err(format!("no verdict line {verdict} in the header"));
    }
    for bad in [
        "http:", "https:", "src=", "<link", "<script", "@import", "url(\"",
    ] {
        if page.contains(bad) {
            return Err(format!("the page refers outside itself: `{bad}`"));
        }
    }
    for href in page.split("href=\"").skip(1) {
        if !href.starts_with('#') {
            return Err(format!("a link outside the page: {}", &href[..20]));
        }
    }
    let p = &doc["properties"][0];
    if let Some(reason) = p["reason"].as_str() {
        if !page.contains(&format!("<td>{}</td>", esc(reason))) {
            return Err(format!("no reason `{reason}` in the properties' table"));
        }
    }
    let stats = p["statistics"].as_object().map_or(0, |m| m.len());
    if stats > 0 && page.matches("<table class=\"statistics\">").count() != 1 {
        return Err("no statistics table".into());
    }
    let rows = rows(page);
    let source = std::fs::read_to_string(file).unwrap();
    let cex = &p["counterexample"];
    let Some(steps) = cex["steps"].as_array() else {
        // No counterexample: the plain source, nothing highlighted, nothing drawn.
        if rows.len() != source.lines().count() {
            return Err(format!(
                "{} source rows for {} lines",
                rows.len(),
                source.lines().count()
            ));
        }
        if rows.iter().any(|(c, _, _)| c != "line") || page.contains("<svg") {
            return Err("a page without a counterexample highlights or draws".into());
        }
        return Ok(());
    };
    // The highlighted lines are exactly the steps' lines.
    let step_lines: Vec<u64> = steps
        .iter()
        .filter(|s| s["position"]["file"] == file)
        .filter_map(|s| s["position"]["line"].as_u64())
        .collect();
    let mut want = step_lines.clone();
    want.sort_unstable();
    want.dedup();
    let got: Vec<u64> = rows
        .iter()
        .filter(|(c, _, _)| c.split(' ').any(|c| c == "executed"))
        .map(|(_, l, _)| *l)
        .collect();
    if got != want {
        return Err(format!(
            "highlighted lines {got:?}, the steps' lines {want:?}"
        ));
    }
    // The error line is the violation's.
    let errors: Vec<u64> = rows
        .iter()
        .filter(|(c, _, _)| c.split(' ').any(|c| c == "error-line"))
        .map(|(_, l, _)| *l)
        .collect();
    let line = cex["violation"]["position"]["line"].as_u64();
    if errors != line.into_iter().collect::<Vec<_>>() {
        return Err(format!("error lines {errors:?}, the violation's {line:?}"));
    }
    // Each step's number beside its own line, in order, with its values.
    let mut numbers = Vec::new();
    for (_, l, row) in &rows {
        let here = step_numbers(row);
        if here.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("line {l}: steps out of order {here:?}"));
        }
        for &k in &here {
            let s = &steps[k - 1];
            if s["position"]["line"].as_u64() != Some(*l) {
                return Err(format!(
                    "step #{k} beside line {l}, it ran line {}",
                    s["position"]["line"]
                ));
            }
            for a in s["assignments"].as_array().into_iter().flatten() {
                let v = a["value"].as_str().unwrap_or_default();
                let variable = a["variable"].as_str().unwrap_or_default();
                let is = if variable.ends_with(" returns") {
                    ""
                } else {
                    " ="
                };
                let text = esc(&format!("{variable}{is} {v}"));
                if !row.contains(&text) {
                    return Err(format!("line {l}: step #{k} without `{text}`"));
                }
            }
        }
        numbers.extend(here);
    }
    numbers.sort_unstable();
    if !page.contains("more executions") && numbers != (1..=step_lines.len()).collect::<Vec<_>>() {
        return Err(format!(
            "step numbers {numbers:?} for {} steps",
            step_lines.len()
        ));
    }
    // The drawing.
    let (svgs, on_path) = drawings(page)?;
    if svgs != 1 || on_path == 0 {
        return Err(format!("{svgs} drawings, {on_path} edges on the path"));
    }
    Ok(())
}

#[test]
fn pages_agree_with_the_json_document() {
    let dir = temp_dir("cli-report");
    let mut bad = Vec::new();
    for &(file, property, verdict) in CASES {
        let (page, doc) = run(&dir, file, property);
        if let Err(e) = agree(file, &page, &doc, verdict) {
            bad.push(format!("{file}: {e}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `chromium --headless --dump-dom` of a page: the DOM after parsing and layout, or why not.
fn rendered(page: &Path) -> Result<String, String> {
    let out = page.with_extension("dom");
    let file = std::fs::File::create(&out).map_err(|e| e.to_string())?;
    let mut child = std::process::Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .stdout(file)
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("chromium does not run: {e}"))?;
    let status = common::wait_at_most(
        &mut child,
        std::time::Duration::from_secs(120),
        std::time::Duration::from_millis(100),
    )
    .ok_or("chromium did not finish in 120 s")?;
    let dom = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
    if !status.success() || dom.is_empty() {
        return Err(format!("chromium failed ({status})"));
    }
    Ok(dom)
}

#[test]
fn chromium_renders_the_error_line() {
    let works = std::process::Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        common::oracle_missing("chromium is not installed: the report is not rendered");
        return;
    }
    let dir = temp_dir("cli-report-chromium");
    let (file, property, _) = CASES[0];
    let (_, doc) = run(&dir, file, property);
    let page: PathBuf = dir.join("static_local_reach.html");
    let dom = rendered(&page).unwrap_or_else(|e| panic!("{e}"));
    let line = doc["properties"][0]["counterexample"]["violation"]["position"]["line"]
        .as_u64()
        .unwrap();
    let text = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .nth(line as usize - 1)
        .unwrap()
        .trim()
        .to_string();
    // The element whose class holds error-line, as Chromium serialises the DOM (text escapes
    // only `&`, `<` and `>`).
    let errors: Vec<(u64, String)> = rows(&dom)
        .into_iter()
        .filter(|(c, _, _)| c.split(' ').any(|c| c == "error-line"))
        .map(|(_, l, row)| (l, row))
        .collect();
    assert_eq!(
        errors.len(),
        1,
        "one element of class error-line in the rendered DOM"
    );
    let (at, row) = &errors[0];
    let shown = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert!(
        *at == line && row.contains(&shown),
        "the error line's element is line {at}, not {line} `{text}`: {row}"
    );
    // The drawing is in the DOM as SVG, with the path on it.
    assert!(
        dom.contains("<svg") && dom.contains("edge on-path"),
        "no drawing in the DOM"
    );
}
