#!/usr/bin/env python3
"""Codex (PyPI `codex`, the comic server) for tests, started from the virtual environment
`./dev test` makes, on 127.0.0.1 over a library of comics this script makes:

    codex_server.py VENV STATE_DIR COMICS

STATE_DIR holds Codex's configuration and database (CODEX_CONFIG_DIR) and the comics'
folder; COMICS comics are made, "Gull N" with N from 1, each a CBZ of 9 small PNG pages.
Prints the port Codex listens on as its first line once the comics are imported (its OPDS 2
feed lists them all), and stops Codex (and all it started) when its standard input closes.
Codex's own admin user (admin, password admin, made at its first start) is the one user.

Codex asks PyPI for its newest version at start; here that request goes to a proxy on a
closed port of 127.0.0.1 and fails at once (nothing leaves the machine). If Codex does not
start or import within 600 s the first line says why, beginning with "error:".
"""
import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
import zipfile
import zlib

PAGES = 9
# Codex's start and import take seconds alone and minutes on a machine shared by many builds.
WAIT = 600


def png(shade):
    """A 4x6 grey PNG (a page), `shade` 0..255."""
    width, height = 4, 6
    rows = b"".join(b"\x00" + bytes([shade]) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def make_comics(folder, count):
    os.makedirs(folder, exist_ok=True)
    for number in range(1, count + 1):
        path = os.path.join(folder, f"Gull {number:03d}.cbz")
        with zipfile.ZipFile(path, "w") as archive:
            info = (f'<?xml version="1.0"?>\n<ComicInfo><Series>Gull</Series><Number>{number}</Number>'
                    f"<Title>Gull {number}</Title><PageCount>{PAGES}</PageCount></ComicInfo>\n")
            archive.writestr("ComicInfo.xml", info)
            for page in range(PAGES):
                archive.writestr(f"page-{page + 1:02d}.png", png(20 * page + number % 20))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(state):
    env = {key: value for key, value in os.environ.items() if not key.lower().endswith("_proxy")}
    env.update({
        "CODEX_CONFIG_DIR": os.path.join(state, "config"),
        "CODEX_LOG_TO_CONSOLE": "0",
        "TZ": "UTC",
        # PyPI (its version check) through a proxy that is not there: refused at once.
        "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9", "http_proxy": "http://127.0.0.1:9",
        "NO_PROXY": "", "no_proxy": "",
    })
    return env


def prepare(venv, state, comics_folder, port):
    config = os.path.join(state, "config")
    os.makedirs(config, exist_ok=True)
    # `./dev test` migrates a database once, at install (Codex's ~200 migrations take minutes
    # on a busy machine); a copy of it starts each server.
    template = os.path.join(venv, "template", "codex.sqlite3")
    if os.path.exists(template):
        shutil.copyfile(template, os.path.join(config, "codex.sqlite3"))
    with open(os.path.join(config, "hypercorn.toml"), "w") as toml:
        toml.write(f'bind = ["127.0.0.1:{port}"]\nquick_bind = []\nroot_path = ""\nmax_import_batch_size = "auto"\n')
    # The database made and the library row written before Codex starts: it imports a new
    # library (never polled) as it starts.
    script = (
        "import django, os\n"
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'codex.settings')\n"
        "django.setup()\n"
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\n"
        "from codex.models import Library\n"
        f"Library.objects.get_or_create(path={comics_folder!r})\n"
    )
    subprocess.run([os.path.join(venv, "bin", "python"), "-c", script], env=environment(state), cwd=state, check=True,
                   stdout=open(os.path.join(state, "prepare.log"), "w"), stderr=subprocess.STDOUT, timeout=WAIT)


def imported(port, count):
    auth = base64.b64encode(b"admin:admin").decode()
    # "All Issues" (Codex's navigation calls them so): every comic, as OPDS 2 publications.
    request = urllib.request.Request(f"http://127.0.0.1:{port}/opds/v2.0/s/0/1?topGroup=s",
                                     headers={"Authorization": f"Basic {auth}"})  # Codex refuses application/opds+json (406)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=5) as answer:
            feed = json.load(answer)
    except Exception:
        return False
    return feed.get("metadata", {}).get("numberOfItems", 0) >= count


def main():
    venv, state, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    comics = os.path.join(state, "comics")
    make_comics(comics, count)
    port = free_port()
    log = open(os.path.join(state, "codex.log"), "w")
    try:
        prepare(venv, state, comics, port)
    except Exception as error:
        print(f"error: Codex's database could not be made ({error}); see {state}/prepare.log", flush=True)
        return
    server = subprocess.Popen([os.path.join(venv, "bin", "codex")], env=environment(state), cwd=state,
                              stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline and server.poll() is None and not imported(port, count):
        time.sleep(0.25)
    if server.poll() is not None:
        print(f"error: Codex ended ({server.returncode}) before it served; see {state}/codex.log", flush=True)
        return
    if not imported(port, count):
        os.killpg(server.pid, signal.SIGTERM)
        print(f"error: Codex did not list {count} comics within {WAIT} s; see {state}/codex.log", flush=True)
        return
    print(port, flush=True)
    sys.stdin.read()
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


if __name__ == "__main__":
    main()
