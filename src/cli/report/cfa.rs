//! The CFA a counterexample ran on, drawn as inline SVG with the counterexample's path on it,
//! laid out by the `layout-rs` crate (a Sugiyama-style layered layout in pure Rust).
//!
//! The CFA is the front end's (`Check::original`), the one the printed steps were read from
//! ([`bitmc::witness::trace::Trace::path`]), so each edge of the path is labelled with the
//! numbers of the printed steps it belongs to. Only the functions the path visits are drawn
//! (their locations, and the error, exit and sink locations the path reaches); with more than
//! [`MAX_LOCATIONS`] of them, only the locations on the path. What is left out is said in
//! [`Drawing::note`].

use bitmc::cfa::{Cfa, EdgeId, Gcl, Loc, LocKind};
use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::geometry::{Point, Position};
use layout::core::style::StyleAttr;
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The most locations drawn (more would take the layout seconds and the reader longer).
pub const MAX_LOCATIONS: usize = 150;
/// The most characters of an edge's statement text shown on it.
const LABEL_CHARS: usize = 28;
/// The most step numbers written on one edge.
const STEP_NUMBERS: usize = 4;

/// An SVG drawing of a CFA and what it leaves out.
pub struct Drawing {
    /// The `<svg>` element (no XML declaration, no namespace URL: it is inlined in HTML).
    pub svg: String,
    /// The numbers of locations and edges drawn, and of those left out.
    pub note: String,
    /// The drawing's width in pixels.
    pub width: f64,
}

/// Draws `cfa` with `path` (the run's edges, each with its printed step's index) on it; `id`
/// prefixes the SVG's element ids, so that several drawings can share one page.
pub fn draw(cfa: &Cfa, path: &[(EdgeId, Option<usize>)], id: &str) -> Drawing {
    let on_path: BTreeSet<Loc> = path
        .iter()
        .flat_map(|(e, _)| [cfa.edge(*e).from, cfa.edge(*e).to])
        .collect();
    let functions: BTreeSet<&str> = on_path
        .iter()
        .filter_map(|l| cfa.locations[l.index()].function.as_deref())
        .collect();
    let mut shown: BTreeSet<Loc> = (0..cfa.locations.len() as u32)
        .map(Loc)
        .filter(|l| {
            on_path.contains(l)
                || cfa.locations[l.index()]
                    .function
                    .as_deref()
                    .is_some_and(|f| functions.contains(f))
        })
        .collect();
    let whole = shown.len();
    if whole > MAX_LOCATIONS {
        shown = on_path.clone();
    }
    let steps = step_numbers(path);
    let (mut vg, edges) = graph(cfa, &shown, &on_path, &steps);
    let mut svg = SVGWriter::new();
    if shown.is_empty() {
        return Drawing {
            svg: String::new(),
            note: "no location to draw".into(),
            width: 0.0,
        };
    }
    vg.do_it(false, false, false, &mut svg);
    // The writer's canvas grows by guesses of the text's extent; the nodes' boxes give the
    // drawing's real one.
    let (low, high) = extent(&vg);
    let margin = 16.0;
    let width = high.x - low.x + 2.0 * margin;
    let view = format!(
        "<svg class=\"cfa\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"{x:.1} {y:.1} {w:.1} {h:.1}\">",
        x = low.x - margin,
        y = low.y - margin,
        w = width,
        h = high.y - low.y + 2.0 * margin,
    );
    let note = note_of(cfa, shown.len(), edges, whole, &functions);
    Drawing {
        svg: inline(&svg.finalize(), &view, id),
        note,
        width,
    }
}

/// The printed step numbers of each edge of the path, in order.
fn step_numbers(path: &[(EdgeId, Option<usize>)]) -> BTreeMap<EdgeId, Vec<usize>> {
    let mut steps: BTreeMap<EdgeId, Vec<usize>> = BTreeMap::new();
    for (e, s) in path {
        let numbers = steps.entry(*e).or_default();
        if let Some(s) = s {
            if numbers.last() != Some(&(s + 1)) {
                numbers.push(s + 1);
            }
        }
    }
    steps
}

/// The graph of the `shown` locations and the edges between them, `on_path` and `steps`
/// marking the path, with the number of edges it has.
fn graph(
    cfa: &Cfa,
    shown: &BTreeSet<Loc>,
    on_path: &BTreeSet<Loc>,
    steps: &BTreeMap<EdgeId, Vec<usize>>,
) -> (VisualGraph, usize) {
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let mut handles = HashMap::new();
    for &l in shown {
        handles.insert(l, vg.add_node(node(cfa, l, on_path.contains(&l))));
    }
    let mut edges = 0;
    for (k, e) in cfa.edges.iter().enumerate() {
        let (Some(&a), Some(&b)) = (handles.get(&e.from), handles.get(&e.to)) else {
            continue;
        };
        edges += 1;
        let taken = steps.get(&EdgeId(k as u32));
        vg.add_edge(arrow(cfa, &e.cmd, taken), a, b);
    }
    (vg, edges)
}

/// The corners of the box around a laid-out graph's nodes (labels and the bends of long edges
/// are nodes too).
fn extent(vg: &VisualGraph) -> (Point, Point) {
    let (mut low, mut high) = (
        Point::new(f64::MAX, f64::MAX),
        Point::new(f64::MIN, f64::MIN),
    );
    for n in vg.iter_nodes() {
        let (a, b) = vg.pos(n).bbox(false);
        low = Point::new(low.x.min(a.x), low.y.min(a.y));
        high = Point::new(high.x.max(b.x), high.y.max(b.y));
    }
    (low, high)
}

