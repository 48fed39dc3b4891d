//! The report's charts, drawn by `plotters` into SVG strings that the page holds inline.
//!
//! Colours that read on a light and on a dark page: the series take the Tableau 10 palette
//! (mid-tone hues, legible on white and on near-black); axes, grid and text are drawn in marker
//! colours ([`INK`], [`GRID`]) that the page's stylesheet repaints for the reader's colour
//! scheme (CSS rules win over SVG presentation attributes). Each SVG is an image with a
//! `<title>` and a `<desc>` for screen readers; the page puts the numbers in a table beside it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::input::Distribution;

/// Width and height of a chart, in CSS pixels (the page scales it to its column).
const SIZE: (u32, u32) = (600, 330);

/// Marker colour of text and axes: the stylesheet paints `#010203` in the page's text colour.
pub const INK: RGBColor = RGBColor(1, 2, 3);
/// Marker colour of grid lines: `#040506`, painted faint by the stylesheet.
pub const GRID: RGBColor = RGBColor(4, 5, 6);

/// Tableau 10: the series' colours, in order.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

/// The colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// How the values of a log axis are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Whole numbers (guesses).
    Count,
    /// Nanoseconds, written as ns, µs, ms or s.
    Nanos,
}

impl Unit {
    /// `value` written for an axis or a table.
    pub fn format(self, value: f64) -> String {
        match self {
            Unit::Count => {
                if value >= 1e6 {
                    format!("{}M", trim(value / 1e6))
                } else if value >= 1e4 {
                    format!("{}k", trim(value / 1e3))
                } else {
                    trim(value)
                }
            }
            Unit::Nanos => {
                let (scaled, unit) = if value >= 1e9 {
                    (value / 1e9, "s")
                } else if value >= 1e6 {
                    (value / 1e6, "ms")
                } else if value >= 1e3 {
                    (value / 1e3, "µs")
                } else {
                    (value, "ns")
                };
                format!("{} {unit}", trim(scaled))
            }
        }
    }
}

/// The label of a tick of a log axis: only at 1, 2 and 5 times a power of ten, where the
/// ticks are far enough apart to be read.
fn log_label(unit: Unit, v: f64) -> String {
    if v <= 0.0 {
        return String::new();
    }
    let mantissa = v / 10f64.powf(v.log10().floor());
    if [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|m| (mantissa - m).abs() < 1e-6)
    {
        unit.format(v)
    } else {
        String::new()
    }
}

/// `v` with up to three significant digits and no trailing zeros.
fn trim(v: f64) -> String {
    let text = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A chart's words for screen readers.
pub struct Words<'a> {
    /// Its id in the page (for `aria-labelledby`).
    pub id: &'a str,
    /// What it shows, in a few words.
    pub title: &'a str,
    /// What it shows, in a sentence or two.
    pub desc: &'a str,
}

type Result<T> = std::result::Result<T, String>;

/// Draws with `draw` into an SVG of [`SIZE`] and makes it an accessible image.
fn svg(
    words: &Words,
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>,
) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    let Some(open_end) = out.find('>') else {
        return Err("the SVG backend wrote no <svg> element".into());
    };
    let escape = super::html::escape;
    let head = format!(
        " role=\"img\" aria-labelledby=\"{id}-t {id}-d\" class=\"chart\"><title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc",
        escape(words.title),
        escape(words.desc),
        id = words.id
    );
    out.insert_str(open_end, &head);
    Ok(out)
}

fn font(size: u32) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&INK)
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A series' share of its total in each bin, in percent.
fn shares(counts: impl Iterator<Item = u64>, total: u64) -> Vec<f64> {
    counts
        .map(|n| {
            if total == 0 {
                0.0
            } else {
                100.0 * n as f64 / total as f64
            }
        })
        .collect()
}

