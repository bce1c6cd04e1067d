#!/usr/bin/env python3
"""`newsstand serve` against two hostile loads, as figures (ServeHostileClientTests checks the
behaviour; this measures it): one client sending a header line that never ends, as fast as the
server takes it (when is it cut off, how much CPU and memory did it cost), and 1,000 idle
connections held open (what watching them costs the server's CPU).

    python3 benchmarks/serve/hostile.py [--binary .build/release/newsstand] [--seconds 10]

An empty library of its own (a temporary NEWSSTAND_HOME); the server listens on 127.0.0.1.
"""
import argparse, os, resource, shutil, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def server_pid(port):
    out = subprocess.run(["pgrep", "-f", f"newsstand-serve 127.0.0.1:{port}"], capture_output=True, text=True).stdout.split()
    return int(out[0]) if out else None


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0


def flood(port, pid, seconds):
    """Seconds until the server cut the endless header off (None: not within `seconds`), the MB sent, peak RSS."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(0.5)
    s.sendall(b"GET /opds HTTP/1.1\r\nHost: x\r\nX-Endless: ")
    chunk, sent, began, peak = b"a" * 65536, 0, time.time(), rss_mb(pid)
    cut = None
    while time.time() - began < seconds:
        try:
            sent += s.send(chunk)
        except socket.timeout:
            pass
        except OSError:
            cut = time.time() - began
            break
        peak = max(peak, rss_mb(pid))
    s.close()
    return cut, sent / 1e6, peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/newsstand"))
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="serve-hostile-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off")
    server = subprocess.Popen([args.binary, "serve", "--listen", f"127.0.0.1:{port}"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    held = []
    try:
        deadline = time.time() + 30
        while server_pid(port) is None or not _answers(port):
            if time.time() > deadline:
                sys.exit("the server did not start")
            time.sleep(0.05)
        pid = server_pid(port)
        before = cpu_seconds(pid)
        cut, sent, peak = flood(port, pid, args.seconds)
        used = cpu_seconds(pid) - before
        said = f"cut off after {cut:.2f} s" if cut is not None else f"NOT cut off within {args.seconds:.0f} s"
        print(f"endless header: {said}, {sent:.1f} MB sent, server CPU {used:.2f} s, peak RSS {peak:.1f} MB")
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(1000)]
        time.sleep(1)
        before = cpu_seconds(pid)
        time.sleep(10)
        print(f"1,000 idle connections: server CPU {100 * (cpu_seconds(pid) - before) / 10:.1f} % of a core over 10 s, "
              f"RSS {rss_mb(pid):.1f} MB; a normal GET meanwhile: {'answered' if _answers(port) else 'NOT answered'}")
    finally:
        for s in held:
            s.close()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def _answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET /opds HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(12).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


if __name__ == "__main__":
    main()
