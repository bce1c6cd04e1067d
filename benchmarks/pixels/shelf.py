#!/usr/bin/env python3
"""The shelf's key latency with `covers = "pixels"` against half-block covers (the default),
in kitty under Xvfb, in one run: from a key sent (XTest) to the frame it leads to fully on
screen (the screen read through MIT-SHM every ~1.5 ms, and the first read equal to the one
the screen settles on), for moves between covers, opening a store, moves in it, and
returning to the shelf. Beside it, the program's own figures (`NEWSSTAND_FRAME_TIMES`: a
key from being read to its frame written, pictures included) and the bytes the program
wrote for each key (`/proc/PID/io`). Both settings run in the same kitty, on the same
library, in alternating rounds; the store's thumbnails are in pixels in both.

Libraries: the bundled sample feeds as a first start subscribes them (`sample`), and 50
publications × 20 issues made by benchmarks/shelf/make_library.py (`many`).

With `--before OTHER/newsstand` (a build of another commit, its newsstand-pdf beside it), a
third setting runs in the same rounds: `covers = "pixels"` in that build ("before"), and the
report compares the two builds' pixel covers.

Usage: benchmarks/pixels/shelf.py [--binary .build/release/newsstand] [--rounds 4]
       [--library sample,many] [--nice -10] [--before /tmp/main-release/newsstand]
Needs what run.py needs (Xvfb, kitty, ImageMagick not used here), python3.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import KITTY, Screen, settle, shell, start, stop, wait_file  # noqa: E402  (the page-turn benchmark's machinery)

WIDTH, HEIGHT = 1200, 880     # 120×40 cells of 10×22 px (kitty 0.26.5 at 12 pt here)
WINDOW = KITTY + ["-o", "initial_window_width=%d" % WIDTH, "-o", "initial_window_height=%d" % HEIGHT,
                  "-o", "cursor_blink_interval=0"]
SETTINGS = ["halfblock", "pixels"]
BEFORE = "pixels, before"
COVERS = {"halfblock": "halfblock", "pixels": "pixels", BEFORE: "pixels"}

MOVE, OPEN, STORE, BACK = "move between covers", "open a store", "move in a store", "back to the shelf"
# Every key changes the screen.
KEYS = {
    # Five publications, four to a shelf at 120×40.
    "sample": [("l", MOVE)] * 3 + [("h", MOVE)] * 3 + [("j", MOVE), ("k", MOVE)]
    + [("Return", OPEN), ("j", STORE), ("j", STORE), ("k", STORE), ("q", BACK)]
    + [("l", MOVE), ("l", MOVE), ("Return", OPEN), ("j", STORE), ("q", BACK)]
    + [("j", MOVE), ("Return", OPEN), ("j", STORE), ("q", BACK)]
    + [("k", MOVE), ("l", MOVE), ("l", MOVE), ("h", MOVE)],
    # Fifty publications: across, down (the shelf scrolls), into stores and back.
    "many": [("l", MOVE)] * 5 + [("j", MOVE)] * 3
    + [("Return", OPEN), ("j", STORE), ("j", STORE), ("l", STORE), ("q", BACK)]
    + [("h", MOVE)] * 3 + [("k", MOVE)] * 2
    + [("Return", OPEN), ("j", STORE), ("q", BACK)]
    + [("j", MOVE)] * 4 + [("Return", OPEN), ("q", BACK)]
    + [("k", MOVE)] * 5 + [("h", MOVE)] * 2,
}


class Run:
    """One start of the shelf in kitty: its keys timed from outside and inside."""

    def __init__(self, screen, work, binary, environment, nice):
        self.screen, self.work, self.binary, self.environment, self.nice = screen, work, binary, environment, nice

    def settled(self, since, quiet, timeout, changing=False):
        """Reads the screen until it stays the same for `quiet` s (after it first changed, when
        `changing`: every key measured changes the screen, and a loaded machine can hold kitty
        or the program still for longer than `quiet`): the times of its changes (the first
        read, at `since`'s side, included) and the screen it settled on."""
        changes = []
        last = None
        while True:
            signature = self.screen.signature(WIDTH, HEIGHT)
            now = time.perf_counter()
            if signature != last:
                changes.append((now - since, signature))
                last = signature
            elif (len(changes) > 1 or not changing) and now - since - changes[-1][0] > quiet:
                return changes, last
            if now - since > timeout:
                return changes, last

    def once(self, keys, measure=True):
        times = os.path.join(self.work, "times.txt")
        pid_file = os.path.join(self.work, "pid")
        for path in [times, pid_file]:
            if os.path.exists(path):
                os.remove(path)
        # Inside kitty the program is in a session (an autogroup) of its own: give it the
        # priority asked for there too.
        priority = "echo %d > /proc/self/autogroup 2>/dev/null\n" % self.nice if self.nice else ""
        launcher = shell(self.work, "shelf.sh", settle("\\033[c") + "echo $$ > '%s'\n%sexec '%s'" % (pid_file, priority, self.binary))
        kitty = start(WINDOW + ["-e", launcher], dict(self.environment, NEWSSTAND_FRAME_TIMES=times))
        try:
            wait_file(pid_file, 60)
            time.sleep(0.05)
            pid = int(open(pid_file).read())
            self.settled(time.perf_counter(), quiet=1.5, timeout=60)
            samples = []
            for key, what in (keys if measure else []):
                before = self.screen.signature(WIDTH, HEIGHT)
                written = self.written(pid)
                since = time.perf_counter()
                self.screen.key(key)
                changes, final = self.settled(since, quiet=0.5, timeout=10, changing=True)
                shown = next(t for t, s in changes if s == final)
                samples.append({"key": key, "what": what, "changed": final != before,
                                "visible_ms": shown * 1000, "first_change_ms": (changes[1][0] if len(changes) > 1 else changes[0][0]) * 1000,
                                "screens_ms": [t * 1000 for t, _ in changes], "bytes": self.written(pid) - written})
                time.sleep(0.1)
            self.screen.key("q")
            wait_file(times, 30)
        finally:
            stop(kitty)
        lines = open(times).read().splitlines()
        inside = [float(line.split()[2]) for line in lines if line.startswith("key ")]
        for sample, ms in zip(samples, inside):
            sample["inside_ms"] = ms
        figures = {line.split()[0]: float(line.split()[1]) for line in lines if len(line.split()) == 2}
        details = [line for line in lines if line.startswith("key ") or line.startswith("frame ")]
        return {"keys": samples, "figures": figures, "details": details}

    @staticmethod
    def written(pid):
        """Bytes the process has written (all its write calls: the terminal, and little else
        while the shelf only moves)."""
        for line in open("/proc/%d/io" % pid):
            if line.startswith("wchar:"):
                return int(line.split()[1])
        return 0


def library(name, work, binary, environment):
    """The NEWSSTAND_HOME (and resources) of a library, made and subscribed."""
    if name == "sample":
        home = os.path.join(work, "sample-home")
        env = dict(environment, NEWSSTAND_HOME=home)
        subprocess.run([binary, "issues", "--json"], env=env, check=True, capture_output=True)   # subscribes the samples
        return env
    out = os.path.join(work, "many")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "shelf", "make_library.py"), out, "--newsstand", binary], check=True)
    return dict(environment, NEWSSTAND_HOME=os.path.join(out, "home"), NEWSSTAND_RESOURCES=os.path.join(out, "resources"))


