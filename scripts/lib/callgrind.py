"""Reading callgrind's output for scripts/instructions: the instructions each function spent
itself and how often it was called, per thread file of one dump, and the names demangled."""
import collections
import re
import subprocess

# The thread that writes the report log: its dump holds the writer's own functions.
WRITER_MARK = "12ReportWriterC"
# The segment's flush, once per batch of events the writer takes (a batch smaller than a chunk).
BATCH_MARK = "11SegmentSinkC5flush"


def read(path):
    """From one callgrind file: the instructions spent in each function itself, and how often each
    was called (both by mangled name)."""
    names, costs, calls = {}, collections.Counter(), collections.Counter()
    current, callee, in_call = None, None, False
    cost_at = 1  # the cost column: after one position (a line), or two with --dump-instr=yes
    with open(path) as lines:
        for line in lines:
            if line.startswith("positions:"):
                cost_at = len(line.split()) - 1
                continue
            named = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if named:
                kind, number, name = named.groups()
                if name:
                    names[number] = name
                if kind == "fn":
                    current = number
                else:
                    callee = number
                continue
            if line.startswith("calls="):
                calls[names.get(callee, callee)] += int(line[6:].split()[0])
                in_call = True  # the next cost line is the callee's, not this function's
                continue
            if line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                if len(parts) > cost_at and not in_call:
                    costs[names.get(current, current)] += int(parts[cost_at])
                in_call = False
    return costs, calls


def dump_costs(paths):
    """The whole process's self costs over the thread files of one dump, the writer thread's own
    (the file where the report writer's functions ran), and how many batches the writer wrote."""
    total, writer, batches = collections.Counter(), collections.Counter(), 0
    for path in paths:
        costs, calls = read(path)
        total.update(costs)
        if any(WRITER_MARK in name for name in costs):
            writer.update(costs)
            batches += sum(count for name, count in calls.items() if BATCH_MARK in name)
    return total, writer, batches


def demangle(names):
    """Swift's simplified names for `names`, in order (C names come back as they are)."""
    if not names:
        return []
    out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names),
                         capture_output=True, text=True).stdout.splitlines()
    return out if len(out) == len(names) else list(names)
