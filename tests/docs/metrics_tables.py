#!/usr/bin/env python3
"""docs/metrics.md against the reporters it describes, so a new column or field cannot land
undocumented: every CSV column of src/report/csv_row.hpp has its row, in order, in the CSV table;
every top-level field of docs/report.schema.json has its row in the JSON table, and every field
the schema names anywhere is named (in backticks) in the JSON section; every literal column
header of the table and markdown grids (src/report/point_grids.cpp) is named in their section.

Usage: metrics_tables.py SOURCE_DIR. Exit 0 when the doc covers everything, 1 with one line per
gap otherwise. Pure reading: no build, no MPI (CTest label unit).
"""
import json
import re
import sys
from pathlib import Path


def section(doc, heading):
    """The text from the line `heading` to the next heading of the same or a higher level."""
    lines = doc.splitlines()
    level = len(heading) - len(heading.lstrip("#"))
    try:
        start = lines.index(heading)
    except ValueError:
        return None
    end = len(lines)
    for i in range(start + 1, len(lines)):
        m = re.match(r"^(#+) ", lines[i])
        if m and len(m.group(1)) <= level:
            end = i
            break
    return "\n".join(lines[start + 1:end])


def first_cells(text, column):
    """The backticked names in cell `column` (0-based) of every table row of `text`."""
    names = []
    for line in text.splitlines():
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > column:
            names.append(re.findall(r"`([^`]+)`", cells[column]))
    return names


def schema_fields(node, out):
    """Every property name the schema defines, at any depth."""
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            out.add(name)
            schema_fields(sub, out)
        for key, sub in node.items():
            if key != "properties":
                schema_fields(sub, out)
    elif isinstance(node, list):
        for sub in node:
            schema_fields(sub, out)


def check_csv(root, doc, gaps):
    csv_cpp = (root / "src/report/csv_row.hpp").read_text()
    columns = re.findall(r'\{"(\w+)", &CsvRow::', csv_cpp)
    if not columns:
        gaps.append("src/report/csv_row.hpp: no columns found (kColumns changed shape?)")
        return
    text = section(doc, "## CSV columns")
    if text is None:
        gaps.append("docs/metrics.md: no '## CSV columns' section")
        return
    rows = [names[0] for names in first_cells(text, 1) if names]
    if rows != columns:
        missing = [c for c in columns if c not in rows]
        extra = [r for r in rows if r not in columns]
        if missing:
            gaps.append(f"CSV table: no row for column(s) {', '.join(missing)}")
        if extra:
            gaps.append(f"CSV table: row(s) for no column: {', '.join(extra)}")
        if not missing and not extra:
            gaps.append("CSV table: rows not in the header's order")


def check_json(root, doc, gaps):
    schema = json.loads((root / "docs/report.schema.json").read_text())
    text = section(doc, "## JSON (schema_version 5)")
    if text is None:
        gaps.append("docs/metrics.md: no '## JSON (schema_version 5)' section")
        return
    groups = {names[0].split("[")[0].split(".")[0] for names in first_cells(text, 0) if names}
    for name in schema["properties"]:
        if name not in groups:
            gaps.append(f"JSON table: no row for the field group `{name}`")
    named = set()
    for span in re.findall(r"`([^`]+)`", text):
        named.update(re.findall(r"\w+", span))
    fields = set()
    schema_fields(schema, fields)
    for name in sorted(fields - named):
        gaps.append(f"JSON section: the field `{name}` is not named")


def check_grids(root, doc, gaps):
    # The full grids (--wide, markdown) and the default table's (issue 24).
    grids = "".join((root / "src/report" / name).read_text()
                    for name in ("point_grids.cpp", "compact_grids.cpp"))
    headers = set()
    # The literal headers: a Grid's first braces (up to its empty rows `}, {}}`) and the lines
    # that insert more; formatted ones ("{} [us]") are left to the prose.
    for block in re.findall(r"Grid g\{\{(.*?)\},\s*\{\}\}", grids, re.S):
        headers.update(re.findall(r'"([^"{}]+)"', block))
    for line in grids.splitlines():
        if "g.header.insert(" in line:
            headers.update(re.findall(r'"([^"{}]+)"', line))
    text = section(doc, "## Table and markdown")
    if text is None:
        gaps.append("docs/metrics.md: no '## Table and markdown' section")
        return
    named = set(re.findall(r"`([^`]+)`", text))
    for header in sorted(headers - named):
        gaps.append(f"table and markdown: the column `{header}` is not named")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    doc = (root / "docs/metrics.md").read_text()
    gaps = []
    check_csv(root, doc, gaps)
    check_json(root, doc, gaps)
    check_grids(root, doc, gaps)
    for gap in gaps:
        print(f"docs/metrics.md: {gap}")
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