/// The histograms of `series` (name, distribution) on a log axis of `unit`, each bin's bars
/// side by side: the share of each series' values that fall in the bin.
pub fn log_histogram(
    words: &Words,
    series: &[(&str, &Distribution)],
    unit: Unit,
    x_desc: &str,
) -> Result<String> {
    let bins: Vec<&(u64, u64, u64)> = series.iter().flat_map(|(_, d)| &d.bins).collect();
    let Some(low) = bins.iter().map(|b| b.0).min() else {
        return Err("no value above 0 to show".into());
    };
    let high = bins.iter().map(|b| b.1).max().unwrap_or(low + 1);
    let bars: Vec<Vec<(u64, u64, f64)>> = series
        .iter()
        .map(|(_, d)| {
            let total = d.percentiles.count;
            let s = shares(d.bins.iter().map(|b| b.2), total);
            // Empty bins draw nothing (their place on the axis stays).
            d.bins
                .iter()
                .zip(s)
                .filter(|(b, _)| b.2 > 0)
                .map(|(b, s)| (b.0, b.1, s))
                .collect()
        })
        .collect();
    let top = bars
        .iter()
        .flatten()
        .map(|b| b.2)
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.1;
    svg(words, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((low as f64..high as f64).log_scale(), 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("share of puzzles (%)")
            .x_label_formatter(&|v| log_label(unit, *v))
            .y_label_formatter(&|v| trim(*v))
            .axis_style(INK)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .label_style(font(13))
            .axis_desc_style(font(14))
            .draw()
            .map_err(err)?;
        let n = series.len() as f64;
        for (i, ((name, _), bars)) in series.iter().zip(&bars).enumerate() {
            let c = colour(i);
            chart
                .draw_series(bars.iter().map(|&(lo, hi, share)| {
                    // The bin's width on the log axis, split among the series, with a gap.
                    let ratio = (hi as f64 / lo as f64).ln();
                    let at = |k: f64| lo as f64 * (ratio * (0.06 + 0.88 * k / n)).exp();
                    Rectangle::new(
                        [(at(i as f64), 0.0), (at(i as f64 + 1.0), share)],
                        c.filled(),
                    )
                }))
                .map_err(err)?
                .label(*name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        }
        legend(&mut chart, series.len(), SeriesLabelPosition::UpperRight)
    })
}

/// The cumulative share of `series` on a log axis of `unit`: the share of values up to each
/// bin's upper edge (values of 0 counted from the left end).
pub fn cumulative(
    words: &Words,
    series: &[(&str, &Distribution)],
    unit: Unit,
    x_desc: &str,
) -> Result<String> {
    let bins: Vec<&(u64, u64, u64)> = series.iter().flat_map(|(_, d)| &d.bins).collect();
    let Some(low) = bins.iter().map(|b| b.0).min() else {
        return Err("no value above 0 to show".into());
    };
    let high = bins.iter().map(|b| b.1).max().unwrap_or(low + 1);
    svg(words, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d((low as f64..high as f64).log_scale(), 0.0..100.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("puzzles at or below (%)")
            .x_label_formatter(&|v| log_label(unit, *v))
            .y_label_formatter(&|v| trim(*v))
            .axis_style(INK)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .label_style(font(13))
            .axis_desc_style(font(14))
            .draw()
            .map_err(err)?;
        for (i, (name, d)) in series.iter().enumerate() {
            let c = colour(i);
            let total = d.percentiles.count.max(1) as f64;
            let mut seen = d.zeros;
            let start = d.bins.first().map_or(low, |b| b.0);
            let mut points = vec![(start as f64, 100.0 * seen as f64 / total)];
            for &(_, hi, n) in &d.bins {
                seen += n;
                points.push((hi as f64, 100.0 * seen as f64 / total));
            }
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))
                .map_err(err)?
                .label(*name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], c.stroke_width(2)));
        }
        legend(&mut chart, series.len(), SeriesLabelPosition::LowerRight)
    })
}

/// Grouped bars over categories `labels` (one group per label): each series' values, with
/// `y_desc` on the y axis.
pub fn grouped_bars(
    words: &Words,
    labels: &[String],
    series: &[(String, Vec<f64>, RGBColor)],
    x_desc: &str,
    y_desc: &str,
) -> Result<String> {
    let top = series
        .iter()
        .flat_map(|s| &s.1)
        .copied()
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.1;
    let count = labels.len();
    svg(words, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5..count as f64 - 0.5, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(count.min(24))
            .x_label_formatter(&|v| category(labels, *v))
            .y_label_formatter(&|v| trim(*v))
            .axis_style(INK)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .label_style(font(13))
            .axis_desc_style(font(14))
            .draw()
            .map_err(err)?;
        let n = series.len() as f64;
        for (i, (name, values, c)) in series.iter().enumerate() {
            let c = *c;
            chart
                .draw_series(values.iter().enumerate().map(|(x, &v)| {
                    let left = x as f64 - 0.42 + 0.84 * i as f64 / n;
                    let right = x as f64 - 0.42 + 0.84 * (i as f64 + 1.0) / n;
                    Rectangle::new([(left, 0.0), (right, v)], c.filled())
                }))
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        }
        legend(&mut chart, series.len(), SeriesLabelPosition::UpperRight)
    })
}

