//! The report's page: one HTML file with its stylesheet and its charts (SVG) inline, no script
//! and nothing fetched, so that it opens from disk and can be mailed. Light or dark as the
//! reader's system is (`prefers-color-scheme`); every chart has its numbers in a table beside
//! it. This module writes the frame, the records and the differences; `solving` and `grading`
//! their sections.

use std::fmt::Write as _;

mod grading;
mod solving;

use super::charts::{self, Unit, Words, colour};
use super::input::{Command, Grading, InputReport, Solving};
use super::{Difference, Report};
use crate::words::thousands;
use grading::grading_section;
use solving::solving_section;

/// `text` with the characters that HTML gives a meaning escaped, and control characters (an
/// invalid record's NUL, which HTML does not allow) shown by their pictures (`␀`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if u32::from(c) < 0x20 => {
                out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = r##"
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d2127; --muted: #5d6670;
  --line: #d5dae1; --card: #f4f6f9; --accent: #2f6497; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15181d; --fg: #e5e8ec; --muted: #a3acb7; --line: #363c45; --card: #1e232a;
    --accent: #8cb4e0; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1320px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 22px 0 6px; }
p.meta, .note { color: var(--muted); margin: 4px 0; }
nav a { color: var(--accent); margin-right: 14px; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code.cmd { user-select: all; white-space: nowrap; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0 10px; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-weight: 600; }
td.n, th.n { text-align: right; }
td.name { white-space: nowrap; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 12px; }
.card { background: var(--card); border-radius: 8px; padding: 10px 14px; }
.card h3 { margin: 0 0 2px; font-size: 15px; word-break: break-all; }
.card .big { font-size: 24px; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 18px; }
figure { margin: 8px 0; background: var(--card); border-radius: 8px; padding: 10px 12px 6px; }
figcaption { font-weight: 600; margin-bottom: 2px; }
figcaption span { font-weight: normal; color: var(--muted); }
details summary { cursor: pointer; color: var(--accent); }
svg.chart { display: block; width: 100%; height: auto; }
svg.chart text { fill: var(--fg); }
svg.chart [stroke="#010203"] { stroke: var(--fg); }
svg.chart [fill="#010203"] { fill: var(--fg); }
svg.chart [stroke="#040506"] { stroke: var(--line); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
.bad { color: #d1495b; }
"##;

/// A page being written, with the ids its charts have taken.
struct Page {
    out: String,
    charts: usize,
}

impl Page {
    fn push(&mut self, text: &str) {
        self.out.push_str(text);
    }

    /// A figure: its caption, the chart (or why it is missing) and its numbers in a table.
    fn figure(
        &mut self,
        caption: &str,
        note: &str,
        desc: &str,
        draw: impl FnOnce(&Words) -> Result<String, String>,
        table: &str,
    ) {
        self.charts += 1;
        let id = format!("chart{}", self.charts);
        let words = Words {
            id: &id,
            title: caption,
            desc,
        };
        let chart = match draw(&words) {
            Ok(svg) => svg,
            Err(why) => format!("<p class=\"note\">No chart: {}.</p>", escape(&why)),
        };
        let _ = writeln!(
            self.out,
            "<figure><figcaption>{}{}</figcaption>{chart}<details><summary>The numbers</summary>\
             <div class=\"scroll\">{table}</div></details></figure>",
            escape(caption),
            if note.is_empty() {
                String::new()
            } else {
                format!(" <span>{}</span>", escape(note))
            }
        );
    }
}

/// The table cell of a count.
fn n(value: u64) -> String {
    format!("<td class=\"n\">{}</td>", thousands(value))
}

/// A table from its header cells and rows of cells (already HTML).
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table><thead><tr>");
    for (i, h) in header.iter().enumerate() {
        // A column of numbers has its heading on the right, as its numbers are.
        let numbers = rows
            .first()
            .and_then(|r| r.get(i))
            .is_some_and(|cell| cell.starts_with("<td class=\"n\""));
        let class = if numbers { " class=\"n\"" } else { "" };
        let _ = write!(out, "<th scope=\"col\"{class}>{h}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            out.push_str(cell);
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    format!("{:.1}%", 100.0 * part as f64 / whole as f64)
}

fn opt(v: Option<u64>, unit: Unit) -> String {
    v.map_or("–".into(), |v| unit.format(v as f64))
}

/// The name of an input in a chart's legend and in tables.
fn label(input: &InputReport) -> String {
    input.path.clone()
}

/// The page of `report`.
pub fn page(report: &Report) -> String {
    let mut page = Page {
        out: String::with_capacity(256 * 1024),
        charts: 0,
    };
    let title = match report.inputs.as_slice() {
        [one] => format!("Report: {}", one.path),
        many => format!("Report: {} results files", many.len()),
    };
    let _ = write!(
        page.out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <meta name=\"generator\" content=\"sudoku-batch {version}\">\
         <title>{title}</title><style>{STYLE}</style></head>\n<body><main>\n\
         <header><h1>{title}</h1><p class=\"meta\">Made by <code>sudoku-batch report</code> \
         {version} from {files}.</p>",
        version = report.version,
        title = escape(&title),
        files = report
            .inputs
            .iter()
            .map(|i| format!(
                "<code>{}</code> ({})",
                escape(&i.path),
                command_name(i.command)
            ))
            .collect::<Vec<_>>()
            .join(", "),
    );
    let solving: Vec<(&InputReport, &Solving)> = report
        .inputs
        .iter()
        .filter_map(|i| Some((i, i.solving.as_ref()?)))
        .collect();
    let grading: Vec<(&InputReport, &Grading)> = report
        .inputs
        .iter()
        .filter_map(|i| Some((i, i.grading.as_ref()?)))
        .collect();
    page.push("<nav aria-label=\"Sections\"><a href=\"#records\">Records</a>");
    if !solving.is_empty() {
        page.push("<a href=\"#solving\">Solving</a>");
    }
    if !grading.is_empty() {
        page.push("<a href=\"#grading\">Grading</a>");
    }
    if !report.differences.is_empty() {
        page.push("<a href=\"#differences\">Differences</a>");
    }
    page.push("</nav></header>\n");
    records(&mut page, report);
    if !solving.is_empty() {
        solving_section(&mut page, &solving, report.precision);
    }
    if !grading.is_empty() {
        grading_section(&mut page, &grading);
    }
    if !report.differences.is_empty() {
        differences(&mut page, report);
    }
    page.push("</main></body></html>\n");
    page.out
}

fn command_name(command: Command) -> &'static str {
    match command {
        Command::Solve => "solve",
        Command::Validate => "validate",
        Command::Grade => "grade",
    }
}

/// Records: per input, its rows, statuses, failures and clue counts.
fn records(page: &mut Page, report: &Report) {
    page.push("<section id=\"records\"><h2>Records</h2><div class=\"cards\">");
    for input in &report.inputs {
        let statuses = input
            .statuses
            .iter()
            .map(|(s, k)| format!("{} {}", escape(s), thousands(*k)))
            .collect::<Vec<_>>()
            .join(" · ");
        let _ = write!(
            page.out,
            "<div class=\"card\"><h3>{}</h3><div class=\"big\">{}</div><div>records, from \
             <code>{}</code></div><div class=\"note\">{statuses}</div>{}</div>",
            escape(&input.path),
            thousands(input.records),
            command_name(input.command),
            if input.failures > 0 {
                format!(
                    "<div class=\"bad\">{} failed ({})</div>",
                    thousands(input.failures),
                    percent(input.failures, input.records)
                )
            } else {
                "<div>none failed</div>".into()
            }
        );
    }
    page.push("</div>");
    // Statuses side by side.
    let mut names: Vec<&str> = Vec::new();
    for input in &report.inputs {
        for (s, _) in &input.statuses {
            if !names.contains(&s.as_str()) {
                names.push(s);
            }
        }
    }
    let header: Vec<String> = std::iter::once("status".to_string())
        .chain(report.inputs.iter().map(|i| escape(&label(i))))
        .collect();
    let rows: Vec<Vec<String>> = names
        .iter()
        .map(|name| {
            std::iter::once(format!("<th scope=\"row\">{}</th>", escape(name)))
                .chain(report.inputs.iter().map(|i| {
                    let k = i
                        .statuses
                        .iter()
                        .find(|(s, _)| s == name)
                        .map_or(0, |s| s.1);
                    format!(
                        "<td class=\"n\">{} ({})</td>",
                        thousands(k),
                        percent(k, i.records)
                    )
                }))
                .collect()
        })
        .collect();
    page.push("<div class=\"charts\"><div><h3>Records per status</h3><div class=\"scroll\">");
    page.push(&table(&header, &rows));
    page.push("</div></div>");
    clue_chart(page, &report.inputs);
    page.push("</div>");
    for input in &report.inputs {
        failures(page, input);
    }
    page.push("</section>\n");
}

fn clue_chart(page: &mut Page, inputs: &[InputReport]) {
    let low = inputs
        .iter()
        .filter_map(|i| i.clues.first())
        .map(|c| c.0)
        .min();
    let high = inputs
        .iter()
        .filter_map(|i| i.clues.last())
        .map(|c| c.0)
        .max();
    let (Some(low), Some(high)) = (low, high) else {
        return;
    };
    let labels: Vec<String> = (low..=high).map(|c| c.to_string()).collect();
    let count = |i: &InputReport, c: usize| i.clues.iter().find(|x| x.0 == c).map_or(0, |x| x.1);
    let total = |i: &InputReport| i.clues.iter().map(|x| x.1).sum::<u64>();
    let series: Vec<(String, Vec<f64>, _)> = inputs
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let t = total(i).max(1) as f64;
            let values = (low..=high)
                .map(|c| 100.0 * count(i, c) as f64 / t)
                .collect();
            (label(i), values, colour(k))
        })
        .collect();
    let header: Vec<String> = std::iter::once("clues".to_string())
        .chain(inputs.iter().map(|i| escape(&label(i))))
        .collect();
    let rows: Vec<Vec<String>> = (low..=high)
        .map(|c| {
            std::iter::once(format!("<th scope=\"row\">{c}</th>"))
                .chain(inputs.iter().map(|i| n(count(i, c))))
                .collect()
        })
        .collect();
    let desc = format!(
        "Bar chart: the share of puzzles with each number of clues, from {low} to {high}, for {}.",
        inputs.iter().map(label).collect::<Vec<_>>().join(", ")
    );
    page.figure(
        "Clues per puzzle",
        "share of each input's puzzles",
        &desc,
        |w| charts::grouped_bars(w, &labels, &series, "clues", "share of puzzles (%)"),
        &table(&header, &rows),
    );
}

fn failures(page: &mut Page, input: &InputReport) {
    if input.failures == 0 {
        return;
    }
    let _ = write!(
        page.out,
        "<h3>Failed records of {}</h3><p class=\"note\">{} of {} records failed{}.</p>",
        escape(&input.path),
        thousands(input.failures),
        thousands(input.records),
        if input.failed.len() as u64 == input.failures {
            String::new()
        } else {
            format!("; the first {} are listed", input.failed.len())
        }
    );
    let several = input.failed.iter().any(|f| !f.file.is_empty());
    let mut header = vec![];
    if several {
        header.push("input".to_string());
    }
    header.extend(["line", "results line", "status", "reason", "puzzle"].map(String::from));
    let rows: Vec<Vec<String>> = input
        .failed
        .iter()
        .map(|f| {
            let mut row = vec![];
            if several {
                row.push(format!("<td>{}</td>", escape(&f.file)));
            }
            row.push(format!("<td class=\"n\">{}</td>", f.line));
            row.push(format!("<td class=\"n\">{}</td>", f.row));
            row.push(format!("<td>{}</td>", escape(&f.status)));
            row.push(format!("<td>{}</td>", escape(&f.reason)));
            row.push(format!("<td><code>{}</code></td>", escape(&f.puzzle)));
            row
        })
        .collect();
    page.push("<div class=\"scroll\">");
    page.push(&table(&header, &rows));
    page.push("</div>");
}

/// A value of the table of differences, written in its unit.
fn value(unit: &str, v: Option<f64>) -> String {
    let Some(v) = v else { return "–".into() };
    match unit {
        "percent" => format!("{v:.1}%"),
        "ns" => Unit::Nanos.format(v),
        "rating" => format!("{v:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string(),
        _ if v.fract() == 0.0 => thousands(v as u64),
        _ => format!("{v:.2}"),
    }
}

/// How `v` differs from `first`: a ratio for counts and times, points for shares.
fn change(unit: &str, first: Option<f64>, v: Option<f64>) -> String {
    match (first, v) {
        (Some(a), Some(b)) if unit == "percent" => format!("{:+.1} pts", b - a),
        (Some(a), Some(b)) if unit == "rating" => format!("{:+.2}", b - a),
        (Some(a), Some(b)) if a > 0.0 => format!("×{:.2}", b / a),
        _ => "–".into(),
    }
}

/// The measures side by side, each input beside the first.
fn differences(page: &mut Page, report: &Report) {
    page.push(
        "<section id=\"differences\"><h2>Differences</h2><p class=\"note\">Each input \
               beside the first: a ratio (×) for counts and times, a difference for shares \
               (points) and ratings.</p>",
    );
    let first = &report.inputs[0];
    let mut header = vec!["measure".to_string(), escape(&label(first))];
    for input in &report.inputs[1..] {
        header.push(escape(&label(input)));
        header.push(format!("vs {}", escape(&label(first))));
    }
    let rows: Vec<Vec<String>> = report
        .differences
        .iter()
        .map(|d: &Difference| {
            let mut row = vec![
                format!("<th scope=\"row\">{}</th>", escape(&d.measure)),
                format!("<td class=\"n\">{}</td>", value(d.unit, d.values[0])),
            ];
            for &v in &d.values[1..] {
                row.push(format!("<td class=\"n\">{}</td>", value(d.unit, v)));
                row.push(format!(
                    "<td class=\"n\">{}</td>",
                    change(d.unit, d.values[0], v)
                ));
            }
            row
        })
        .collect();
    page.push("<div class=\"scroll\">");
    page.push(&table(&header, &rows));
    page.push("</div></section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_control_characters_are_shown() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(
            escape("12\0.\u{1b}\u{7f}\u{85}"),
            "12\u{2400}.\u{241b}\u{2421}\u{fffd}"
        );
        assert_eq!(escape("µs ✓"), "µs ✓");
    }
}
