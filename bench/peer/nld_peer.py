#!/usr/bin/env python3
"""non_local_detector (NLD) as a bench peer: times NLD's own clusterless KDE encoding fit and
non-local likelihood predict on a clusterless-npz/1 file, on whatever device JAX runs on, and
prints one JSON line in the shape kde_peer.py prints (plus the JAX device and compile counts).

    python3 nld_peer.py FILE [--variant clusterless_kde|clusterless_kde_log] [--x64]
        [--repeats 3] [--warmup 1] [--nld-src PATH] [--save-ll OUT.npy] [--peer-ll PEER.npy]

NLD's code stays outside this project: give the folder that holds its `non_local_detector`
package with --nld-src or KDE_PROFILER_NLD_SRC, or install it where python3 finds it. Its
`track_linearization` dependency is needed only for track graphs; when it is missing a stand-in
module that refuses track graphs is installed, since these files are 1-D without a graph.
Exit 3 when NLD or JAX cannot be imported (the caller skips NLD and says why).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # the sibling modules below must not leave __pycache__ in the tree
# the modules the external engines share with the peers; in the offline bundle they sit beside this script
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "engines"))
from nld_support import (EXIT_UNAVAILABLE, NLD_SRC_ENV, CompileCounter, NldCalls, NldUnavailable,  # noqa: E402,F401
                         device_memory, import_nld, install_track_linearization_stand_in)
from peer_data import PeerDataError, load_dataset  # noqa: E402

def bench(args, jax, Environment, fit_fn, predict_fn) -> dict:
    t0 = time.perf_counter()
    ds = load_dataset(args.file)
    load_ms = (time.perf_counter() - t0) * 1000.0
    calls = NldCalls(jax, Environment, fit_fn, predict_fn, ds)
    fit_once, predict_once = calls.fit, calls.predict
    compiles = CompileCounter(jax)

    def timed(fn, *a):
        s = time.perf_counter()
        out = fn(*a)
        return out, (time.perf_counter() - s) * 1000.0

    # each phase says when it ends: where a step limit stops a slow cold call (JAX compiling op by
    # op on a GPU), its log still shows how far NLD got
    model, first_fit = timed(fit_once)
    progress(f"cold fit {first_fit:.0f} ms", compiles)
    ll, first_predict = timed(predict_once, model)
    progress(f"cold predict {first_predict:.0f} ms", compiles)
    cold_compiles = compiles.count
    fits, predicts = [], []
    started = time.perf_counter()
    for i in range(args.warmup + args.repeats):
        if time.perf_counter() - started > args.cell_limit_s:
            break  # a slow file runs fewer repeats rather than hours: the sample count says how many ran
        model, fit_ms = timed(fit_once)
        ll, predict_ms = timed(predict_once, model)
        if i >= args.warmup:
            fits.append(fit_ms)
            predicts.append(predict_ms)
    ll = np.asarray(ll, np.float64)
    if args.save_ll:
        np.save(args.save_ll, ll.astype(np.float32))
    totals = [f + p for f, p in zip(fits, predicts)]
    device = jax.devices()[0]
    result = {
        "peer": f"nld-{args.variant}-{'float64' if args.x64 else 'float32'}", "file": args.file, "loadMs": load_ms,
        "firstFitMs": first_fit, "firstPredictMs": first_predict,
        "fitMs": fits, "predictMs": predicts, "totalMs": totals,
        "fitMedianMs": median(fits), "predictMedianMs": median(predicts), "totalMedianMs": median(totals),
        "peakRssBytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        "jaxVersion": jax.__version__, "jaxBackend": jax.default_backend(), "jaxDevice": str(getattr(device, "device_kind", device)),
        "deviceMemory": device_memory(device),
        "compiles": {"cold": cold_compiles, "warm": compiles.count - cold_compiles} if compiles.available else None,
    }
    if ds["expected"] is not None and "log_likelihood_nonlocal" in ds["expected"]:
        result["vsExpected"] = deviation(ll, ds["expected"]["log_likelihood_nonlocal"])
    if args.peer_ll:
        result["vsPeer"] = deviation(ll, np.load(args.peer_ll).astype(np.float64))
    return result


def progress(what: str, compiles) -> None:
    so_far = f" ({compiles.count} XLA compilations so far)" if compiles.available else ""
    print(f"nld_peer: {what}{so_far}", file=sys.stderr, flush=True)


def deviation(got: np.ndarray, want: np.ndarray) -> dict:
    if got.size != want.size:
        return {"error": f"shapes differ: {list(got.shape)} vs {list(want.shape)}"}
    diff = np.abs(got.reshape(-1) - want.reshape(-1))
    finite = np.isfinite(diff)
    rel = diff / np.maximum(np.abs(want.reshape(-1)), 1.0)
    return {"maxAbsDiff": float(diff[finite].max()) if finite.any() else None,
            "maxRelDiff": float(rel[finite].max()) if finite.any() else None,
            "over1e-3": int(np.count_nonzero(rel[finite] > 1e-3)), "entries": int(diff.size),
            "nonFinite": int(np.count_nonzero(~finite))}


def median(xs: list[float]) -> float | None:
    return float(np.median(xs)) if xs else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="non_local_detector's clusterless KDE likelihood, timed as a bench peer")
    ap.add_argument("file", help="clusterless-npz/1 file")
    ap.add_argument("--variant", choices=("clusterless_kde", "clusterless_kde_log"), default="clusterless_kde")
    ap.add_argument("--x64", action="store_true", help="JAX in float64 (jax_enable_x64); float32 otherwise, NLD's default")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--cell-limit-s", type=float, default=600.0, help="no new repeat starts after this long")
    ap.add_argument("--nld-src", default=os.environ.get(NLD_SRC_ENV), help=f"NLD's src/ folder (default: ${NLD_SRC_ENV})")
    ap.add_argument("--save-ll", default=None, help="write the last non-local log likelihood (float32 .npy)")
    ap.add_argument("--peer-ll", default=None, help="another peer's likelihood (.npy) to compare with")
    args = ap.parse_args(argv)
    try:
        jax, Environment, fit_fn, predict_fn = import_nld(args.nld_src, args.variant, args.x64)
    except NldUnavailable as e:
        print(f"nld_peer: {e}", file=sys.stderr)
        return EXIT_UNAVAILABLE
    try:
        print(json.dumps(bench(args, jax, Environment, fit_fn, predict_fn)))
        return 0
    except PeerDataError as e:
        print(f"nld_peer: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