/// Stacked bars over categories `labels`: each layer's values, bottom layer first.
pub fn stacked_bars(
    words: &Words,
    labels: &[String],
    layers: &[(String, Vec<u64>, RGBColor)],
    x_desc: &str,
    y_desc: &str,
) -> Result<String> {
    let count = labels.len();
    let totals: Vec<u64> = (0..count)
        .map(|x| {
            layers
                .iter()
                .map(|l| l.1.get(x).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    let top = totals.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.1;
    svg(words, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5..count as f64 - 0.5, 0.0..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(count.min(24))
            .x_label_formatter(&|v| category(labels, *v))
            .y_label_formatter(&|v| trim(*v))
            .axis_style(INK)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .label_style(font(13))
            .axis_desc_style(font(14))
            .draw()
            .map_err(err)?;
        let mut base = vec![0u64; count];
        for (name, values, c) in layers {
            let c = *c;
            let bars: Vec<Rectangle<(f64, f64)>> = values
                .iter()
                .enumerate()
                .filter(|(_, v)| **v > 0)
                .map(|(x, &v)| {
                    let from = base[x] as f64;
                    base[x] += v;
                    Rectangle::new(
                        [(x as f64 - 0.38, from), (x as f64 + 0.38, base[x] as f64)],
                        c.filled(),
                    )
                })
                .collect();
            chart
                .draw_series(bars)
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled()));
        }
        legend(&mut chart, layers.len(), SeriesLabelPosition::UpperRight)
    })
}

/// The label of the category at `v` on a category axis (labels at whole numbers only).
fn category(labels: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    labels.get(i as usize).cloned().unwrap_or_default()
}

/// Draws the legend of a chart with more than one series (one needs none: the caption names
/// it).
fn legend<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    series: usize,
    position: SeriesLabelPosition,
) -> Result<()>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    if series < 2 {
        return Ok(());
    }
    chart
        .configure_series_labels()
        .position(position)
        .label_font(font(13))
        .border_style(GRID)
        .background_style(TRANSPARENT)
        .draw()
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_in_their_units() {
        assert_eq!(Unit::Nanos.format(1500.0), "1.5 µs");
        assert_eq!(Unit::Nanos.format(250_000_000.0), "250 ms");
        assert_eq!(Unit::Nanos.format(2e9), "2 s");
        assert_eq!(Unit::Nanos.format(999.0), "999 ns");
        assert_eq!(Unit::Count.format(16.0), "16");
        assert_eq!(Unit::Count.format(20_000.0), "20k");
        assert_eq!(log_label(Unit::Count, 20.0), "20");
        assert_eq!(log_label(Unit::Count, 50.0), "50");
        assert_eq!(log_label(Unit::Count, 30.0), "");
        assert_eq!(log_label(Unit::Nanos, 1000.0), "1 µs");
    }

    #[test]
    fn a_chart_is_an_svg_image_with_a_title_and_a_description() {
        let mut h = super::super::stats::LogHistogram::default();
        for v in [0, 1, 5, 40, 900] {
            h.add(v);
        }
        let d = Distribution::of(&h);
        let words = Words {
            id: "g",
            title: "Guesses <per> puzzle",
            desc: "A histogram.",
        };
        let svg = log_histogram(&words, &[("a.csv", &d)], Unit::Count, "guesses").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        assert!(svg.contains("role=\"img\" aria-labelledby=\"g-t g-d\""));
        assert!(svg.contains("<title id=\"g-t\">Guesses &lt;per&gt; puzzle</title>"));
        assert_eq!(
            svg.matches("<rect").count(),
            4,
            "one bar per bin with values"
        );
    }
}
