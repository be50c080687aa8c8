#!/usr/bin/env python3
"""Float32 NumPy peer of the engine for the bench: times peer_model's fit and predict (the linear
reference of kde-spec §7(a)) on a clusterless-npz/1 file, or checks them against the float64
expected outputs a fixture carries.

    python3 kde_peer.py FILE [--repeats 3] [--warmup 1] [--save-ll OUT.npy]   timing JSON on stdout
    python3 kde_peer.py --check FILE...   one JSON line per file; exit 1 when any is off

Needs python3 and NumPy only.
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
from peer_data import PeerDataError, load_dataset  # noqa: E402
from peer_env import blas_info  # noqa: E402
from peer_model import DEFAULT_BLOCK_ELEMS, fit, predict  # noqa: E402

CHECK_RTOL = 1e-4
CHECK_ATOL = 1e-4


def peak_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, (time.perf_counter() - t0) * 1000.0


def bench(path: str, repeats: int, warmup: int, limit_s: float, block_elems: int, block_size: int | None,
          save_ll: str | None) -> dict:
    ds, load_ms = timed(load_dataset, path)
    model, first_fit = timed(fit, ds, block_elems)
    ll, first_predict = timed(predict, model, ds, block_elems, block_size)
    fits, predicts = [], []
    started = time.perf_counter()
    for i in range(warmup + repeats):
        if time.perf_counter() - started > limit_s:
            break  # a slow file runs fewer repeats rather than hours: the sample count says how many ran
        model, fit_ms = timed(fit, ds, block_elems)
        ll, predict_ms = timed(predict, model, ds, block_elems, block_size)
        if i >= warmup:
            fits.append(fit_ms)
            predicts.append(predict_ms)
    if save_ll:
        np.save(save_ll, ll)
    totals = [f + p for f, p in zip(fits, predicts)]
    result = {
        "peer": "numpy-linear-float32", "file": path, "loadMs": load_ms, "sizes": sizes_of(ds),
        "blockElems": block_elems, "blockSize": block_size,
        "firstFitMs": first_fit, "firstPredictMs": first_predict,
        "fitMs": fits, "predictMs": predicts, "totalMs": totals,
        "fitMedianMs": median(fits), "predictMedianMs": median(predicts), "totalMedianMs": median(totals),
        "peakRssBytes": peak_rss_bytes(), **blas_info(),
    }
    if ds["expected"] is not None:
        result["parity"] = compare(model, ll, ds["expected"])
    return result


def sizes_of(ds: dict) -> dict:
    """Problem sizes; decoding spikes are those inside the decoding rows' time span."""
    els, grid = ds["electrodes"], ds["time"]
    in_window = (lambda t: np.count_nonzero((t >= grid[0]) & (t <= grid[-1]))) if grid.size else (lambda t: 0)
    return {"electrodes": len(els), "bins": int(ds["centers"].shape[0]), "rows": int(grid.size),
            "positionSamples": int(ds["position_time"].size),
            "encodingSpikes": int(sum(e["enc_times"].size for e in els)),
            "decodingSpikes": int(sum(in_window(e["dec_times"]) for e in els)),
            "features": sorted({int(e["enc_marks"].shape[1]) for e in els})}


def median(xs: list[float]) -> float | None:
    return float(np.median(xs)) if xs else None


def compare(model: dict, ll: np.ndarray, expected: dict) -> dict:
    """Deviation from the float64 expected outputs; toleranceUsed is max |got − want| / (atol + rtol·|want|),
    so the check passes while it stays at or below 1."""
    got = {"occupancy": model["occupancy"], "mean_rates": model["mean_rates"],
           "summed_ground_process_intensity": model["summed_gpi"], "log_likelihood_nonlocal": ll}
    report, ok = {}, True
    for key, want in expected.items():
        g = np.asarray(got[key], dtype=np.float64).reshape(want.shape)
        diff = np.abs(g - want)
        used = diff / (CHECK_ATOL + CHECK_RTOL * np.abs(want))
        same_nan = np.isnan(g) & np.isnan(want)
        passed = bool(np.all(same_nan | (used <= 1)))
        ok = ok and passed
        report[key] = {"maxAbsDiff": float(np.nanmax(diff)) if diff.size else 0.0,
                       "toleranceUsed": float(np.nanmax(used)) if used.size else 0.0, "ok": passed}
    return {"rtol": CHECK_RTOL, "atol": CHECK_ATOL, "ok": ok, "arrays": report}


def check(paths: list[str], block_elems: int, block_size: int | None) -> int:
    failed = 0
    for path in paths:
        try:
            ds = load_dataset(path)
        except PeerDataError as e:
            print(json.dumps({"file": path, "ok": False, "error": str(e)}))
            failed += 1
            continue
        if ds["expected"] is None:
            print(json.dumps({"file": path, "ok": False, "error": "no expected outputs (log_likelihood_nonlocal) in this file"}))
            failed += 1
            continue
        model = fit(ds, block_elems)
        res = {"file": path, **compare(model, predict(model, ds, block_elems, block_size), ds["expected"])}
        failed += 0 if res["ok"] else 1
        print(json.dumps(res))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="float32 NumPy peer of the linear KDE reference")
    ap.add_argument("files", nargs="+", help="clusterless-npz/1 file(s); one unless --check")
    ap.add_argument("--check", action="store_true", help="compare with the float64 expected outputs in each file")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--cell-limit-s", type=float, default=600.0, help="no new repeat starts after this long")
    ap.add_argument("--block-elems", type=int, default=DEFAULT_BLOCK_ELEMS, help="elements per kernel block")
    ap.add_argument("--block-size", type=int, default=None, help="decoding spikes per block (default: from --block-elems)")
    ap.add_argument("--save-ll", default=None, help="write the last non-local log likelihood (float32 .npy)")
    args = ap.parse_args(argv)
    try:
        if args.check:
            return check(args.files, args.block_elems, args.block_size)
        if len(args.files) != 1:
            ap.error("give one file to time (several only with --check)")
        print(json.dumps(bench(args.files[0], args.repeats, args.warmup, args.cell_limit_s, args.block_elems, args.block_size, args.save_ll)))
        return 0
    except PeerDataError as e:
        print(f"kde_peer: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
