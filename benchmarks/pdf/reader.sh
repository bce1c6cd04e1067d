#!/usr/bin/env bash
# PDF issues in the reader (issue 22), beside poppler's and MuPDF's own tools, in one run:
# a 350-page magazine (benchmarks/pdf/magazine.py: two columns, headings, a picture and a
# running header on every page) read at 120×40 by newsstand-bench-reader --pdf (the real
# ShelfApp run loop and PDF worker, frames kept in memory), and each tool as a whole
# process per page (pdftoppm, mutool draw, at 80 px high: the size the reader draws a page
# at in 120×40 half-block cells) or per document (pdftotext). Prints a table with ratios.
#
#   benchmarks/pdf/reader.sh [RUNS]
#
# Needs poppler-utils, mupdf-tools and hyperfine (not in ./dev: apt-get install them).
# Release build; not part of `swift test`. Goals (issue 22): first page <= 150 ms; page
# turn p95 <= 16 ms rendered ahead, <= 50 ms not; text view <= 30 ms; a whole-document
# search no slower than pdftotext of it; memory <= 150 MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
for tool in pdftoppm pdftotext mutool hyperfine python3 /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "reader.sh needs $tool (apt-get install poppler-utils mupdf-tools hyperfine time)" >&2; exit 1; }
done
BUILD_LOG=$(mktemp)
# The worker is built too: the driver starts `newsstand-pdf` beside itself, as `newsstand` does.
{ swift build -c release --product newsstand-bench-reader && swift build -c release --product newsstand-pdf; } \
    > "$BUILD_LOG" 2>&1 || { cat "$BUILD_LOG" >&2; exit 1; }
rm -f "$BUILD_LOG"
BENCH=$(swift build -c release --show-bin-path)/newsstand-bench-reader
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PDF=$WORK/magazine.pdf
python3 benchmarks/pdf/magazine.py "$PDF" 350

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$RUNS"); do
    echo "--- reader, run $run"
    "$BENCH" --pdf "$PDF" --turns 40 --pause-ms 300 | tee -a "$WORK/reader.txt" | grep -v '^RESULT'
done

PAGES="1 175 350"
args=()
for page in $PAGES; do
    args+=(-n "pdftoppm p$page" "pdftoppm -f $page -l $page -scale-to 80 -png $PDF $WORK/p")
    args+=(-n "mutool p$page" "mutool draw -q -o $WORK/m.png -h 80 $PDF $page")
done
args+=(-n "pdftotext p175" "pdftotext -f 175 -l 175 $PDF -")
args+=(-n "pdftotext all" "pdftotext $PDF -")
hyperfine -N --style none --warmup 2 --runs 15 --export-json "$WORK/tools.json" "${args[@]}" > /dev/null
# Peak memory of each tool on the whole file, as /usr/bin/time sees it (KB).
for tool in "pdftotext $PDF -" "pdftoppm -f 350 -l 350 -scale-to 80 -png $PDF $WORK/p" "mutool draw -q -o $WORK/m.png -h 80 $PDF 350"; do
    /usr/bin/time -f "RSS ${tool%% *} %M" $tool 2>&1 > /dev/null | grep '^RSS' >> "$WORK/rss.txt"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$WORK/reader.txt" "$WORK/tools.json" "$WORK/rss.txt" <<'PY'
import json, statistics, sys

results = {}
for line in open(sys.argv[1]):
    if line.startswith("RESULT "):
        _, name, value = line.split()
        results.setdefault(name, []).append(float(value))
# Each tool's median wall time and mean CPU time (user + system), ms.
tools = {r["command"]: (r["median"] * 1000, (r["user"] + r["system"]) * 1000) for r in json.load(open(sys.argv[2]))["results"]}
rss = {line.split()[1]: int(line.split()[2]) / 1024 for line in open(sys.argv[3])}

def reader(name):
    values = results.get(name, [])
    return statistics.median(values) if values else float("nan")

