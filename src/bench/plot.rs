//! `cactus.svg`: the cactus plot of a bench (plotters, SVG backend only).
//!
//! One line per configuration: its solved runs sorted by wall time, the k-th point at
//! x = k (number of runs solved), y = the k-th smallest time, on a logarithmic time axis; a grey
//! line marks the time limit.

use anyhow::anyhow;
use plotters::prelude::*;
use std::path::Path;

/// Line colours, one per configuration (cycled): dark enough to read on white.
const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (255, 127, 14),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

/// Write the cactus plot of `series` (configuration name, wall times of its solved runs).
pub fn cactus(path: &Path, series: &[(String, Vec<f64>)], timeout: f64) -> anyhow::Result<()> {
    draw(path, series, timeout).map_err(|e| anyhow!("cannot draw {}: {e}", path.display()))
}

fn draw(
    path: &Path,
    series: &[(String, Vec<f64>)],
    timeout: f64,
) -> Result<(), Box<dyn std::error::Error>> {
    let max_solved = series.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let fastest = series
        .iter()
        .flat_map(|(_, t)| t.iter().copied())
        .fold(f64::INFINITY, f64::min);
    // Times below a millisecond are drawn at the bottom of the axis.
    let y_min = if fastest.is_finite() {
        (fastest / 2.0).max(1e-3)
    } else {
        1e-3
    };
    let y_max = (timeout * 1.5).max(y_min * 10.0);

    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("bitmc bench: solved runs by wall time", ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(0..(max_solved as i64 + 1), (y_min..y_max).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("number of solved runs")
        .y_desc("wall time (s)")
        .y_label_formatter(&|v| format_time(*v))
        .draw()?;

    let limit_style = RGBColor(150, 150, 150).stroke_width(1);
    chart
        .draw_series(LineSeries::new(
            [(0, timeout), (max_solved as i64 + 1, timeout)],
            limit_style,
        ))?
        .label(format!("time limit ({timeout} s)"))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], limit_style));

    for (i, (name, times)) in series.iter().enumerate() {
        let (r, g, b) = PALETTE[i % PALETTE.len()];
        let color = RGBColor(r, g, b);
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let points: Vec<(i64, f64)> = sorted
            .iter()
            .enumerate()
            .map(|(k, &t)| (k as i64 + 1, t.max(y_min)))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
            .label(format!("{name} ({} solved)", points.len()))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn format_time(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_string()
    }
}