def use(environment, covers):
    config = os.path.join(environment["NEWSSTAND_HOME"], "config")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "config.toml"), "w") as f:
        f.write('covers = "%s"\n' % covers)


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/newsstand"))
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--library", default="sample,many")
    parser.add_argument("--nice", type=int, default=0, help="priority of the whole run (negative needs root): its autogroup and the program's")
    parser.add_argument("--json", help="also write every sample here")
    parser.add_argument("--before", help="another build's newsstand: its pixel covers run as a third setting, \"before\"")
    options = parser.parse_args()
    if options.nice:
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(options.nice))
        os.setpriority(os.PRIO_PROCESS, 0, options.nice)
    binary = os.path.abspath(options.binary)
    settings = SETTINGS + ([BEFORE] if options.before else [])
    binaries = {"halfblock": binary, "pixels": binary, BEFORE: os.path.abspath(options.before) if options.before else None}
    work = tempfile.mkdtemp(prefix="pixels-shelf-")
    number = next(n for n in range(150, 250) if not os.path.exists("/tmp/.X%d-lock" % n))
    display = ":%d" % number
    environment = dict(os.environ, DISPLAY=display, LIBGL_ALWAYS_SOFTWARE="1", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    for name in ["TMUX", "TMUX_PANE", "NO_COLOR", "NEWSSTAND_RESOURCES", "NEWSSTAND_FRAME_TIMES"]:
        environment.pop(name, None)
    xvfb = start(["Xvfb", display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"], environment)
    results = {"machine": " ".join(os.uname()[2:5]), "cores": os.cpu_count(), "nice": options.nice, "libraries": {},
               "settings": settings}
    try:
        wait_file("/tmp/.X11-unix/X%d" % number, 10)
        screen = Screen(display)
        for name in options.library.split(","):
            env = library(name, work, binary, environment)
            runner = Run(screen, work, binary, env, options.nice)
            for setting in settings:           # covers rendered once, a library read once: a usual start
                use(env, COVERS[setting])
                runner.binary = binaries[setting]
                runner.once(KEYS[name], measure=False)
            runs = {setting: [] for setting in settings}
            loads = []
            for round in range(options.rounds):
                for covers in (settings if round % 2 == 0 else settings[::-1]):
                    use(env, COVERS[covers])
                    runner.binary = binaries[covers]
                    loads.append(load())
                    runs[covers].append(runner.once(KEYS[name]))
                    print("%s, %s, round %d done (load %.1f)" % (name, covers, round + 1, loads[-1]), file=sys.stderr)
            results["libraries"][name] = {"runs": runs, "load": [min(loads), max(loads)]}
    finally:
        stop(xvfb)
        shutil.rmtree(work, ignore_errors=True)
    if options.json:
        with open(options.json, "w") as f:
            json.dump(results, f, indent=1)
    report(results)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def report(results):
    settings = results.get("settings", SETTINGS)
    print("machine %s, %d cores, nice %d" % (results["machine"], results["cores"], results["nice"]))
    for name, data in results["libraries"].items():
        runs = data["runs"]
        print("\n%s library, %d runs of each setting, load %.1f–%.1f" % (name, len(runs["pixels"]), *data["load"]))
        print("  %-20s %-30s %20s %20s %14s %16s" % ("", "", "key → visible (kitty)", "key → written (own)", "bytes", "changed/keys"))
        print("  %-20s %-30s %9s %10s %9s %10s %14s" % ("", "", "median", "p95", "median", "p95", "median"))
        for what in [MOVE, OPEN, STORE, BACK]:
            rows = {}
            for covers in settings:
                samples = [s for run in runs[covers] for s in run["keys"] if s["what"] == what]
                shown = [s for s in samples if s["changed"]]
                rows[covers] = (statistics.median(s["visible_ms"] for s in shown), percentile([s["visible_ms"] for s in shown], 0.95),
                                statistics.median(s["inside_ms"] for s in samples), percentile([s["inside_ms"] for s in samples], 0.95),
                                statistics.median(s["bytes"] for s in samples), "%d/%d" % (len(shown), len(samples)))
                print("  %-20s %-30s %9.1f %10.1f %9.1f %10.1f %14d %16s" % (what, "covers = " + covers, *rows[covers]))
            for over, under in [("pixels", "halfblock")] + ([("pixels", BEFORE)] if BEFORE in settings else []):
                ratio = [p / h if h else float("nan") for p, h in zip(rows[over][:5], rows[under][:5])]
                print("  %-20s %-30s %8.2f× %9.2f× %8.2f× %9.2f× %13.2f×" % ("", "%s / %s" % (over, under), *ratio))
        # The moves that scroll the shelf: those whose half-block frame rewrote most of the
        # screen (over 8 KB), the same keys in every run.
        count = len(runs["halfblock"][0]["keys"])
        scrolling = [i for i in range(count) if runs["halfblock"][0]["keys"][i]["what"] == MOVE
                     and statistics.median(run["keys"][i]["bytes"] for run in runs["halfblock"]) > 8000]
        print("  moves that scroll the shelf (%d of each run): visible median / p95, written median / p95 / max, bytes median" % len(scrolling))
        for covers in settings:
            samples = [run["keys"][i] for run in runs[covers] for i in scrolling]
            if not samples:
                continue
            visible, inside = [s["visible_ms"] for s in samples], [s["inside_ms"] for s in samples]
            print("  %-20s %-30s %9.1f %10.1f %9.1f %10.1f %9.1f %14d" % ("", "covers = " + covers, statistics.median(visible), percentile(visible, 0.95),
                  statistics.median(inside), percentile(inside, 0.95), max(inside), statistics.median(s["bytes"] for s in samples)))
        print("  every key, key → written (own): median / p95 / max, ms")
        for covers in settings:
            inside = [s["inside_ms"] for run in runs[covers] for s in run["keys"]]
            print("  %-20s %-30s %9.1f %10.1f %9.1f" % ("", "covers = " + covers, statistics.median(inside), percentile(inside, 0.95), max(inside)))
        for figure in ["first_frame_ms", "covers_drawn_ms", "peak_rss_mb"]:
            print("  %-20s %s" % (figure, "   ".join("%s %s" % (covers, " ".join("%.0f" % run["figures"].get(figure, -1) for run in runs[covers]))
                                                   for covers in settings)))


if __name__ == "__main__":
    main()
