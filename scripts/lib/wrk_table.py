#!/usr/bin/env python3
"""Reads one wrk --latency output: req/s, p50 and p99 in ms, and errors (non-2xx/3xx and socket)."""
import re

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def millis(text):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(number) * UNITS[unit]


def parse(path):
    text = path.read_text()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50 = millis(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
    p99 = millis(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, socket.groups())) if socket else 0)
    return rps, p50, p99, errors
