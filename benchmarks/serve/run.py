#!/usr/bin/env python3
"""`newsstand serve` under load: the OPDS root and a 50-entry page at p95 under concurrent
clients on a shelf of N installed issues, and the server's memory; side by side, in the same
run, calibre's content server (Debian `calibre`) serving the same N comics as its OPDS, and a
50 MB issue downloaded from `newsstand serve` and from nginx (Debian `nginx-light`) serving
the same file.

    python3 benchmarks/serve/run.py [--binary .build/release/newsstand] [--issues 1000] [--clients 20] [--requests 2000]
                                    [--no-calibre] [--no-nginx]

The shelf is a folder of one's own: N hard links of the sample feed's comic, subscribed in a
library of its own (a temporary NEWSSTAND_HOME), so every issue is installed. The server
listens on 127.0.0.1 at a free port; each client keeps one connection and asks in turn (ApacheBench
with -k by default; --client python for Python threads, which take a core of the two themselves).
Prints one line per address (p50, p95, max in ms, requests per second) and the server's
peak and final resident memory. Nothing leaves the machine.
"""
import argparse, http.client, json, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMIC = os.path.join(ROOT, "sample-feed/rocket-badger/issues/rocket-badger-003.cbz")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_shelf(binary, home, issues):
    source = os.path.join(home, "comics")
    os.makedirs(source)
    for index in range(issues):
        os.link(COMIC, os.path.join(source, f"issue-{index:05d}.cbz"))
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off")
    subprocess.run([binary, "subscribe", source], env=env, check=True, stdout=subprocess.DEVNULL)
    return env


def wait_listening(port, what, seconds=90):
    deadline = time.time() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                sys.exit(f"{what} did not listen")
            time.sleep(0.1)


def big_comic(folder, megabytes=50):
    """A comic of pages of noise (ImageMagick), about `megabytes` MB: stored, not squeezed."""
    import zipfile
    page = os.path.join(folder, "noise.png")
    subprocess.run(["convert", "-size", "1600x1600", "xc:gray", "+noise", "Random", page], check=True)
    path = os.path.join(folder, "big-issue.cbz")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        index = 0
        while os.path.getsize(path) < megabytes * 1000 * 1000:
            archive.write(page, f"page-{index:03d}.png")
            archive.fp.flush()
            index += 1
    os.remove(page)
    return path


def calibre_library(home, issues):
    """A calibre library holding the same comic `issues` times (as `calibredb add` would, in one process)."""
    library = os.path.join(home, "calibre-library")
    os.makedirs(library)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", CALIBRE_CONFIG_DIRECTORY=os.path.join(home, "calibre-config"))
    subprocess.run(["calibre-debug", "-c", f"""
from calibre.library import db
from calibre.ebooks.metadata.book.base import Metadata
api = db({library!r}).new_api
for i in range({issues}):
    book = api.create_book_entry(Metadata('Issue %05d' % i, ['Bench']))
    api.add_format(book, 'CBZ', {COMIC!r}, run_hooks=False)
"""], env=env, check=True, capture_output=True)
    return library, env


