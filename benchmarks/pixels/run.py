#!/usr/bin/env python3
"""Pictures in real pixels, measured in real terminals under Xvfb (one run, side by side).

1. From a key to the next comic page visible in kitty: `newsstand read` turning pages,
   against `timg -pk` and `chafa -f kitty` started as whole processes to show the same
   page at the same size; the screen is read with XGetImage (libX11 through ctypes) every
   millisecond or so, the key sent with XTest, so neither costs a process.
2. Bytes sent per page: `newsstand render --images kitty|sixel` (the reader's encoder),
   `timg -pk`, `chafa -f kitty`, `chafa -f sixels`, at the same size in cells.
3. Detection at start: `newsstand render --images auto` minus `--images halfblock` on a
   tiny picture, in kitty, xterm (sixel), tmux inside kitty (passthrough on), and a pty
   that answers nothing (`script`).

Usage: benchmarks/pixels/run.py [--binary .build/release/newsstand] [--pages 10] [--runs 10]
Needs: Xvfb, kitty, xterm, tmux, timg, chafa, ImageMagick's convert, python3.
"""
import argparse, ctypes, json, os, shutil, statistics, subprocess, sys, tempfile, time, zipfile, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
COLS, ROWS = 100, 27          # the reader's page view in a 1000×640 kitty at 12 pt
KITTY = ["kitty", "--config", "NONE", "-o", "font_size=12", "-o", "initial_window_width=1000",
         "-o", "initial_window_height=640", "-o", "remember_window_size=no"]
XTERM_SIXEL = ["xterm", "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256",
               "-fa", "DejaVu Sans Mono", "-fs", "12"]
HUES = {"red": ("#e04020", "#601008"), "blue": ("#2050e0", "#081860")}


def page_colour(index):
    return "red" if index % 2 == 0 else "blue"


def make_pages(directory, count):
    """Comic-like pages: a plasma (photo-like) ground in the page's hue, panel borders, bubbles."""
    pages = []
    for index in range(count):
        light, dark = HUES[page_colour(index)]
        path = os.path.join(directory, "page%02d.png" % (index + 1))
        subprocess.run(["/usr/bin/convert", "-seed", str(index + 1), "-size", "1200x1800", "plasma:%s-%s" % (light, dark),
                        "-stroke", "black", "-strokewidth", "12", "-fill", "none",
                        "-draw", "rectangle 40,40 1160,860", "-draw", "rectangle 40,920 580,1760", "-draw", "rectangle 620,920 1160,1760",
                        "-stroke", "black", "-strokewidth", "4", "-fill", "white",
                        "-draw", "ellipse 300,200 200,90 0,360", "-draw", "ellipse 850,1100 180,80 0,360",
                        path], check=True)
        pages.append(path)
    return pages


