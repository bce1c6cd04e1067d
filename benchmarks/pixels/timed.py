#!/usr/bin/env python3
"""Runs a command N times in the terminal it is started in (standard input and output
inherited) and writes each run's wall time in milliseconds to OUT as JSON.

Usage: timed.py OUT N COMMAND [ARGUMENT...]"""
import json, os, subprocess, sys, time

out, count, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times = []
for _ in range(count):
    start = time.perf_counter()
    subprocess.run(command)
    times.append((time.perf_counter() - start) * 1000)
with open(out + ".part", "w") as f:
    json.dump(times, f)
os.rename(out + ".part", out)
