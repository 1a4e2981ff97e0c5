"""Check the documentation against the tree and the tools.

    python3 -m energy.doc_check links FILE.md [FILE.md ...]
    TOOL --help | python3 -m energy.doc_check options DOC.md [--pass NAME] [--prefix P]

`links`: every relative Markdown link `[text](target)` names a file or directory that
exists, and a `#anchor` names a heading of the linked Markdown file (GitHub's slugs).
Links inside code blocks and code spans are not links; http(s) and mailto are not checked.

`options`: every option the help text lists (the names at the head of each line that
starts with a dash; LLVM's generic --help and --version aside) appears in DOC.md, spelled
with one or two dashes. `--prefix` keeps only the names that start with it (the plugin's
`energy-` among opt's own options); `--pass NAME` reads the options of mlir-opt's pass
NAME instead, which DOC.md must spell as `NAME=` (as in `energy-optimize-gpu{objective=edp}`).

Prints one `error:` line per problem and exits 1 if any, 0 otherwise.
"""

import argparse
import os
import re
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z#][\w#-]*)")
# What every LLVM tool's --help lists ("Generic Options"): LLVM's, not ours to document.
LLVM_GENERIC = {"help", "help-hidden", "help-list", "help-list-hidden", "version"}


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings, repeated ones numbered as GitHub does."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    seen = {}
    found = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def dead_links(path):
    """(line, target, why) for each relative link of the Markdown file that leads nowhere."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    here = os.path.dirname(os.path.abspath(path))
    problems = []
    for number, line in prose_lines(text):
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            linked = os.path.normpath(os.path.join(here, file_part)) if file_part else path
            if not os.path.exists(linked):
                problems.append((number, target, "no such file"))
            elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
                problems.append((number, target, f"no heading '#{anchor}' in {file_part or 'this file'}"))
    return problems


def help_options(help_text, prefix="", pass_name=None):
    """The option names a --help text lists, without their dashes."""
    lines = help_text.splitlines()
    if pass_name is not None:
        lines = pass_block(lines, pass_name)
    names = []
    for line in lines:
        if not line.lstrip().startswith("-"):
            continue
        head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for option in OPTION.findall(head):
            name = option.lstrip("-")
            if name.startswith(prefix) and name not in names and name not in LLVM_GENERIC:
                names.append(name)
    return names


def pass_block(lines, pass_name):
    """The lines of a pass's options: those indented under its own line in mlir-opt --help."""
    for index, line in enumerate(lines):
        if line.strip().split(" ")[0] == "--" + pass_name:
            indent = len(line) - len(line.lstrip())
            block = []
            for option in lines[index + 1:]:
                if len(option) - len(option.lstrip()) <= indent:
                    break
                block.append(option)
            return block
    raise LookupError(f"the help lists no pass '{pass_name}'")


def undocumented(names, doc_text, pass_option=False):
    """The names doc_text never spells as an option (-NAME or --NAME; NAME= for a pass's)."""
    def documented(name):
        escaped = re.escape(name)
        if pass_option:
            return re.search(r"(?<![\w-])" + escaped + "=", doc_text)
        return re.search(r"(?<![\w-])--?" + escaped + r"(?![\w-])", doc_text)
    return [name for name in names if not documented(name)]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m energy.doc_check")
    commands = parser.add_subparsers(dest="command", required=True)
    links = commands.add_parser("links", help="relative links of Markdown files lead somewhere")
    links.add_argument("files", nargs="+")
    options = commands.add_parser("options", help="a --help text's options (stdin) are documented")
    options.add_argument("doc")
    options.add_argument("--prefix", default="")
    options.add_argument("--pass", dest="pass_name")
    args = parser.parse_args(argv)

    errors = []
    if args.command == "links":
        for path in args.files:
            for number, target, why in dead_links(path):
                errors.append(f"{path}:{number}: dead link '{target}': {why}")
    else:
        with open(args.doc, encoding="utf-8") as f:
            doc_text = f.read()
        try:
            names = help_options(sys.stdin.read(), args.prefix, args.pass_name)
        except LookupError as e:
            errors.append(str(e))
            names = []
        if not names and not errors:
            errors.append("the help text lists no options" + (f" starting with '{args.prefix}'" if args.prefix else ""))
        for name in undocumented(names, doc_text, args.pass_name is not None):
            errors.append(f"{args.doc}: option '{name}' of the help is not documented")
    for error in errors:
        print("error: " + error, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
