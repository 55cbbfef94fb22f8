#!/usr/bin/env python3
"""Every relative link of the Markdown docs leads somewhere: the file exists, and a #fragment
names a heading of it (GitHub's anchor of the heading) or an <a id>. Renamed headings and moved
files broke links before (cluster.md pointed at the JSON heading of schema version 3 after it
became 4). Usage: links.py SOURCE_DIR. Exit 0, or 1 with one line per broken link. Pure reading
(CTest label unit). Dated records (bench-results/*.md, CHANGELOG's history) are checked too:
a link there names a file that still exists or is broken for a reader as much as any other.
"""
import re
import sys
from pathlib import Path


def anchor_of(heading, seen):
    """GitHub's anchor: lower case, punctuation but '-' and '_' dropped, spaces to '-',
    a repeated anchor numbered -1, -2, ..."""
    base = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    anchor, k = base, 1
    while anchor in seen:
        anchor, k = f"{base}-{k}", k + 1
    seen.add(anchor)
    return anchor


def anchors(path):
    text = path.read_text(encoding="utf-8")
    seen = set()
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := re.match(r"#+\s+(.*)$", line)):
            anchor_of(m.group(1), seen)
    seen.update(re.findall(r'<a id="([^"]+)"', text))
    return seen


def main(root):
    root = Path(root)
    docs = [root / "README.md", root / "CHANGELOG.md", *sorted((root / "docs").glob("*.md")),
            *sorted((root / "bench-results").glob("*.md"))]
    broken = []
    for doc in docs:
        if not doc.exists():
            continue
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue  # http:, https:, mailto:
            path, _, fragment = link.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            if not target.exists():
                broken.append(f"{doc.relative_to(root)}: {link}: no such file")
            elif fragment and target.suffix == ".md" and fragment not in anchors(target):
                broken.append(f"{doc.relative_to(root)}: {link}: no such heading")
    for line in broken:
        print(line)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
