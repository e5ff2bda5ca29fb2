"""Hold the README's worked examples to the program: every `$ gpusplit ...` line in a fenced
block (continued by trailing backslashes) is run, and each line the README shows after it, up
to the block's end or the next `$ `, must be a line the program prints (a line "  ..." marks
rows left out). A newcomer copies these commands; a stale figure there is a wrong figure.

    python3 tests/reference/check_readme_examples.py build/gpusplit README.md

Python standard library only.
"""
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


def main():
    binary, readme = sys.argv[1], sys.argv[2]
    failed = passed = 0
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for words, shown in examples(lines):
        run = subprocess.run([binary] + words[1:], capture_output=True, text=True, check=False)
        printed = set(run.stdout.split("\n"))
        missing = [s for s in shown if s.strip() and s.strip() != "..." and s not in printed]
        name = " ".join(words)[:90]
        if run.returncode != 0 or missing:
            failed += 1
            print(f"FAILED: README example `{name}` (exit {run.returncode})")
            for s in missing[:5]:
                print(f"  the README shows, the program does not print: {s}")
        else:
            passed += 1
    if passed + failed == 0:
        failed += 1
        print("FAILED: no `$ gpusplit` example found in " + readme)
    print(f"readme examples: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