def spread(name):
    values = results.get(name, [])
    return f"{min(values):.0f}–{max(values):.0f}" if len(values) > 1 else "–"

def per_page(tool):
    return tuple(statistics.median(tools[f"{tool} p{page}"][i] for page in (1, 175, 350)) for i in (0, 1))

rows = [
    # figure, goal, the reader's figure, pdftoppm's or pdftotext's, mutool's, what they did
    ("open to the first page", "≤ 150 ms", "open_first_page_median", tools["pdftoppm p1"], tools["mutool p1"], "page 1"),
    ("page turn p95, rendered ahead", "≤ 16 ms", "turn_ahead_p95", per_page("pdftoppm"), per_page("mutool"), "a page"),
    ("page turn p95, back to back", "≤ 50 ms", "turn_cold_p95", per_page("pdftoppm"), per_page("mutool"), "a page"),
    ("G: the last page, never drawn", "—", "jump_last_median", tools["pdftoppm p350"], tools["mutool p350"], "page 350"),
    ("text view of a page, p95", "≤ 30 ms", "text_view_p95", tools["pdftotext p175"], None, "pdftotext, a page"),
    ("search, word on page 350", "≤ pdftotext", "search_found_median", tools["pdftotext all"], None, "pdftotext, all"),
    ("search, absent word", "≤ pdftotext", "search_absent_median", tools["pdftotext all"], None, "pdftotext, all"),
]
runs = len(results.get("open_first_page_median", []))
print()
print(f"Reader: median of {runs} runs, range over the runs after it; CPU is the reader's and its worker's. "
      "Tools: whole processes, hyperfine median wall and mean CPU (user + system) of 15. All in ms.")
print()
print("| figure | goal | reader wall | reader CPU | poppler (pdftoppm / pdftotext) wall, CPU | mutool draw wall, CPU "
      "| reader ÷ poppler, wall / CPU | reader ÷ mutool, wall / CPU |")
print("|---|---|---|---|---|---|---|---|")
for title, goal, name, poppler, mupdf, what in rows:
    cpu_name = name.replace("_median", "_cpu_median").replace("_p95", "_cpu_p95")
    wall, cpu = reader(name), reader(cpu_name)
    mupdf_text = f"{mupdf[0]:.1f}, {mupdf[1]:.1f}" if mupdf else "—"
    ratio_mupdf = f"{wall / mupdf[0]:.2f} / {cpu / mupdf[1]:.2f}" if mupdf else "—"
    print(f"| {title} | {goal} | {wall:.1f} ({spread(name)}) | {cpu:.1f} ({spread(cpu_name)}) | {poppler[0]:.1f}, {poppler[1]:.1f} ({what}) "
          f"| {mupdf_text} | {wall / poppler[0]:.2f} / {cpu / poppler[1]:.2f} | {ratio_mupdf} |")
memory = reader("rss_reader") + reader("rss_worker")
print(f"| peak RSS (MB), reader + worker | ≤ 150 MB | {reader('rss_reader'):.0f} + {reader('rss_worker'):.0f} = {memory:.0f} | "
      f"| pdftoppm p350 {rss.get('pdftoppm', 0):.0f}; pdftotext, all {rss.get('pdftotext', 0):.0f} | {rss.get('mutool', 0):.0f} (p350) | | |")
print()
print("Where the time goes (median over runs, wall ms): a worker started and its info of the PDF "
      f"{reader('worker_start_info'):.1f}; worker.text of one page {reader('text_worker_page'):.1f}; PDFTextReader.page (page + 4 neighbours, reflowed) "
      f"{reader('text_reader_page'):.1f}; worker.pageTexts of all {reader('page_texts_worker'):.1f}; "
      f"with Sanitizer.clean {reader('page_texts_cleaned'):.1f}.")
timeouts = {name: sum(v) for name, v in results.items() if name.endswith("_timeouts") and sum(v) > 0}
if timeouts:
    print(f"TIMED OUT: {timeouts}")
PY