def big_issue_path(port):
    """Where `newsstand serve` offers the big issue: the largest file of its newest issues."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/opds2/newest")
    feed = json.loads(connection.getresponse().read())
    links = [link for publication in feed.get("publications", []) for link in publication.get("links", [])
             if "acquisition" in str(link.get("rel"))]
    if not links:
        sys.exit("no acquisition link in /opds2/newest")
    href = max(links, key=lambda link: link.get("properties", {}).get("size", 0) or 0)["href"]
    return "/" + href.split("/", 3)[3] if href.startswith("http") else href


def download_rates(port, path, runs=3):
    """MB/s of `runs` downloads of `path` by curl into /dev/null, and the size."""
    rates = []
    for _ in range(runs):
        said = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{speed_download} %{size_download}",
                               f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True).stdout.split()
        if said[0] != "200":
            sys.exit(f"{path}: {said[0]}")
        rates.append(float(said[1]) / 1e6)
    return rates, int(said[2])


def load(port, path, clients, requests):
    """Each client asks `requests / clients` times on one kept connection; every answer must be 200."""
    times, failures, lock = [], [], threading.Lock()
    per_client = max(1, requests // clients)

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        for _ in range(per_client):
            start = time.perf_counter()
            connection.request("GET", path)
            answer = connection.getresponse()
            body = answer.read()
            mine.append((time.perf_counter() - start) * 1000)
            if answer.status != 200 or not body:
                with lock:
                    failures.append(answer.status)
        connection.close()
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        sys.exit(f"{path}: {len(failures)} answers were not 200 ({failures[:5]})")
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    return statistics.median(times), p95, times[-1], len(times) / elapsed


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields.get("VmHWM", "?"), fields.get("VmRSS", "?")


def load_ab(port, path, clients, requests):
    """The same load made by ApacheBench (`ab -k`, Debian apache2-utils): one C process, so the
    clients take little of the machine's two cores from the server. p50, p95 and the longest
    in ms (its CSV of percentiles, to the microsecond), and requests per second."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as csv:
        said = subprocess.run(["ab", "-q", "-k", "-c", str(clients), "-n", str(requests), "-e", csv.name,
                               f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True)
        if said.returncode != 0:
            sys.exit(f"ab {path}: {said.stderr.strip() or said.stdout[-300:]}")
        percent = dict(tuple(map(float, line.split(","))) for line in open(csv.name).read().splitlines()[1:])
    out = said.stdout
    failed = int(out.split("Failed requests:")[1].split()[0])
    non2xx = int(out.split("Non-2xx responses:")[1].split()[0]) if "Non-2xx responses:" in out else 0
    if failed or non2xx:
        sys.exit(f"ab {path}: {failed} failed, {non2xx} not 2xx")
    longest = float(out.split("(longest request)")[0].split()[-1])
    rate = float(out.split("Requests per second:")[1].split()[0])
    return percent[50.0], percent[95.0], longest, rate


def report(port, paths, clients, requests, who, client="python"):
    figures = {}
    for path in paths:
        load(port, path, 2, 20)  # warm: each install's kind of file is read once
        p50, p95, worst, rate = (load_ab if client == "ab" else load)(port, path, clients, requests)
        figures[path] = p95
        print(f"{who:10} {path:44} {clients} {client} clients  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  max {worst:7.2f} ms  {rate:7.0f} req/s")
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/newsstand"))
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--no-calibre", action="store_true", help="leave calibre-server out")
    parser.add_argument("--no-nginx", action="store_true", help="leave the download beside nginx out")
    parser.add_argument("--client", choices=["python", "ab"], default="ab",
                        help="who makes the load: ApacheBench (default; one C process) or Python threads")
    args = parser.parse_args()
    for tool, needed in (("calibre-server", not args.no_calibre), ("nginx", not args.no_nginx), ("convert", not args.no_nginx),
                         ("ab", args.client == "ab")):
        if needed and not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin"):
            sys.exit(f"{tool} is not installed (apt-get install calibre nginx-light imagemagick apache2-utils, "
                     "or --no-calibre / --no-nginx / --client python)")
    home = tempfile.mkdtemp(prefix="serve-bench-")
    servers = []
    try:
        began = time.perf_counter()
        env = make_shelf(args.binary, home, args.issues)
        print(f"shelf: {args.issues} installed issues in {time.perf_counter() - began:.1f} s ({args.binary})")
        big = None
        if not args.no_nginx:
            mine = os.path.join(home, "mine")
            os.makedirs(mine)
            big = big_comic(mine)
            subprocess.run([args.binary, "subscribe", mine], env=env, check=True, stdout=subprocess.DEVNULL)
        port = free_port()
        server = subprocess.Popen([args.binary, "serve", "--listen", f"127.0.0.1:{port}"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        servers.append(server)
        wait_listening(port, "newsstand serve", 30)
        ours = report(port, ["/opds", "/opds/newest?page=2", "/opds2/newest?page=2"], args.clients, args.requests, "newsstand",
                      args.client)
        peak, now = memory(server.pid)
        print(f"newsstand  server memory: peak {peak}, now {now}")
        if big:
            path = big_issue_path(port)
            nginx_root = os.path.join(home, "nginx")
            os.makedirs(os.path.join(nginx_root, "logs"))
            shutil.copy(big, os.path.join(nginx_root, "big-issue.cbz"))
            os.chmod(home, 0o755)  # nginx's workers read as another user
            nginx_port = free_port()
            with open(os.path.join(nginx_root, "nginx.conf"), "w") as conf:
                conf.write(f"""daemon off; worker_processes 1; pid {nginx_root}/nginx.pid; error_log {nginx_root}/logs/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; sendfile on; tcp_nopush on; client_body_temp_path {nginx_root}/tmp;
  server {{ listen 127.0.0.1:{nginx_port}; root {nginx_root}; }} }}
""")
            servers.append(subprocess.Popen(["/usr/sbin/nginx", "-p", nginx_root, "-c", os.path.join(nginx_root, "nginx.conf")],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_listening(nginx_port, "nginx", 10)
            ours_rates, theirs_rates = [], []
            for _ in range(5):  # interleaved, the same file from each, 15 downloads each
                rates, theirs_size = download_rates(nginx_port, "/big-issue.cbz")
                theirs_rates += rates
                rates, ours_size = download_rates(port, path)
                ours_rates += rates
            ours_rate, theirs_rate = statistics.median(ours_rates), statistics.median(theirs_rates)
            print(f"download   {ours_size / 1e6:.1f} MB issue, medians of 15: newsstand serve {ours_rate:7.0f} MB/s, nginx {theirs_rate:7.0f} MB/s "
                  f"({theirs_size / 1e6:.1f} MB): {ours_rate / theirs_rate:.2f}x nginx")
        if not args.no_calibre:
            began = time.perf_counter()
            library, calibre_env = calibre_library(home, args.issues)
            print(f"calibre library: {args.issues} books in {time.perf_counter() - began:.1f} s")
            calibre_port = free_port()
            calibre = subprocess.Popen(["calibre-server", "--listen-on", "127.0.0.1", "--port", str(calibre_port), "--disable-use-bonjour",
                                        "--max-opds-items", "50", library], env=calibre_env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            servers.append(calibre)
            wait_listening(calibre_port, "calibre-server")
            theirs = report(calibre_port, ["/opds", "/opds/navcatalog/4f6e6577657374?offset=50"], args.clients, args.requests, "calibre",
                            args.client)
            peak, now = memory(calibre.pid)
            print(f"calibre    server memory: peak {peak}, now {now}")
            print(f"ratios (p95, newsstand / calibre): root {ours['/opds'] / theirs['/opds']:.2f}x, "
                  f"a 50-entry page {ours['/opds/newest?page=2'] / theirs['/opds/navcatalog/4f6e6577657374?offset=50']:.2f}x")
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
