"""Reading callgrind's output for scripts/instructions: the instructions each function spent
itself, per thread file of one dump, and the names demangled."""
import collections
import re
import subprocess

# The thread that writes the report log: its dump holds the writer's own functions.
WRITER_MARK = "12ReportWriterC"
# The segment's flush, once per batch of events the writer takes (a batch smaller than a chunk).
BATCH_MARK = "11SegmentSinkC5flush"


def self_costs(path):
    """Instructions spent in each function itself (by mangled name), from one callgrind file."""
    names, costs, current, in_call = {}, collections.Counter(), None, False
    with open(path) as lines:
        for line in lines:
            named = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if named:
                kind, number, name = named.groups()
                if name:
                    names[number] = name
                if kind == "fn":
                    current = number
                continue
            if line.startswith("calls="):
                in_call = True  # the next cost line is the callee's, not this function's
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                if len(parts) >= 2 and not in_call:
                    costs[names.get(current, current)] += int(parts[1])
                in_call = False
    return costs


def call_counts(path):
    """How often each function was called (by mangled name), from one callgrind file."""
    names, counts, callee = {}, collections.Counter(), None
    with open(path) as lines:
        for line in lines:
            named = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if named:
                kind, number, name = named.groups()
                if name:
                    names[number] = name
                if kind == "cfn":
                    callee = number
                continue
            if line.startswith("calls="):
                counts[names.get(callee, callee)] += int(line[6:].split()[0])
    return counts


def dump_costs(paths):
    """The whole process's self costs over the thread files of one dump, the writer thread's own
    (the file where the report writer's functions ran), and how many batches the writer wrote."""
    total, writer, batches = collections.Counter(), collections.Counter(), 0
    for path in paths:
        costs = self_costs(path)
        total.update(costs)
        if any(WRITER_MARK in name for name in costs):
            writer.update(costs)
            batches += sum(count for name, count in call_counts(path).items() if BATCH_MARK in name)
    return total, writer, batches


def demangle(names):
    """Swift's simplified names for `names`, in order (C names come back as they are)."""
    if not names:
        return []
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names),
                         capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(names) else list(names)
