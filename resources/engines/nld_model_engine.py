#!/usr/bin/env python3
"""non_local_detector (NLD)'s whole decode as an external engine of KDE Profiler (`kde-profiler run
--model decoder --engine nld:decoder`, or `detector`): ClusterlessDecoder or
NonLocalClusterlessDetector with NLD's defaults and the clusterless KDE likelihood, fitted on the
run's encoding data and predicting the state-space posterior over the run's time rows. Each call
is a fit and a predict (likelihood, causal filter, acausal smoother), the cold one (JAX compiling)
timed apart from the warm ones, XLA's compilations counted after each. The acausal posterior is
the result, compared by the profiler with the run's own posterior of the same model. When the run
asks for it (KDE_PROFILER_FRAMEWORK_TRACE), one more warm call runs under JAX's profiler.

The model keeps the file's place grid and interior mask (its fit would otherwise fit a grid from
the positions), so its columns are the profiler's: a 1-D grid, or a whole regular 2-D grid in NLD's
C order (an open field without a track graph). Where KDE_PROFILER_LOCAL_POSITION_STD is set (a number
>= 0; the run sets it from its --local-position-std, and empty without one), the detector gets it as NLD's local_position_std: its Local state then spans the grid, and its
posterior has one more grid's columns. NLD's code is not part of KDE Profiler:
KDE_PROFILER_NLD_SRC names the folder that holds its `non_local_detector` package, or NLD is
installed in this Python. Exit 3 when NLD or JAX cannot be imported, saying what is missing."""

from __future__ import annotations

import argparse
import os
import sys

sys.dont_write_bytecode = True  # the sibling modules must not leave __pycache__ in an installation
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

from kde_profiler_engine import Engine  # noqa: E402
from nld_support import NLD_SRC_ENV, CompileCounter, GridRefused, NldUnavailable, import_nld_model, profiled_call, regular_grid_axes, send_device_peak, timed_calls, whole_grid_environment_for  # noqa: E402
from peer_data import load_for_engine  # noqa: E402

RESULT = "acausal_posterior"
MODEL_ENV = "KDE_PROFILER_MODEL"
LOCAL_STD_ENV = "KDE_PROFILER_LOCAL_POSITION_STD"


def local_position_std_from(environ) -> float | None:
    """The detector's local_position_std from the environment: None where unset, else a finite number >= 0
    (ValueError saying what is wrong otherwise)."""
    text = environ.get(LOCAL_STD_ENV, "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"{LOCAL_STD_ENV}={text!r} is not a number >= 0; give the Local state's kernel width in "
                         "position units (0 for its bin alone), or unset it for NLD's one-bin Local state.")
    return value


def start(model: str, x64: bool):
    """(engine, jax, Environment, the model's class) once the hello is out; exit 3 when NLD cannot be imported."""
    name = f"nld:{model}{':x64' if x64 else ''}"
    dtype = "float64" if x64 else "float32"
    try:
        jax, Environment, model_class = import_nld_model(os.environ.get(NLD_SRC_ENV), model, x64)
    except NldUnavailable as e:
        Engine.from_environment(name=name, version="?", device="?", dtype=dtype).unavailable(str(e))
    nld = sys.modules.get("non_local_detector")
    device = jax.devices()[0]
    info = {"jax": jax.__version__, "backend": jax.default_backend(), "x64": x64, "model": model_class.__name__,
            "nldPath": os.path.dirname(getattr(nld, "__file__", "") or "") or "?"}
    engine = Engine.from_environment(name=name, version=str(getattr(nld, "__version__", "?")),
                                     device=str(getattr(device, "device_kind", device)), dtype=dtype, info=info)
    return engine, jax, Environment, model_class


class ModelCalls:
    """The model's fit and predict on one loaded file, as a lab calls them."""

    def __init__(self, Environment, model_class, ds: dict, local_position_std: float | None = None) -> None:
        self.Environment, self.model_class, self.ds = Environment, model_class, ds
        # only set when asked: NLD's default (None) is its one-bin Local state
        self.model_options = {} if local_position_std is None else {"local_position_std": local_position_std}
        els = ds["electrodes"]
        self.enc_times = [e["enc_times"] for e in els]
        self.enc_marks = [e["enc_marks"] for e in els]
        self.dec_times = [e["dec_times"] for e in els]
        self.dec_marks = [e["dec_marks"] for e in els]
        # the Local state needs the animal's position at the decoded rows
        decoding = ds["decoding_position"]
        self.dec_position_time, self.dec_position = decoding if decoding else (ds["position_time"], ds["position"])

    def fit(self):
        ds = self.ds
        params = {"position_std": float(np.asarray(ds["position_std"]).reshape(-1)[0]),
                  "waveform_std": np.asarray(ds["waveform_std"], np.float64), "block_size": int(ds["block_size"])}
        # the Local state's kernel measures distance on NLD's grid graph, which nothing else here reads
        environment = whole_grid_environment_for(self.Environment, ds, with_graph=bool(self.model_options))
        model = self.model_class(environments=[environment],
                                 clusterless_algorithm="clusterless_kde", clusterless_algorithm_params=params,
                                 **self.model_options)
        return model.fit(ds["position_time"], np.asarray(ds["position"], np.float64).reshape(ds["position_time"].size, -1),
                         self.enc_times, self.enc_marks)

    def predict(self, model) -> np.ndarray:
        results = model.predict(self.dec_times, self.dec_marks, time=self.ds["time"],
                                position_time=self.dec_position_time, position=self.dec_position)
        posterior = np.asarray(results["acausal_posterior"])
        return posterior.reshape(posterior.shape[0], -1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="non_local_detector's whole clusterless decode (its posterior) as a KDE Profiler engine")
    ap.add_argument("--model", choices=("decoder", "detector"), required=True,
                    help="decoder: ClusterlessDecoder; detector: NonLocalClusterlessDetector")
    ap.add_argument("--x64", action="store_true", help="JAX in float64 (jax_enable_x64); float32 otherwise, NLD's default")
    args = ap.parse_args(argv)
    engine, jax, Environment, model_class = start(args.model, args.x64)
    asked = os.environ.get(MODEL_ENV)
    if asked and asked != args.model:
        engine.log("error", f"the run decodes the {asked}'s posterior and this engine the {args.model}'s; name nld:{asked} instead.")
        return 1
    ds = load_for_engine(engine)
    if ds is None:
        return 1
    try:
        regular_grid_axes(np.asarray(ds["grid_centers"], np.float64))
        local_std = local_position_std_from(os.environ)
    except (GridRefused, ValueError) as e:
        engine.log("error", str(e))
        return 1
    if local_std is not None and args.model != "detector":
        engine.log("warn", f"{LOCAL_STD_ENV} is the detector's Local state's kernel; the decoder has no Local state and ignores it.")
        local_std = None
    compiles = CompileCounter(jax)
    calls = ModelCalls(Environment, model_class, ds, local_std)
    posterior = timed_calls(engine, calls, compiles)
    if engine.framework_trace:
        profiled_call(engine, jax, lambda: calls.predict(calls.fit()))
    send_device_peak(engine, jax)
    # float32 whatever JAX computed in: probabilities, compared by the profiler row window by row window
    engine.result(RESULT, posterior.astype(np.float32))
    engine.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
