#!/usr/bin/env python3
"""The NumPy peer as an external engine of KDE Profiler (`kde-profiler run --engine numpy`): the
float32 linear reference of kde-spec §7(a), one GEMM per electrode and block, on every core BLAS
uses. Started by the profiler (docs/external-engines.md); needs NumPy only."""

from __future__ import annotations

import os
import sys

sys.dont_write_bytecode = True  # the sibling modules must not leave __pycache__ in an installation
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

from kde_profiler_engine import Engine  # noqa: E402
from peer_data import load_for_engine  # noqa: E402
from peer_env import blas_info  # noqa: E402
from peer_model import DEFAULT_BLOCK_ELEMS, fit, predict  # noqa: E402


def facts() -> dict:
    """BLAS and thread facts for the report, flattened to the protocol's plain values."""
    info = blas_info()
    blas = info.get("blas") or {}
    return {"python": info["python"], "cpus": info["cpuCount"], "blas": str(blas.get("name") or info.get("blasRuntime") or "?"),
            "blasCore": info.get("blasCore") or "?", "blasThreads": info.get("blasThreads") or 0}


def main() -> int:
    engine = Engine.from_environment(name="numpy", version=np.__version__, device="cpu", dtype="float32", info=facts())
    ds = load_for_engine(engine)
    if ds is None:
        return 1
    ll = None
    for phase in engine.phases():
        with engine.timed_call(phase) as call:
            with call.fit():
                model = fit(ds, DEFAULT_BLOCK_ELEMS)
            with call.predict():
                ll = predict(model, ds, DEFAULT_BLOCK_ELEMS, engine.block_size)
    engine.result("log_likelihood_nonlocal", ll)
    engine.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
