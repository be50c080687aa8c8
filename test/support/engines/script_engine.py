#!/usr/bin/env python3
"""A tiny external engine for the profiler's tests, writing protocol 1 by hand (no helper module),
so the tests check the profiler against the protocol itself. The first argument picks how it
behaves: ok, crash, hang, garbage, wrong-shape, unavailable, no-hello, children, posterior,
posterior-wrong-shape.

It "decodes" by copying the data file's expected log_likelihood_nonlocal when there is one (so the
agreement with the expected values is exact), else writes a constant of the grid's shape. In the
posterior modes it sends a decoder's acausal posterior instead: uniform over the track's bins, NaN
off it, on the data's whole grid."""

import gzip
import json
import os
import subprocess
import sys
import time

import numpy as np

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
events = os.fdopen(int(os.environ["KDE_PROFILER_EVENTS_FD"]), "w", buffering=1)


def send(**message):
    events.write(json.dumps(message) + "\n")


def span(name, start, **args):
    send(type="span", name=name, start_ns=start, end_ns=time.monotonic_ns(), args=args)


data = np.load(os.environ["KDE_PROFILER_DATA"])
out = os.environ["KDE_PROFILER_OUT"]
if mode != "no-hello":
    send(type="hello", protocol=1, engine="script", version="1", t_ns=time.monotonic_ns(), device="cpu", dtype="float64",
         info={"mode": mode})
if mode == "unavailable":
    send(type="log", level="error", message="the script's decoder package is not installed")
    sys.exit(3)
if mode == "garbage":
    events.write("this is not json\n")
    time.sleep(30)
if mode == "hang":
    time.sleep(600)
if mode == "children":
    # a grandchild that would outlive the engine if its process group were not stopped with it
    grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(os.path.join(out, "grandchild.pid"), "w") as f:
        f.write(str(grandchild.pid))
    time.sleep(600)

n_time, n_bins = data["time"].size, data["interior_place_bin_centers"].shape[0]
repeats, warmup = int(os.environ["KDE_PROFILER_REPEATS"]), int(os.environ["KDE_PROFILER_WARMUP"])
for i, phase in enumerate(["cold"] + ["warmup"] * warmup + ["warm"] * repeats):
    t0 = time.monotonic_ns()
    time.sleep(0.01)
    span("fit", t0, phase=phase, repeat=i)
    t1 = time.monotonic_ns()
    ll = data["log_likelihood_nonlocal"] if "log_likelihood_nonlocal" in data.files else np.full((n_time, n_bins), -1.0)
    time.sleep(0.02)
    span("predict", t1, phase=phase, repeat=i)
    send(type="counter", name="calls", t_ns=time.monotonic_ns(), value=i + 1)
    send(type="call", phase=phase, fit_ms=(t1 - t0) / 1e6, predict_ms=(time.monotonic_ns() - t1) / 1e6)
if mode.startswith("posterior"):
    whole = "place_bin_centers" in data.files
    interior = data["is_track_interior"].astype(bool) if whole else np.ones(n_bins, dtype=bool)
    posterior = np.tile(np.where(interior, 1.0 / interior.sum(), np.nan), (n_time, 1)).astype(np.float32)
    if mode == "posterior-wrong-shape":
        posterior = posterior[:, :-1]
    np.save(os.path.join(out, "posterior.npy"), posterior)
    send(type="result", name="acausal_posterior", file="posterior.npy")
else:
    if mode == "wrong-shape":
        ll = ll[:, :-1]
    np.save(os.path.join(out, "ll.npy"), np.ascontiguousarray(ll))
    send(type="result", name="log_likelihood_nonlocal", file="ll.npy")
if os.environ.get("KDE_PROFILER_FRAMEWORK_TRACE") == "1":
    # a framework's trace as JAX's profiler writes one: thread names, complete events in µs from its start
    events_out = [{"ph": "M", "name": "thread_name", "pid": 7, "tid": 70, "args": {"name": "XLA ops"}},
                  {"ph": "X", "name": "dot", "pid": 7, "tid": 70, "ts": 5000.0, "dur": 40.0, "args": {"hlo": "dot.1"}},
                  {"ph": "X", "name": "reduce", "pid": 7, "tid": 70, "ts": 5050.0, "dur": 10.0},
                  {"ph": "X", "name": "python", "pid": 7, "tid": 71, "ts": 5001.0, "dur": 80.0}]
    with gzip.open(os.path.join(out, "fw.json.gz"), "wt") as f:
        json.dump({"traceEvents": events_out}, f)
    send(type="trace", file="fw.json.gz", start_ns=time.monotonic_ns())
if mode == "crash":
    print("Traceback (most recent call last):\nValueError: the decoder blew up", file=sys.stderr)
    sys.exit(1)
send(type="done")
