#!/usr/bin/env python3
"""Reads wrk outputs named ROW.ROUND.txt from a folder and prints one Markdown table:
median req/s, p50 and p99 over the rounds, errors, and each row's ratio to the reference row."""
import pathlib
import re
import statistics
import sys

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


def main(folder, reference, *rows):
    folder = pathlib.Path(folder)
    results = {}
    for row in rows:
        runs = [parse(p) for p in sorted(folder.glob(f"{row}.*.txt"))]
        results[row] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
                        statistics.median(r[2] for r in runs), sum(r[3] for r in runs), len(runs))
    base = results[reference][0]
    print("| row | req/s (median) | p50 ms | p99 ms | errors | ratio to " + reference + " |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        rps, p50, p99, errors, _ = results[row]
        print(f"| {row} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {errors} | {rps / base:.2f}x |")


if __name__ == "__main__":
    main(*sys.argv[1:])