/// The note of a drawing of `shown` locations and `edges` edges of `cfa`: what it draws and
/// what it leaves out, `whole` being the number of locations of the `functions` the path
/// visits.
fn note_of(
    cfa: &Cfa,
    shown: usize,
    edges: usize,
    whole: usize,
    functions: &BTreeSet<&str>,
) -> String {
    let left = cfa.locations.len() - shown;
    let mut note = format!(
        "{shown} of {} locations and {edges} of {} edges drawn",
        cfa.locations.len(),
        cfa.edges.len()
    );
    if whole > MAX_LOCATIONS {
        note += &format!(
            ": only the locations on the path (the {} it visits {} {whole} locations, over {MAX_LOCATIONS})",
            if functions.len() == 1 { "function".to_string() } else { format!("{} functions", functions.len()) },
            if functions.len() == 1 { "has" } else { "have" },
        );
    } else if left > 0 {
        let others: BTreeSet<&str> = cfa
            .locations
            .iter()
            .filter_map(|i| i.function.as_deref())
            .filter(|f| !functions.contains(f))
            .collect();
        note += &format!(
            "; left out: {left} locations{} that the path does not visit",
            if others.is_empty() {
                String::new()
            } else {
                format!(
                    " (of {})",
                    others.into_iter().collect::<Vec<_>>().join(", ")
                )
            }
        );
    }
    note
}

/// A location's node: its number and line, coloured by kind and by whether the path visits it.
fn node(cfa: &Cfa, l: Loc, visited: bool) -> Element {
    let info = &cfa.locations[l.index()];
    let mut label = format!("{l}");
    match &info.kind {
        LocKind::Init => label += " init",
        LocKind::Error => label += " ERROR",
        LocKind::Exit => label += " exit",
        LocKind::Sink(_) => label += " sink",
        LocKind::Normal => {
            if let Some(p) = info.pos.as_ref().filter(|p| p.line > 0) {
                label += &format!(" line {}", p.line);
            }
        }
    }
    let (fill, line, class) = match (&info.kind, visited) {
        (LocKind::Error, _) => ("#ffe3e3", "#c92a2a", "loc error"),
        (LocKind::Sink(_), _) => ("#fff4e6", "#e8590c", "loc sink"),
        (_, true) => ("#fff3bf", "#e67700", "loc visited"),
        (_, false) => ("#f8f9fa", "#adb5bd", "loc"),
    };
    let width = if visited { 2 } else { 1 };
    let look = StyleAttr::new(Color::fast(line), width, Some(Color::fast(fill)), 8, 13);
    let shape = ShapeKind::new_box(&label);
    let size = get_shape_size(Orientation::LeftToRight, &shape, 13, false);
    let mut e = Element::create(shape, look, Orientation::LeftToRight, size);
    // Closer than the crate's default halo of 60 around every node.
    e.pos = Position::new(Point::zero(), size, Point::zero(), Point::new(24., 14.));
    e.properties = Some(format!("class=\"{class}\" data-loc=\"{}\"", l.index()));
    e
}

/// An edge's arrow: the C text of its statement, and on the path the numbers of its steps.
fn arrow(cfa: &Cfa, cmd: &Gcl, steps: Option<&Vec<usize>>) -> Arrow {
    let mut text = statement(cfa, cmd);
    if text.chars().count() > LABEL_CHARS {
        text = text.chars().take(LABEL_CHARS - 1).collect::<String>() + "…";
    }
    let Some(steps) = steps else {
        let mut a = Arrow::simple(&text);
        a.look = StyleAttr::new(Color::fast("#adb5bd"), 1, None, 0, 11);
        a.properties = Some("class=\"edge\"".into());
        return a;
    };
    let mut numbers: Vec<String> = steps
        .iter()
        .take(STEP_NUMBERS)
        .map(|s| format!("#{s}"))
        .collect();
    if steps.len() > STEP_NUMBERS {
        numbers.push(format!("+{}", steps.len() - STEP_NUMBERS));
    }
    let label = if numbers.is_empty() {
        text
    } else {
        format!("{} {text}", numbers.join(","))
    };
    let mut a = Arrow::simple(&label);
    a.look = StyleAttr::new(Color::fast("#d9480f"), 3, None, 0, 12);
    a.properties = Some("class=\"edge on-path\"".into());
    a
}

/// The C text of the first command of an edge that has one.
fn statement(cfa: &Cfa, g: &Gcl) -> String {
    match g {
        Gcl::Seq(v) | Gcl::Choice(v) => v.iter().map(|x| statement(cfa, x)).find(|t| !t.is_empty()),
        Gcl::Assume(_, o) | Gcl::Assign(_, _, o) | Gcl::Havoc(_, _, o) => {
            cfa.origin(*o).map(|x| x.text.clone())
        }
    }
    .unwrap_or_default()
}

/// The writer's SVG made fit to inline in HTML: its start tag replaced by `view` (no XML
/// declaration, no namespace URL), its ids prefixed with `id`, its text in a monospace font.
fn inline(svg: &str, view: &str, id: &str) -> String {
    let start = svg.find("<svg").unwrap_or(0);
    let end = svg[start..].find('>').map_or(start, |k| start + k + 1);
    (view.to_string() + &svg[end..])
        .replace("id=\"", &format!("id=\"{id}-"))
        .replace("href=\"#", &format!("href=\"#{id}-"))
        .replace("url(#", &format!("url(#{id}-"))
        // Arrow heads of a fixed size, not scaled by the line's width.
        .replace("<marker ", "<marker markerUnits=\"userSpaceOnUse\" ")
        .replace(
            "font-family: Times, serif;",
            "font-family: ui-monospace, 'DejaVu Sans Mono', monospace;",
        )
}
