#!/usr/bin/env python3
"""non_local_detector (NLD) as an external engine of KDE Profiler (`kde-profiler run --engine
nld:clusterless_kde`): NLD's own clusterless KDE encoding fit and non-local likelihood predict,
through its public functions, on whatever device JAX runs on. The cold call (JAX compiling) and
the warm ones are timed apart, and XLA's compilations are counted after each fit and predict.
With `--x64` JAX computes in float64. When the run asks for it (KDE_PROFILER_FRAMEWORK_TRACE),
one more warm call runs under JAX's profiler and its trace joins the run's timeline.

NLD's code is not part of KDE Profiler: KDE_PROFILER_NLD_SRC names the folder that holds its
`non_local_detector` package, or NLD is installed in this Python. Exit 3 when NLD or JAX cannot
be imported, saying what is missing."""

from __future__ import annotations

import argparse
import os
import sys

sys.dont_write_bytecode = True  # the sibling modules must not leave __pycache__ in an installation
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

from kde_profiler_engine import Engine  # noqa: E402
from nld_support import NLD_SRC_ENV, CompileCounter, NldCalls, NldUnavailable, import_nld, profiled_call, send_device_peak, timed_calls  # noqa: E402
from peer_data import load_for_engine  # noqa: E402

def start(variant: str, x64: bool):
    """(engine, jax, nld) once the hello is out; an NLD or JAX that cannot be imported ends with exit 3."""
    try:
        jax, Environment, fit_fn, predict_fn = import_nld(os.environ.get(NLD_SRC_ENV), variant, x64)
    except NldUnavailable as e:
        engine = Engine.from_environment(name=f"nld:{variant}", version="?", device="?", dtype="float64" if x64 else "float32")
        engine.unavailable(str(e))
    device = jax.devices()[0]
    nld = sys.modules.get("non_local_detector")
    info = {"jax": jax.__version__, "backend": jax.default_backend(), "x64": x64,
            "nldPath": os.path.dirname(getattr(nld, "__file__", "") or "") or "?"}
    engine = Engine.from_environment(name=f"nld:{variant}", version=str(getattr(nld, "__version__", "?")),
                                     device=str(getattr(device, "device_kind", device)), dtype="float64" if x64 else "float32", info=info)
    return engine, jax, (Environment, fit_fn, predict_fn)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="non_local_detector's clusterless KDE likelihood as a KDE Profiler engine")
    ap.add_argument("--variant", choices=("clusterless_kde", "clusterless_kde_log"), default="clusterless_kde")
    ap.add_argument("--x64", action="store_true", help="JAX in float64 (jax_enable_x64); float32 otherwise, NLD's default")
    args = ap.parse_args(argv)
    engine, jax, nld = start(args.variant, args.x64)
    ds = load_for_engine(engine)
    if ds is None:
        return 1
    calls = NldCalls(jax, *nld, ds)
    compiles = CompileCounter(jax)
    ll = timed_calls(engine, calls, compiles)
    if engine.framework_trace:
        profiled_call(engine, jax, lambda: calls.predict(calls.fit()))
    send_device_peak(engine, jax)
    engine.result("log_likelihood_nonlocal", np.asarray(ll))
    engine.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
