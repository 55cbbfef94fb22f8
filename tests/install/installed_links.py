#!/usr/bin/env python3
"""Every relative link of every Markdown file under an installed doc folder
(PREFIX/share/doc/mpiwrite) leads to a file there and, with a #fragment, to a heading of it:
the installed README must not point into a source tree the user does not have. The rules are
tests/docs/links.py's (GitHub's anchors); this walks the whole installed tree instead of the
source's list. Usage: installed_links.py DOC_DIR. Exit 0, or 1 with one line per broken link.
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
from links import anchors  # noqa: E402


def main(root):
    root = Path(root)
    docs = sorted(root.rglob("*.md"))
    if not docs:
        print(f"{root}: no Markdown files")
        return 1
    broken, count = [], 0
    for doc in docs:
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue  # http:, https:, mailto:
            count += 1
            path, _, fragment = link.partition("#")
            target = (doc.parent / path).resolve() if path else doc
            if not target.exists() or not target.is_relative_to(root.resolve()):
                broken.append(f"{doc.relative_to(root)}: {link}: not installed")
            elif fragment and target.suffix == ".md" and fragment not in anchors(target):
                broken.append(f"{doc.relative_to(root)}: {link}: no such heading")
    for line in broken:
        print(line)
    print(f"{len(docs)} Markdown files, {count} relative links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
