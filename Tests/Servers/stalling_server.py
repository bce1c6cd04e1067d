#!/usr/bin/env python3
"""A server for the tests of kept connections: on each connection it answers the first
request (200, 2 bytes, kept alive) and takes every later one without answering, until the
client goes. It prints its port, counts every request it takes in DIR/requests.txt, and ends
when its standard input closes.

    stalling_server.py DIR
"""
import os, socket, sys, threading

directory = sys.argv[1]
lock = threading.Lock()
count = 0


def note():
    global count
    with lock:
        count += 1
        with open(os.path.join(directory, "requests.txt"), "w") as f:
            f.write(str(count))


def serve(connection):
    data = b""
    answered = False
    with connection:
        while True:
            try:
                chunk = connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            data += chunk
            while b"\r\n\r\n" in data:
                head, data = data.split(b"\r\n\r\n", 1)
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                while len(data) < length:
                    more = connection.recv(65536)
                    if not more:
                        return
                    data += more
                data = data[length:]
                note()
                if not answered:
                    answered = True
                    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
print(listener.getsockname()[1], flush=True)


def accept():
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()
sys.stdin.read()
