#!/usr/bin/env python3
"""`newsstand serve` under load: the OPDS root and a 50-entry page at p95 under concurrent
clients on a shelf of N installed issues, and the server's memory.

    python3 benchmarks/serve/run.py [--binary .build/release/newsstand] [--issues 1000] [--clients 20] [--requests 2000]

The shelf is a folder of one's own: N hard links of the sample feed's comic, subscribed in a
library of its own (a temporary NEWSSTAND_HOME), so every issue is installed. The server
listens on 127.0.0.1 at a free port; each client keeps one connection and asks in turn.
Prints one line per address (p50, p95, max in ms, requests per second) and the server's
peak and final resident memory. Nothing leaves the machine.
"""
import argparse, http.client, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/newsstand"))
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="serve-bench-")
    server = None
    try:
        began = time.perf_counter()
        env = make_shelf(args.binary, home, args.issues)
        print(f"shelf: {args.issues} installed issues in {time.perf_counter() - began:.1f} s ({args.binary})")
        port = free_port()
        server = subprocess.Popen([args.binary, "serve", "--listen", f"127.0.0.1:{port}"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=5).request("GET", "/opds")
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("the server did not start")
                time.sleep(0.05)
        for path in ["/opds", "/opds/newest?page=2", "/opds2/newest?page=2"]:
            load(port, path, 2, 20)  # warm: each install's kind of file is read once
            p50, p95, worst, rate = load(port, path, args.clients, args.requests)
            print(f"{path:24} {args.clients} clients  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  max {worst:7.2f} ms  {rate:7.0f} req/s")
        peak, now = memory(server.pid)
        print(f"server memory: peak {peak}, now {now}")
    finally:
        if server:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