class Screen:
    """The X display read and typed at in-process."""
    class XImage(ctypes.Structure):
        _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                    ("data", ctypes.POINTER(ctypes.c_ubyte)), ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                    ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                    ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]

    def __init__(self, display):
        self.x = ctypes.CDLL("libX11.so.6")
        self.xtst = ctypes.CDLL("libXtst.so.6")
        self.x.XOpenDisplay.restype = ctypes.c_void_p
        self.x.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x.XGetImage.restype = ctypes.POINTER(Screen.XImage)
        self.x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                     ctypes.c_ulong, ctypes.c_int]
        self.x.XStringToKeysym.restype = ctypes.c_ulong
        self.x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.x.XFlush.argtypes = [ctypes.c_void_p]
        self.x.XFree.argtypes = [ctypes.c_void_p]
        self.display = self.x.XOpenDisplay(display.encode())
        if not self.display:
            raise SystemExit("cannot open display " + display)
        self.root = self.x.XDefaultRootWindow(self.display)

    def grab(self, width, height):
        """The screen's top-left `width`×`height` pixels (BGRX), and the bytes of one row."""
        image = self.x.XGetImage(self.display, self.root, 0, 0, width, height, 0xFFFFFFFF, 2)
        data = ctypes.string_at(image.contents.data, image.contents.bytes_per_line * height)
        line = image.contents.bytes_per_line
        self.x.XFree(image.contents.data)
        self.x.XFree(image)
        return data, line

    def signature(self, width, height):
        """A checksum of the screen's top-left `width`×`height` pixels, read through MIT-SHM:
        1.3 ms for 1200×880 here, where `grab` (the pixels through the X socket) takes ~8."""
        if getattr(self, "shared", None) is None or self.shared[0] != (width, height):
            self.shared = ((width, height),) + self.shared_image(width, height)
        _, image, pixels = self.shared
        self.xext.XShmGetImage(self.display, self.root, image, 0, 0, 0xFFFFFFFF)
        return zlib.adler32(pixels)

    def shared_image(self, width, height):
        class Segment(ctypes.Structure):
            _fields_ = [("shmseg", ctypes.c_ulong), ("shmid", ctypes.c_int), ("shmaddr", ctypes.c_void_p), ("readOnly", ctypes.c_int)]
        self.xext = ctypes.CDLL("libXext.so.6")
        libc = ctypes.CDLL("libc.so.6")
        self.x.XDefaultVisual.restype = ctypes.c_void_p
        self.x.XDefaultVisual.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.x.XDefaultDepth.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.xext.XShmCreateImage.restype = ctypes.POINTER(Screen.XImage)
        self.xext.XShmCreateImage.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_void_p,
                                              ctypes.POINTER(Segment), ctypes.c_uint, ctypes.c_uint]
        self.xext.XShmAttach.argtypes = [ctypes.c_void_p, ctypes.POINTER(Segment)]
        self.xext.XShmGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(Screen.XImage), ctypes.c_int,
                                           ctypes.c_int, ctypes.c_ulong]
        libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
        libc.shmat.restype = ctypes.c_void_p
        libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        libc.shmctl.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
        self.segment = Segment()   # kept: the image points into it
        image = self.xext.XShmCreateImage(self.display, self.x.XDefaultVisual(self.display, 0), self.x.XDefaultDepth(self.display, 0),
                                          2, None, ctypes.byref(self.segment), width, height)
        size = image.contents.bytes_per_line * height
        self.segment.shmid = libc.shmget(0, size, 0o1000 | 0o600)          # IPC_PRIVATE, IPC_CREAT
        self.segment.shmaddr = libc.shmat(self.segment.shmid, None, 0)
        image.contents.data = ctypes.cast(self.segment.shmaddr, ctypes.POINTER(ctypes.c_ubyte))
        if not self.xext.XShmAttach(self.display, ctypes.byref(self.segment)):
            raise SystemExit("the X server does not share memory (MIT-SHM)")
        self.x.XSync(self.display, 0)
        libc.shmctl(self.segment.shmid, 0, None)   # IPC_RMID: gone once both sides detach
        return image, (ctypes.c_char * size).from_address(self.segment.shmaddr)

    def colours(self, width=1000, height=640, step=8):
        """How many sampled pixels of the window's area are red, and how many blue."""
        data, line = self.grab(width, height)
        red = blue = 0
        for y in range(0, height, step):
            row = y * line
            for x in range(0, width, step):
                b, g, r = data[row + x * 4], data[row + x * 4 + 1], data[row + x * 4 + 2]
                if r > g + 40 and r > b + 40:
                    red += 1
                elif b > r + 40 and b > g + 20:
                    blue += 1
        return red, blue

    def key(self, name):
        code = self.x.XKeysymToKeycode(self.display, self.x.XStringToKeysym(name.encode()))
        self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.x.XFlush(self.display)

    def wait_for(self, colour, since, timeout=30.0, enough=1500):
        """Seconds from `since` until `colour` fills the picture and the other is gone."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            red, blue = self.colours()
            shown, other = (red, blue) if colour == "red" else (blue, red)
            if shown >= enough and other < 20:
                return time.perf_counter() - since
        raise SystemExit("%s did not show within %d s" % (colour, timeout))


def picture_size(output):
    """The width and height of the picture in a kitty (PNG or raw) or sixel escape."""
    import base64, re, struct
    text = output.decode("latin-1")
    if "\x1b_G" in text:
        chunks = re.findall(r"\x1b_G([^;\x1b]*);?([^\x1b]*)\x1b\\", text)
        control = dict(item.split("=", 1) for item in chunks[0][0].split(",") if "=" in item)
        if control.get("f") == "100":
            png = base64.b64decode("".join(payload for _, payload in chunks))
            return struct.unpack(">II", png[16:24])
        return int(control.get("s", 0)), int(control.get("v", 0))
    match = re.search(r'"\d+;\d+;(\d+);(\d+)', text)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def start(arguments, environment):
    # A process group of its own (stopped as one), in the script's session: a new session
    # would be a new autogroup, outside the priority the script was started with.
    return subprocess.Popen(arguments, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            process_group=0)


def stop(process):
    try:
        os.killpg(process.pid, 15)
        process.wait(timeout=5)
    except Exception:
        pass


def wait_file(path, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if os.path.exists(path):
            return
        time.sleep(0.05)
    raise SystemExit("no %s within %d s" % (path, timeout))


def shell(directory, name, body):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def settle(probe):
    """Waits until the terminal answers DA1 within a tenth of a second (a settled terminal)."""
    return ("stty -echo -icanon min 0 time 1\nn=0\nwhile [ $n -lt 100 ]; do printf '%s'\n"
            "case \"$(dd bs=256 count=1 2>/dev/null)\" in *c*) break ;; esac\nn=$((n + 1)); done\n"
            "while [ -n \"$(dd bs=256 count=1 2>/dev/null)\" ]; do :; done\nstty sane\n" % probe)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(HERE, "../../.build/release/newsstand"))
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    work = tempfile.mkdtemp(prefix="pixels-bench-")
    number = next(n for n in range(150, 250) if not os.path.exists("/tmp/.X%d-lock" % n))
    display = ":%d" % number
    environment = dict(os.environ, DISPLAY=display, LIBGL_ALWAYS_SOFTWARE="1", LANG="C.UTF-8", LC_ALL="C.UTF-8",
                       NEWSSTAND_HOME=os.path.join(work, "home"))
    for name in ["TMUX", "TMUX_PANE", "NO_COLOR"]:
        environment.pop(name, None)
    xvfb = start(["Xvfb", display, "-screen", "0", "1280x900x24", "-nolisten", "tcp"], environment)
    results = {"machine": os.uname().release, "cores": os.cpu_count(), "size": "%dx%d cells" % (COLS, ROWS)}
    try:
        wait_file("/tmp/.X11-unix/X%d" % number, 10)
        screen = Screen(display)
        pages = make_pages(work, options.pages)
        comic = os.path.join(work, "comic.cbz")
        with zipfile.ZipFile(comic, "w") as z:
            for page in pages:
                z.write(page, os.path.basename(page))
        subprocess.run([binary, "subscribe", comic], env=environment, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([binary, "download", "file://" + comic, "--wait"], env=environment, check=True, stdout=subprocess.DEVNULL)

        # 1a. The reader: page after page, key to visible.
        reader = shell(work, "reader.sh", settle("\\033[c") + "exec '%s' read 'file://%s' --images kitty" % (binary, comic))
        kitty = start(KITTY + ["-e", reader], environment)
        screen.wait_for("red", time.perf_counter(), timeout=60)
        turns = []
        for index in range(1, len(pages)):
            time.sleep(1.5)   # reading the page: the next one is prepared meanwhile, as the reader does
            since = time.perf_counter()
            screen.key("space")
            turns.append(screen.wait_for(page_colour(index), since) * 1000)
        screen.key("q")
        stop(kitty)
        results["newsstand read (key to page)"] = turns

        # 1b. timg and chafa as whole processes, each page shown on a cleared screen.
        fifo = os.path.join(work, "go")
        os.mkfifo(fifo)
        tools = {"timg -pk": "timg -pk -g%dx%d" % (COLS, ROWS), "chafa -f kitty": "chafa -f kitty -s %dx%d" % (COLS, ROWS)}
        for label, command in tools.items():
            driver = shell(work, "driver.sh", settle("\\033[c") + "while true; do read page < '%s'; "
                           "printf '\\033_Ga=d\\033\\\\\\033[2J\\033[H'; %s \"$page\"; done" % (fifo, command))
            kitty = start(KITTY + ["-e", driver], environment)
            time.sleep(3)
            shown = []
            for index, page in enumerate(pages):
                since = time.perf_counter()
                with open(fifo, "w") as f:
                    f.write(page + "\n")
                shown.append(screen.wait_for(page_colour(index), since) * 1000)
                time.sleep(0.3)
            stop(kitty)
            results[label + " (start to page)"] = shown

        # 2. Bytes per page, and the pixels they carry (each tool picks its own pixel size
        # outside a terminal: bytes per thousand pixels compares the encodings).
        size = "%dx%d" % (COLS, ROWS)
        commands = {
            "newsstand kitty": lambda p: [binary, "render", p, "--images", "kitty", "--size", size],
            "timg -pk": lambda p: ["timg", "-pk", "-g" + size, p],
            "chafa -f kitty": lambda p: ["chafa", "-f", "kitty", "-s", size, p],
            "newsstand sixel": lambda p: [binary, "render", p, "--images", "sixel", "--size", size],
            "chafa -f sixels": lambda p: ["chafa", "-f", "sixels", "-s", size, p],
        }
        results["bytes per page"] = {}
        for label, command in commands.items():
            outputs = [subprocess.run(command(p), env=environment, capture_output=True).stdout for p in pages]
            width, height = picture_size(outputs[0])
            results["bytes per page"][label] = {"bytes": statistics.mean(len(o) for o in outputs), "pixels": "%dx%d" % (width, height),
                                                "bytes per 1000 pixels": statistics.mean(len(o) for o in outputs) * 1000 / max(1, width * height)}

        # 3. Detection at start, drawing a picture so small that drawing it costs nothing.
        tiny = os.path.join(work, "tiny.png")
        subprocess.run(["/usr/bin/convert", "-size", "8x8", "xc:#e04020", tiny], check=True)
        timed = os.path.join(HERE, "timed.py")
        def detection(label, terminal, probe="\\033[c", wrap=lambda s: s):
            out = {}
            for images in ["auto", "halfblock"]:
                path = os.path.join(work, "%s-%s.json" % (label.replace(" ", "-"), images))
                script = shell(work, "detect.sh", (settle(probe) if terminal else "") + wrap("'%s' '%s' '%s' %d '%s' render '%s' --images %s --size 4x2" % (
                    sys.executable, timed, path, options.runs, binary, tiny, images)) + "\nsleep 30")
                # tmux inside kitty already has kitty's -e (tmux's own -e means something else).
                command = (terminal + ([] if "-e" in terminal else ["-e"]) + [script]) if terminal else ["sh", "-c", script]
                process = start(command, environment)
                wait_file(path, 120)
                stop(process)
                out[images] = json.load(open(path))
            results["detection: " + label] = out
        detection("kitty", KITTY)
        detection("xterm sixel", XTERM_SIXEL)
        socket = "pixels-bench-%d" % os.getpid()
        conf = os.path.join(work, "tmux.conf")
        with open(conf, "w") as f:
            f.write("set -g status off\nset -g allow-passthrough on\n")
        detection("tmux in kitty", KITTY + ["-e", "tmux", "-L", socket, "-f", conf, "new-session"],
                  probe="\\033Ptmux;\\033\\033[c\\033\\\\")
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        # A pty nobody answers: `script` copies the queries to a file.
        silent = lambda command: "sleep 60 | script -qfc \"%s\" /dev/null > /dev/null" % command.replace('"', '\\"')
        detection("pty that answers nothing", None, wrap=silent)
    finally:
        stop(xvfb)
        shutil.rmtree(work, ignore_errors=True)
    json.dump(results, sys.stdout, indent=1)
    print()
    report(results)


def report(results):
    median = statistics.median
    print("\nKey (or start) to page visible, median / max ms:")
    for label in ["newsstand read (key to page)", "timg -pk (start to page)", "chafa -f kitty (start to page)"]:
        values = results[label]
        print("  %-32s %7.1f %7.1f" % (label, median(values), max(values)))
    print("Bytes per page (mean), the picture's pixels, bytes per 1000 pixels:")
    for label, value in results["bytes per page"].items():
        print("  %-20s %9d  %-10s %6.0f" % (label, value["bytes"], value["pixels"], value["bytes per 1000 pixels"]))
    print("Detection (median auto - median halfblock, ms):")
    for label, value in results.items():
        if label.startswith("detection: "):
            print("  %-28s %6.1f  (auto %.1f, halfblock %.1f)" % (label[11:], median(value["auto"]) - median(value["halfblock"]),
                                                                median(value["auto"]), median(value["halfblock"])))


if __name__ == "__main__":
    main()
