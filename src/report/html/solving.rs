//! The page's section on solving: guesses and time per puzzle (tables, histograms and
//! cumulative shares on log axes) and the slowest puzzles with their `explain` commands.

use std::fmt::Write as _;

use super::{Page, escape, label, n, opt, percent, table};
use crate::report::charts::{self, Unit};
use crate::report::input::{Distribution, InputReport, Solving};

/// Solving: guesses and time per puzzle, their percentiles and the slowest puzzles.
pub(super) fn solving_section(
    page: &mut Page,
    inputs: &[(&InputReport, &Solving)],
    precision: &str,
) {
    page.push("<section id=\"solving\"><h2>Solving</h2>");
    let _ = write!(
        page.out,
        "<p class=\"note\">Every record that is a puzzle and was searched (not an isomorph \
         whose status `validate --duplicates --isomorphs` took from its class). Percentiles of guesses and time are \
         {}. Puzzles solved without a guess (0) are left off the log axes and counted from the \
         left end of the cumulative charts.</p>",
        escape(precision)
    );
    let header: Vec<String> = [
        "input",
        "puzzles",
        "no guess",
        "guesses p50",
        "p90",
        "p99",
        "max",
        "time p50",
        "p90",
        "p99",
        "max",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = inputs
        .iter()
        .map(|&(i, s)| {
            let (g, t) = (&s.guesses.percentiles, &s.time_ns.percentiles);
            vec![
                format!("<th scope=\"row\">{}</th>", escape(&label(i))),
                n(g.count),
                format!("<td class=\"n\">{}</td>", percent(s.guesses.zeros, g.count)),
                format!("<td class=\"n\">{}</td>", opt(g.p50, Unit::Count)),
                format!("<td class=\"n\">{}</td>", opt(g.p90, Unit::Count)),
                format!("<td class=\"n\">{}</td>", opt(g.p99, Unit::Count)),
                format!("<td class=\"n\">{}</td>", opt(g.max, Unit::Count)),
                format!("<td class=\"n\">{}</td>", opt(t.p50, Unit::Nanos)),
                format!("<td class=\"n\">{}</td>", opt(t.p90, Unit::Nanos)),
                format!("<td class=\"n\">{}</td>", opt(t.p99, Unit::Nanos)),
                format!("<td class=\"n\">{}</td>", opt(t.max, Unit::Nanos)),
            ]
        })
        .collect();
    page.push("<div class=\"scroll\">");
    page.push(&table(&header, &rows));
    page.push("</div>");
    let guesses: Vec<(&str, &Distribution)> = inputs
        .iter()
        .map(|(i, s)| (i.path.as_str(), &s.guesses))
        .collect();
    let times: Vec<(&str, &Distribution)> = inputs
        .iter()
        .map(|(i, s)| (i.path.as_str(), &s.time_ns))
        .collect();
    page.push("<div class=\"charts\">");
    distribution_figures(page, "Guesses per puzzle", "guesses", &guesses, Unit::Count);
    distribution_figures(page, "Time per puzzle", "time", &times, Unit::Nanos);
    page.push("</div>");
    for &(input, s) in inputs {
        if s.slowest.is_empty() {
            continue;
        }
        let _ = write!(
            page.out,
            "<h3>Slowest puzzles of {}</h3><p class=\"note\">Each command shows how the puzzle \
             is solved, step by step.</p>",
            escape(&input.path)
        );
        let several = s.slowest.iter().any(|x| !x.file.is_empty());
        let mut header: Vec<String> = vec!["#".into(), "time".into(), "guesses".into()];
        if several {
            header.push("input".into());
        }
        header.extend(["line", "explain it"].map(String::from));
        let rows: Vec<Vec<String>> = s
            .slowest
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let mut row = vec![
                    format!("<td>{}</td>", k + 1),
                    format!(
                        "<td class=\"n\">{}</td>",
                        Unit::Nanos.format(x.time_ns as f64)
                    ),
                    n(x.guesses),
                ];
                if several {
                    row.push(format!("<td>{}</td>", escape(&x.file)));
                }
                row.push(format!("<td class=\"n\">{}</td>", x.line));
                row.push(format!(
                    "<td><code class=\"cmd\">sudoku-batch explain {}</code></td>",
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

/// The histogram and the cumulative share of a distribution, for every input in `series`.
fn distribution_figures(
    page: &mut Page,
    caption: &str,
    what: &str,
    series: &[(&str, &Distribution)],
    unit: Unit,
) {
    let names = series.iter().map(|s| s.0).collect::<Vec<_>>().join(", ");
    let mut header = vec!["from".to_string(), "below".to_string()];
    header.extend(series.iter().map(|s| escape(s.0)));
    // Every bin edge of every series, and each series' count there.
    let mut edges: Vec<(u64, u64)> = series
        .iter()
        .flat_map(|s| s.1.bins.iter().map(|b| (b.0, b.1)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let mut rows: Vec<Vec<String>> = Vec::new();
    if series.iter().any(|s| s.1.zeros > 0) {
        let mut row = vec![
            "<td class=\"n\">0</td>".to_string(),
            "<td class=\"n\">1</td>".to_string(),
        ];
        row.extend(series.iter().map(|s| n(s.1.zeros)));
        rows.push(row);
    }
    for (low, high) in edges {
        let counts: Vec<u64> = series
            .iter()
            .map(|s| s.1.bins.iter().find(|b| b.0 == low).map_or(0, |b| b.2))
            .collect();
        if counts.iter().all(|&c| c == 0) {
            continue;
        }
        let mut row = vec![
            format!("<td class=\"n\">{}</td>", unit.format(low as f64)),
            format!("<td class=\"n\">{}</td>", unit.format(high as f64)),
        ];
        row.extend(counts.into_iter().map(n));
        rows.push(row);
    }
    let numbers = table(&header, &rows);
    page.figure(
        caption,
        "histogram, log scale, share of puzzles",
        &format!(
            "Histogram of {what} per puzzle on a logarithmic axis, four bins per doubling, as a \
             share of each input's puzzles, for {names}."
        ),
        |w| charts::log_histogram(w, series, unit, what),
        &numbers,
    );
    page.figure(
        &format!("{caption}, cumulative"),
        "share of puzzles at or below",
        &format!(
            "Line chart: the share of puzzles whose {what} is at or below each value, on a \
             logarithmic axis, for {names}."
        ),
        |w| charts::cumulative(w, series, unit, what),
        &numbers,
    );
}
