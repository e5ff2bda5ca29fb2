"""Check `gpusplit figure NAME` against the lesson's reference code (gpu_split.py next to this file).

    python3 tests/reference/check_figures_svg.py build/gpusplit web/figures README.md

For each of the lesson's four figures: the numbers the lesson's own figure test looks for in it
(its test_every_number_the_page_and_figures_quote_comes_from_the_code, `in_figs`), computed here by
gpu_split.py with the lesson's shapes and rounded as the lesson rounds (half up), are in the SVG's
text; the SVG is a small SVG with a title and a desc, no script, no event handler, no link out, and
colours only through currentColor and the widget's custom properties; the committed web/figures/NAME.svg
is byte for byte what the program writes; and the README shows it. Python standard library only.
"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

sys.dont_write_bytecode = True  # keep tests/reference free of __pycache__
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu_split as g  # noqa: E402
from check_report import LESSON_SHAPES  # noqa: E402

NAMES = ("weights-split", "time-per-word", "stops-helping", "slices-vs-groups")
SVG = "{http://www.w3.org/2000/svg}"
MAX_BYTES = 8192  # "a small SVG"


def half_up(x: float, places: str = "0.01") -> str:
    """The lesson's show_numbers.py: round the way the widget's toFixed does on an exact tie."""
    return str(Decimal(x).quantize(Decimal(places), rounding=ROUND_HALF_UP))


def gib(b: int) -> str:
    return half_up(b / g.GIB)


def ms(s: float) -> str:
    return half_up(s * 1e3)


def pct(x: float, places: str = "0.1") -> str:
    return half_up(x * 100, places) + "%"


def expected() -> dict:
    """The lesson's `in_figs`, as its test writes it, with its three models' shapes."""
    shapes = {"8b": LESSON_SHAPES["8B"], "70b": LESSON_SHAPES["70B"], "405b": LESSON_SHAPES["405B"]}
    g.load_config = lambda key: shapes[key]
    wt = lambda key, n, link="fast", **kw: g.word_time(key, n, link, **kw)  # noqa: E731
    mem4 = g.memory_per_gpu("70b", 4)
    whole70 = g.weight_bytes(g.load_config("70b"))
    wps = lambda n, link: str(round(wt("8b", n, link)["words_per_s"]))  # noqa: E731
    rows70 = [wt("70b", n) for n in (2, 4, 8, 16)]
    return {
        "weights-split": [gib(whole70), f"{g.USABLE_BYTES / g.GIB:.1f}", gib(mem4["weights"])],
        "time-per-word": [ms(t["total"]) + " ms" for t in rows70] + [", ".join(pct(t["share"]) for t in rows70)],
        "stops-helping": [f"{wps(8, 'fast')} to {wps(16, 'fast')} and the slow link {wps(8, 'slow')} to {wps(16, 'slow')}"],
        "slices-vs-groups": [ms(wt("70b", 4)["total"]), ms(wt("70b", 4, split="groups")["total"]), ms(g.read_time("70b", 4))],
    }


# The lesson's prose (tests/lesson/lesson.txt) and the issue quote these; the reference must agree,
# so that a change to gpu_split.py's rounding or shapes cannot pass silently.
QUOTED = {
    "weights-split": ["131.42", "73.6", "32.85"],
    "time-per-word": ["35.85 ms", "18.94 ms", "11.06 ms", "8.27 ms", "3.5%, 8.7%, 21.8%, 47.7%"],
    "stops-helping": ["514 to 483 and the slow link 432 to 351"],
    "slices-vs-groups": ["18.94", "69.23", "17.30"],
}


def form_problems(text: str) -> list:
    """What makes the text other than a small, scriptless, self-coloured SVG with a title and a desc."""
    problems = []
    if len(text.encode()) > MAX_BYTES:
        problems.append(f"{len(text.encode())} bytes, over {MAX_BYTES}")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        return problems + [f"not XML: {e}"]
    if root.tag != SVG + "svg":
        problems.append(f"root is {root.tag}")
    kids = [child.tag for child in root]
    if kids[:2] != [SVG + "title", SVG + "desc"]:
        problems.append(f"does not open with a title and a desc: {kids[:2]}")
    for el in root.iter():
        if el.tag in (SVG + "script", SVG + "foreignObject", SVG + "image", SVG + "a", SVG + "use"):
            problems.append(f"has a {el.tag}")
        for name, value in el.attrib.items():
            if name.lower().startswith("on") or name.endswith("href"):
                problems.append(f"{el.tag} has {name}")
            if name in ("fill", "stroke", "color", "style") and not re.fullmatch(r"url\(#gsf-[a-z-]+-hatch\)", value):
                problems.append(f"{el.tag} colours with {name}={value!r}")
    style = "".join(el.text or "" for el in root.iter(SVG + "style"))
    for prop, value in re.findall(r"(?<![-\w])(fill|stroke|color)\s*:\s*([^;}]+)", style):
        if not (re.fullmatch(r"var\(--gs-[a-z]+,currentColor\)", value.strip()) or re.fullmatch(r"#[0-9a-f]{6}", value.strip())):
            problems.append(f"style {prop}: {value}")
    # a literal colour only for a figure that is a document of its own (svg:root), as its text colour
    for rule in re.findall(r"([^{}]+)\{[^{}]*#[0-9a-f]{6}", style):
        if rule.strip().split("{")[-1].strip() != "svg:root":
            problems.append(f"a literal colour outside svg:root: {rule.strip()}")
    return problems


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary, figures, readme = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]).read_text()
    want = expected()
    passed = failed = 0

    def check(ok: bool, what: str):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"check_figures_svg: {what}")

    for name in NAMES:
        for quoted in QUOTED[name]:
            check(any(quoted in w for w in want[name]), f"{name}: the reference gives {want[name]}, not the lesson's {quoted!r}")
        run = subprocess.run([binary, "figure", name], capture_output=True, timeout=30)
        check(run.returncode == 0 and run.stderr == b"", f"{name}: exit {run.returncode}, stderr {run.stderr!r}")
        text = run.stdout.decode()
        words = re.sub(r"<[^>]+>", " ", text)  # as the lesson's test reads a figure
        for part in want[name]:
            check(part in words, f"{name}: {part!r} is not in the figure")
        for problem in form_problems(text):
            check(False, f"{name}: {problem}")
        committed = figures / f"{name}.svg"
        check(committed.is_file() and committed.read_bytes() == run.stdout,
              f"{committed} is not what `gpusplit figure {name}` writes: run make figures and commit it")
        check(f"web/figures/{name}.svg" in readme, f"the README does not show web/figures/{name}.svg")
    check(subprocess.run([binary, "figure", "bogus"], capture_output=True, timeout=30).returncode == 2, "an unknown figure does not exit 2")
    print(f"check_figures_svg: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
