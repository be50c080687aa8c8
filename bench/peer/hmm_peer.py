#!/usr/bin/env python3
"""The posterior bench's peers (bench/posteriorBench.ts): the causal filter and acausal smoother of
posterior-spec §9–§10 on the same float32 inputs, as a dense NumPy implementation and, when
non_local_detector is importable, as NLD's own jitted `core.filter` and `core.smoother` on JAX.

    python3 hmm_peer.py DIR [--repeats 3] [--nld-src PATH] [--no-nld]

DIR holds initial.npy (N,), transition.npy (N, N, rows from) and ll.npy (T, N), float32. Prints
one JSON line: per peer the first (cold) and warm times in ms and the acausal posterior's largest
difference from DIR/ours.npy when it exists. NLD is skipped, with the reason, when it cannot load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # the sibling module below must not leave __pycache__ in the tree
from nld_peer import install_track_linearization_stand_in  # noqa: E402

NORMALIZE_EPS = 1e-15
NLD_SRC_ENV = "KDE_PROFILER_NLD_SRC"


def numpy_filter_smoother(init: np.ndarray, a: np.ndarray, ll: np.ndarray) -> np.ndarray:
    """Dense, float32, NLD's algorithm: pred_0 = init; f_t = normalize(pred_t · exp(ll_t − max));
    a_t = normalize(f_t · (A @ (a_{t+1} / (f_t @ A))))."""
    t_rows, n = ll.shape
    causal = np.empty((t_rows, n), np.float32)
    pred = init.astype(np.float32)
    for t in range(t_rows):
        m = ll[t].max()
        m = m if np.isfinite(m) else 0.0
        u = pred * np.exp(ll[t] - m)
        causal[t] = u / (u.sum() + NORMALIZE_EPS)
        pred = causal[t] @ a
    acausal = np.empty_like(causal)
    acausal[-1] = causal[-1] / (causal[-1].sum() + NORMALIZE_EPS)
    for t in range(t_rows - 2, -1, -1):
        p = causal[t] @ a
        r = np.divide(acausal[t + 1], p, out=np.zeros_like(p), where=p != 0)
        v = causal[t] * (a @ r)
        acausal[t] = v / (v.sum() + NORMALIZE_EPS)
    return acausal


def load_nld_core(src: str | None):
    if src:
        sys.path.insert(0, src)
    try:
        import jax  # noqa: F401

        install_track_linearization_stand_in()
        from non_local_detector import core
    except Exception as e:  # JAX, NLD or one of NLD's imports missing: the bench says which
        return None, f"{type(e).__name__}: {e}"
    return core, None


def nld_filter_smoother(core, init, a, ll):
    import jax

    (_, _), (causal, predictive) = core.filter(init, a, ll)
    acausal = core.smoother(a, causal)
    return np.asarray(jax.block_until_ready(acausal))


def timed(fn, repeats: int) -> dict:
    t0 = time.perf_counter()
    out = fn()
    first = (time.perf_counter() - t0) * 1000.0
    warm = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        warm.append((time.perf_counter() - t0) * 1000.0)
    return {"firstMs": first, "warmMs": warm, "medianMs": float(np.median(warm)) if warm else first, "out": out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--nld-src", default=os.environ.get(NLD_SRC_ENV))
    ap.add_argument("--no-nld", action="store_true")
    a = ap.parse_args()
    init = np.load(os.path.join(a.dir, "initial.npy")).astype(np.float32)
    trans = np.load(os.path.join(a.dir, "transition.npy")).astype(np.float32)
    ll = np.load(os.path.join(a.dir, "ll.npy")).astype(np.float32)
    ours_file = os.path.join(a.dir, "ours.npy")
    ours = np.load(ours_file) if os.path.exists(ours_file) else None
    result: dict = {"rows": int(ll.shape[0]), "states": int(ll.shape[1])}

    def report(name: str, r: dict) -> None:
        out = r.pop("out")
        if ours is not None:
            r["maxAbsDiffFromOurs"] = float(np.abs(out.astype(np.float64) - ours).max())
        result[name] = r

    report("numpy", timed(lambda: numpy_filter_smoother(init, trans, ll), a.repeats))
    if a.no_nld:
        result["nld"] = {"skipped": "--no-nld"}
    else:
        core, why = load_nld_core(a.nld_src)
        if core is None:
            result["nld"] = {"skipped": why}
        else:
            import jax
            import jax.numpy as jnp

            args = (jnp.asarray(init), jnp.asarray(trans), jnp.asarray(ll))
            r = timed(lambda: nld_filter_smoother(core, *args), a.repeats)
            r["jax"] = {"version": jax.__version__, "backend": jax.default_backend()}
            report("nld", r)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
