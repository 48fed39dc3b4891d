//! The page's section on grading: ratings per band stacked by hardest technique, ER beside EP
//! and ED, inputs side by side, and the hardest puzzles with their `explain --logic` commands.

use std::fmt::Write as _;

use super::{Page, escape, label, n, percent, table};
use crate::pipeline::grade::er_band_label;
use crate::report::charts::{self, colour};
use crate::report::input::{Grading, InputReport};
use crate::words::thousands;

/// The hardest techniques a stacked chart shows apart; the rest are one layer, `others`.
const LAYERS: usize = 7;

/// Grading: ER per band stacked by hardest technique, EP and ED, the hardest puzzles.
pub(super) fn grading_section(page: &mut Page, inputs: &[(&InputReport, &Grading)]) {
    page.push(
        "<section id=\"grading\"><h2>Grading</h2><p class=\"note\">Ratings on the Sudoku \
               Explainer scale: ER the hardest step, EP the hardest step before the first \
               placement, ED the first step. Percentiles are exact.</p>",
    );
    // Files of `grade --min-er/--max-er`: the puzzles whose rating stopped at the band.
    let banded = inputs.iter().any(|(_, g)| !g.by_band.is_empty());
    let mut header: Vec<String> = [
        "input",
        "rated",
        "not rated",
        "stopped at a band",
        "ER p50",
        "p90",
        "p99",
        "max",
        "mean",
        "EP p50",
        "p90",
        "max",
        "ED p50",
        "p90",
        "max",
    ]
    .map(String::from)
    .to_vec();
    if !banded {
        header.remove(3);
    }
    let cell = |v: &Option<String>| format!("<td class=\"n\">{}</td>", v.as_deref().unwrap_or("–"));
    let rows: Vec<Vec<String>> = inputs
        .iter()
        .map(|&(i, g)| {
            let mut row = vec![
                format!("<th scope=\"row\">{}</th>", escape(&label(i))),
                n(g.rated),
                n(g.unrated),
                n(g.stopped),
                cell(&g.er.p50),
                cell(&g.er.p90),
                cell(&g.er.p99),
                cell(&g.er.max),
                cell(&g.er.mean.map(|m| format!("{m:.2}"))),
                cell(&g.ep.p50),
                cell(&g.ep.p90),
                cell(&g.ep.max),
                cell(&g.ed.p50),
                cell(&g.ed.p90),
                cell(&g.ed.max),
            ];
            if !banded {
                row.remove(3);
            }
            row
        })
        .collect();
    page.push("<div class=\"scroll\">");
    page.push(&table(&header, &rows));
    page.push("</div>");
    stopped_note(page, inputs);
    page.push("<div class=\"charts\">");
    for &(input, g) in inputs {
        band_chart(page, input, g);
    }
    // The bands from the first to the last that any input fills.
    let filled = |g: &Grading| {
        let used = |b: &Vec<u64>| {
            let first = b.iter().position(|&n| n > 0);
            let last = b.iter().rposition(|&n| n > 0);
            first.zip(last)
        };
        [&g.er_bands, &g.ep_bands, &g.ed_bands]
            .into_iter()
            .filter_map(used)
            .collect::<Vec<_>>()
    };
    let spans: Vec<(usize, usize)> = inputs.iter().flat_map(|(_, g)| filled(g)).collect();
    let (Some(first), Some(last)) = (
        spans.iter().map(|s| s.0).min(),
        spans.iter().map(|s| s.1).max(),
    ) else {
        page.push("</div><p class=\"note\">No puzzle was rated in full.</p></section>\n");
        return;
    };
    let bands: Vec<String> = (first..=last).map(er_band_label).collect();
    for &(input, g) in inputs {
        let mut layers: Vec<(String, Vec<u64>, _)> = g
            .by_technique
            .iter()
            .take(LAYERS)
            .enumerate()
            .map(|(k, (name, b))| (name.clone(), b[first..=last].to_vec(), colour(k)))
            .collect();
        if g.by_technique.len() > LAYERS {
            let mut rest = vec![0; last - first + 1];
            for (_, b) in &g.by_technique[LAYERS..] {
                for (r, v) in rest.iter_mut().zip(&b[first..=last]) {
                    *r += v;
                }
            }
            layers.push(("others".into(), rest, charts::PALETTE[9]));
        }
        // The easiest technique at the bottom: most layers are ordered by frequency, and the
        // most frequent hardest steps are the easy ones.
        let mut header = vec!["hardest technique".to_string()];
        header.extend(bands.iter().map(|b| escape(b)));
        let rows: Vec<Vec<String>> = g
            .by_technique
            .iter()
            .map(|(name, b)| {
                std::iter::once(format!("<th scope=\"row\">{}</th>", escape(name)))
                    .chain(b[first..=last].iter().map(|&v| n(v)))
                    .collect()
            })
            .collect();
        page.figure(
            &format!("ER of {}", input.path),
            "puzzles per band, by hardest technique",
            &format!(
                "Stacked bar chart: puzzles of {} per band of ER from {} to {}, each bar split \
                 by the hardest technique the puzzle needs.",
                input.path,
                bands[0],
                bands[bands.len() - 1]
            ),
            |w| charts::stacked_bars(w, &bands, &layers, "ER", "puzzles"),
            &table(&header, &rows),
        );
        let series: Vec<(String, Vec<f64>, _)> = [
            ("ER", &g.er_bands),
            ("EP", &g.ep_bands),
            ("ED", &g.ed_bands),
        ]
        .into_iter()
        .enumerate()
        .map(|(k, (name, b))| {
            (
                name.to_string(),
                b[first..=last].iter().map(|&v| v as f64).collect(),
                colour(k),
            )
        })
        .collect();
        let mut header = vec!["rating".to_string()];
        header.extend(bands.iter().map(|b| escape(b)));
        let rows: Vec<Vec<String>> = series
            .iter()
            .map(|(name, values, _)| {
                std::iter::once(format!("<th scope=\"row\">{name}</th>"))
                    .chain(values.iter().map(|&v| n(v as u64)))
                    .collect()
            })
            .collect();
        page.figure(
            &format!("ER, EP and ED of {}", input.path),
            "puzzles per band",
            &format!(
                "Bar chart: puzzles of {} per band of ER, of EP and of ED, side by side.",
                input.path
            ),
            |w| charts::grouped_bars(w, &bands, &series, "rating", "puzzles"),
            &table(&header, &rows),
        );
    }
    if inputs.len() > 1 {
        let series: Vec<(String, Vec<f64>, _)> = inputs
            .iter()
            .enumerate()
            .map(|(k, &(i, g))| {
                let total = g.rated.max(1) as f64;
                let values = g.er_bands[first..=last]
                    .iter()
                    .map(|&v| 100.0 * v as f64 / total)
                    .collect();
                (label(i), values, colour(k))
            })
            .collect();
        let mut header = vec!["ER".to_string()];
        header.extend(inputs.iter().map(|(i, _)| escape(&label(i))));
        let rows: Vec<Vec<String>> = bands
            .iter()
            .enumerate()
            .map(|(b, band)| {
                std::iter::once(format!("<th scope=\"row\">{}</th>", escape(band)))
                    .chain(inputs.iter().map(|(_, g)| {
                        format!(
                            "<td class=\"n\">{} ({})</td>",
                            thousands(g.er_bands[first + b]),
                            percent(g.er_bands[first + b], g.rated)
                        )
                    }))
                    .collect()
            })
            .collect();
        page.figure(
            "ER side by side",
            "share of each input's rated puzzles per band",
            &format!(
                "Bar chart: the share of rated puzzles per band of ER, for {}.",
                inputs
                    .iter()
                    .map(|(i, _)| label(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            |w| charts::grouped_bars(w, &bands, &series, "ER", "share of rated puzzles (%)"),
            &table(&header, &rows),
        );
    }
    page.push("</div>");
    for &(input, g) in inputs {
        if g.hardest.is_empty() {
            continue;
        }
        let _ = write!(
            page.out,
            "<h3>Hardest puzzles of {}</h3><p class=\"note\">Each command shows the steps a \
             person would take.</p>",
            escape(&input.path)
        );
        let several = g.hardest.iter().any(|x| !x.file.is_empty());
        let mut header: Vec<String> = ["#", "ER", "EP", "ED", "hardest technique"]
            .map(String::from)
            .to_vec();
        if several {
            header.push("input".into());
        }
        header.extend(["line", "explain it"].map(String::from));
        let rows: Vec<Vec<String>> = g
            .hardest
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let mut row = vec![
                    format!("<td>{}</td>", k + 1),
                    format!("<td class=\"n\">{}</td>", escape(&x.er)),
                    format!("<td class=\"n\">{}</td>", escape(&x.ep)),
                    format!("<td class=\"n\">{}</td>", escape(&x.ed)),
                    format!("<td class=\"name\">{}</td>", escape(&x.hardest)),
                ];
                if several {
                    row.push(format!("<td>{}</td>", escape(&x.file)));
                }
                row.push(format!("<td class=\"n\">{}</td>", x.line));
                row.push(format!(
                    "<td><code class=\"cmd\">sudoku-batch explain --logic {}</code></td>",
                    escape(&x.puzzle)
                ));
                row
            })
            .collect();
        page.push("<div class=\"scroll\">");
        page.push(&table(&header, &rows));
        page.push("</div>");
    }
    page.push("</section>\n");
}

/// Says, per input with puzzles stopped at a band, that the ratings shown leave them out.
fn stopped_note(page: &mut Page, inputs: &[(&InputReport, &Grading)]) {
    for &(input, g) in inputs {
        if g.stopped == 0 {
            continue;
        }
        let bands: Vec<String> = g
            .by_band
            .iter()
            .filter(|b| b.stopped > 0)
            .map(|b| format!("{}: {}", escape(&b.band), thousands(b.stopped)))
            .collect();
        let rest = if g.rated == 0 {
            "and no puzzle was rated in full".to_string()
        } else {
            format!(
                "so the ratings, charts and hardest puzzles here are those of the {} rated in \
                 full",
                thousands(g.rated)
            )
        };
        let _ = write!(
            page.out,
            "<p class=\"note\">{} puzzles of {} stopped being rated as soon as their band was \
             known ({}): they have no ER, EP or ED, {rest}.</p>",
            thousands(g.stopped),
            escape(&input.path),
            bands.join(", "),
        );
    }
}

/// The puzzles per value of the `band` column of a file of `grade --min-er/--max-er`: those
/// rated in full and those stopped at the band, stacked.
fn band_chart(page: &mut Page, input: &InputReport, g: &Grading) {
    if g.by_band.is_empty() {
        return;
    }
    let bands: Vec<String> = g.by_band.iter().map(|b| b.band.clone()).collect();
    // The layers that hold a puzzle; a chart of one layer has no legend, its caption names it.
    let layers: Vec<(String, Vec<u64>, _)> = [
        ("rated in full", g.rated),
        ("stopped at the band", g.stopped),
    ]
    .into_iter()
    .enumerate()
    .filter(|&(_, (_, total))| total > 0)
    .map(|(k, (name, _))| {
        let values = g
            .by_band
            .iter()
            .map(|b| if k == 0 { b.rated } else { b.stopped })
            .collect();
        (name.to_string(), values, colour(k))
    })
    .collect();
    let note = match layers.as_slice() {
        [(only, ..)] => format!("puzzles per band of --min-er/--max-er, all {only}"),
        _ => "puzzles per band of --min-er/--max-er".to_string(),
    };
    let header: Vec<String> = ["band", "rated in full", "stopped at the band", "puzzles"]
        .map(String::from)
        .to_vec();
    let rows: Vec<Vec<String>> = g
        .by_band
        .iter()
        .map(|b| {
            vec![
                format!("<th scope=\"row\">{}</th>", escape(&b.band)),
                n(b.rated),
                n(b.stopped),
                n(b.rated + b.stopped),
            ]
        })
        .collect();
    page.figure(
        &format!("Bands of {}", input.path),
        &note,
        &format!(
            "Stacked bar chart: puzzles of {} per band ({}), each bar split into those rated \
             in full and those whose rating stopped as soon as their band was known.",
            input.path,
            bands.join(", ")
        ),
        |w| charts::stacked_bars(w, &bands, &layers, "band", "puzzles"),
        &table(&header, &rows),
    );
}
