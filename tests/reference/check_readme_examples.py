"""Hold the worked examples of the README and docs/ to the program: every `$ gpusplit ...`
line in a fenced block (continued by trailing backslashes) of each file given is run, and
each line the page shows after it, up to the block's end or the next `$ `, must be a line the
program prints (a line "  ..." marks rows left out). A newcomer copies these commands; a
stale figure there is a wrong figure (docs/CLI.md shows every command's --help this way).
The accuracy table (make validate's summary, in docs/ACCURACY.md) is held the same way: each
of its rows, found exactly once across the files, gives the runs, the four medians and the
first words' count of the "all" line of its validate command.

    python3 tests/reference/check_readme_examples.py build/gpusplit README.md docs/*.md

Python standard library only.
"""
import re
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True


def examples(lines):
    """(command words, lines shown) for each `$ gpusplit` example of the fenced blocks."""
    inside, i = False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            inside = not inside
        elif inside and line.startswith("$ gpusplit"):
            command = line[2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            shown = []
            while i + 1 < len(lines) and not lines[i + 1].startswith(("```", "$ ")):
                i += 1
                shown.append(lines[i])
            yield shlex.split(command), shown
        i += 1


MEASURED = "tests/measured/"
ACCURACY_ROWS = {
    "shared file (in the fit)": ["validate", "--runs", MEASURED + "decode-runs.csv"],
    "shared, each source left out": ["validate", "--runs", MEASURED + "decode-runs.csv", "--leave-source-out"],
    "held out (4 sources, 76 runs)": ["validate", "--runs", MEASURED + "decode-heldout.csv"],
}


def figures(text):
    """The percentages and the counts in brackets of a table row, in order."""
    return re.findall(r"[0-9.]+%", text), re.findall(r"\(([0-9]+)\)", text)


def check_accuracy(binary, lines):
    """(passed, failed) over the accuracy table's rows, lines being every file's."""
    passed = failed = 0
    for label, args in ACCURACY_ROWS.items():
        row = [line for line in lines if line.startswith(label)]
        run = subprocess.run([binary] + args, capture_output=True, text=True, check=False)
        everything = [line for line in run.stdout.split("\n") if re.match(r"all +[0-9]", line)]
        if len(row) != 1 or len(everything) != 1:
            failed += 1
            print(f"FAILED: accuracy row '{label}': {len(row)} rows in the pages, {len(everything)} 'all' lines printed")
            continue
        shown_pct, shown_n = figures(row[0][len(label):])
        runs = row[0][len(label):].split()[0]
        printed_pct, printed_n = figures(everything[0])
        # the table gives the runs first, a count beside a median only where it differs
        # from the runs, and the first words' count
        want = (printed_pct, *(printed_n + [None, None, None, None])[2:4])
        got = (shown_pct, runs, shown_n[-1] if shown_n else None)
        if want != got:
            failed += 1
            print(f"FAILED: accuracy row '{label}' shows {got}, validate prints {want}")
        else:
            passed += 1
    return passed, failed


def check_examples(binary, page, lines):
    """(passed, failed) over one page's `$ gpusplit` examples."""
    passed = failed = 0
    for words, shown in examples(lines):
        run = subprocess.run([binary] + words[1:], capture_output=True, text=True, check=False)
        printed = set(run.stdout.split("\n"))
        missing = [s for s in shown if s.strip() and s.strip() != "..." and s not in printed]
        name = " ".join(words)[:90]
        if run.returncode != 0 or missing:
            failed += 1
            print(f"FAILED: {page} example `{name}` (exit {run.returncode})")
            for s in missing[:5]:
                print(f"  {page} shows, the program does not print: {s}")
        else:
            passed += 1
    return passed, failed


def main():
    binary, pages = sys.argv[1], sys.argv[2:]
    failed = passed = 0
    every_line = []
    for page in pages:
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        every_line += lines
        more_passed, more_failed = check_examples(binary, page, lines)
        if page.endswith("README.md") and more_passed + more_failed == 0:
            more_failed += 1
            print("FAILED: no `$ gpusplit` example found in " + page)
        passed += more_passed
        failed += more_failed
    more_passed, more_failed = check_accuracy(binary, every_line)
    passed += more_passed
    failed += more_failed
    print(f"readme examples: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
