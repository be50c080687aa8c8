#!/usr/bin/env python3
"""Writes the fixtures of the 2-D decode that non_local_detector (NLD) itself computes, into test/fixtures/:

- nld_grid2d.npz: NLD's Environment fitted on three synthetic open-field trajectories (`rect`, a rectangle;
  `hole`, an arena with an unvisited block in the middle; `lshape`, an L-shaped arena), with NLD's defaults
  (fit_place_grid(position, infer_track_interior=True)). Keys `<case>_position`, `<case>_place_bin_size`,
  `<case>_edges_x`, `<case>_edges_y` (its edges_, padding bins included), `<case>_centers`
  (place_bin_centers_), `<case>_interior` (is_track_interior_.ravel() as uint8), `<case>_shape` (centers_shape_).
- nld_2d_decoder.npz, nld_2d_detector.npz: clusterless-npz/1 files of a small 40 x 40 cm open field (5 cm bins),
  fitted on the first part of the session and decoding a later part (decoding_spike_times_<e>,
  decoding_position_time, decoding_position: the layout every reader of the profiler carries), with the whole
  grid of NLD's Environment (place_bin_centers, is_track_interior) and NLD's own results, computed with JAX in
  float64 by the profiler's NLD engine (resources/engines/nld_model_engine.py, ModelCalls) on the file as that
  engine reads it: `nld_acausal_posterior`, `nld_causal_posterior` (time rows x state bins, NaN off the track),
  `nld_acausal_state_probabilities`, `nld_marginal_log_likelihood`, `nld_state_ind`.
- nld_local_position_std.npz: NLD's detector with local_position_std 0 and 5 on the 1-D protocol file
  (nld_detector_protocol.npz, NLD's own Environment, fitted on its is_training samples; case `d1`) and on
  nld_2d_detector.npz (through the engine's ModelCalls; case `d2`): `<case>_<std>_acausal_posterior`,
  `_causal_posterior`, `_acausal_state_probabilities`, `_state_ind`, `_marginal_log_likelihood`, and
  `<case>_rows`, the decoded rows of the case's file.

It also prints how far NLD's own fit of each 2-D file's positions lands from the file's whole grid handed to
NLD by the engine (the same grid, so the posteriors should agree to rounding).

NLD is not part of the project: KDE_PROFILER_NLD_SRC names the folder that holds its `non_local_detector`
package (or NLD is installed in this Python, with JAX, SciPy, xarray, pandas, scikit-learn and networkx).

    KDE_PROFILER_NLD_SRC=... $KDE_PROFILER_NLD_PYTHON scripts/make-nld-2d-fixtures.py [--out test/fixtures]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "resources", "engines"))
sys.dont_write_bytecode = True

from nld_model_engine import ModelCalls  # noqa: E402
from nld_support import NLD_SRC_ENV, import_nld_model  # noqa: E402
from peer_data import load_dataset  # noqa: E402

SEED = 20240611
POSITION_STD, WAVEFORM_STD = 5.0, 24.0
ARENA_BIN = 5.0
RATE_HZ = 50.0


def walk(rng, inside, start, n: int, speed: float = 12.0) -> np.ndarray:
    """A smooth random walk of n samples at RATE_HZ that turns away whenever a step would leave `inside`."""
    pos = np.empty((n, 2))
    pos[0] = start
    heading = rng.uniform(0, 2 * np.pi)
    step = speed / RATE_HZ
    for i in range(1, n):
        for _ in range(100):
            heading += rng.normal(0, 0.35)
            nxt = pos[i - 1] + step * np.array([np.cos(heading), np.sin(heading)])
            if inside(nxt):
                break
            heading += np.pi * rng.uniform(0.5, 1.5)
        else:
            nxt = pos[i - 1]
        pos[i] = nxt
    return pos


SHAPES = {
    # name: (inside(point), start, place_bin_size)
    "rect": (lambda p: 0 <= p[0] <= 60 and 0 <= p[1] <= 36, (30.0, 18.0), 4.0),
    "hole": (lambda p: 0 <= p[0] <= 50 and 0 <= p[1] <= 50 and not (18 < p[0] < 32 and 18 < p[1] < 32), (5.0, 5.0), 5.0),
    "lshape": (lambda p: 0 <= p[0] <= 60 and 0 <= p[1] <= 60 and not (p[0] > 30 and p[1] > 30), (10.0, 10.0), 4.0),
}


def grid_cases(rng, Environment) -> dict:
    out = {}
    for case, (inside, start, size) in SHAPES.items():
        position = walk(rng, inside, start, 4000, speed=25.0)
        env = Environment(place_bin_size=size).fit_place_grid(position, infer_track_interior=True)
        out[f"{case}_position"] = position
        out[f"{case}_place_bin_size"] = np.float64(size)
        out[f"{case}_edges_x"], out[f"{case}_edges_y"] = (np.asarray(e, np.float64) for e in env.edges_)
        out[f"{case}_centers"] = np.asarray(env.place_bin_centers_, np.float64)
        out[f"{case}_interior"] = np.asarray(env.is_track_interior_, bool).ravel().astype(np.uint8)
        out[f"{case}_shape"] = np.asarray(env.centers_shape_, np.int64)
        print(f"grid {case}: shape {env.centers_shape_}, {int(env.is_track_interior_.sum())} interior")
    return out


def place_tuned_spikes(rng, t: np.ndarray, pos: np.ndarray, units) -> tuple[np.ndarray, np.ndarray]:
    """Poisson spikes of an electrode's units (field centre, field width, peak rate, mark mean) along the path."""
    times, marks = [], []
    dt = 1.0 / RATE_HZ
    for centre, width, peak, mark in units:
        rate = peak * np.exp(-np.sum((pos - centre) ** 2, axis=1) / (2 * width**2))
        counts = rng.poisson(rate * dt)
        for i in np.nonzero(counts)[0]:
            for _ in range(counts[i]):
                times.append(t[i] + rng.uniform(0, dt))
                marks.append(mark + rng.normal(0, 12.0, size=4))
    order = np.argsort(times)
    return np.asarray(times)[order], np.asarray(marks).reshape(-1, 4)[order]


def open_field_file(rng, Environment, path: str, n_rows: int) -> None:
    """The recording: 3000 samples fitted on, then 400 more whose first n_rows samples are decoded."""
    n_enc, n_dec = 3000, 400
    t = np.arange(n_enc + n_dec) / RATE_HZ
    pos = walk(rng, lambda p: 0 <= p[0] <= 40 and 0 <= p[1] <= 40, (20.0, 20.0), t.size, speed=15.0)
    env = Environment(place_bin_size=ARENA_BIN).fit_place_grid(pos[:n_enc], infer_track_interior=True)
    arrays = dict(format="clusterless-npz/1", position_time=t[:n_enc], position=pos[:n_enc], position_units="cm",
                  decoding_position_time=t[n_enc:], decoding_position=pos[n_enc:], time=t[n_enc:n_enc + n_rows],
                  params=json.dumps({"position_std": POSITION_STD, "waveform_std": WAVEFORM_STD, "place_bin_size": ARENA_BIN}),
                  place_bin_centers=np.asarray(env.place_bin_centers_, np.float64),
                  is_track_interior=np.asarray(env.is_track_interior_, bool).ravel())
    window = (t[n_enc], t[n_enc + n_rows - 1])
    for e in range(3):
        units = [(rng.uniform(0, 40, 2), rng.uniform(5, 9), rng.uniform(15, 30), rng.uniform(40, 250, 4)) for _ in range(5)]
        enc_t, enc_w = place_tuned_spikes(rng, t[:n_enc], pos[:n_enc], units)
        dec_t, dec_w = place_tuned_spikes(rng, t[n_enc:], pos[n_enc:], units)
        keep = (dec_t >= window[0]) & (dec_t <= window[1])
        arrays.update({f"spike_times_{e}": enc_t, f"spike_waveform_features_{e}": enc_w,
                       f"decoding_spike_times_{e}": dec_t[keep], f"decoding_spike_waveform_features_{e}": dec_w[keep]})
    np.savez_compressed(path, **arrays)


def results_of(model, calls: ModelCalls, prefix: str) -> dict:
    """NLD's predict as ModelCalls calls it, with the filter's outputs too; the acausal posterior checked to be
    exactly the one ModelCalls hands the profiler."""
    res = model.predict(calls.dec_times, calls.dec_marks, time=calls.ds["time"], position_time=calls.dec_position_time,
                        position=calls.dec_position, return_outputs="filter")
    n = res["acausal_posterior"].shape[0]
    out = {f"{prefix}acausal_posterior": np.asarray(res["acausal_posterior"]).reshape(n, -1),
           f"{prefix}causal_posterior": np.asarray(res["causal_posterior"]).reshape(n, -1),
           f"{prefix}marginal_log_likelihood": np.asarray(res.attrs["marginal_log_likelihoods"], np.float64),
           f"{prefix}state_ind": np.asarray(model.state_ind_, np.int64)}
    if "states" in res["acausal_state_probabilities"].dims:
        out[f"{prefix}acausal_state_probabilities"] = np.asarray(res["acausal_state_probabilities"])
    engine_view = calls.predict(model)
    assert np.array_equal(engine_view, out[f"{prefix}acausal_posterior"], equal_nan=True), "ModelCalls' posterior differs"
    return out


def own_grid_check(Environment, model_class, ds: dict, nld: dict, name: str) -> None:
    """NLD fitting its own grid on the file's positions (place_bin_size from the file) against the whole grid it was handed."""
    params = {"position_std": POSITION_STD, "waveform_std": np.float64(WAVEFORM_STD), "block_size": int(ds["block_size"])}
    model = model_class(environments=[Environment(place_bin_size=ARENA_BIN)], clusterless_algorithm="clusterless_kde",
                        clusterless_algorithm_params=params)
    calls = ModelCalls(Environment, model_class, ds)
    model.fit(ds["position_time"], np.asarray(ds["position"], np.float64), calls.enc_times, calls.enc_marks)
    own = calls.predict(model)
    diff = np.nanmax(np.abs(own - nld["nld_acausal_posterior"]))
    same_nan = np.array_equal(np.isnan(own), np.isnan(nld["nld_acausal_posterior"]))
    print(f"{name}: NLD's own grid vs the file's whole grid: max |diff| {diff:.3g}, same NaN columns {same_nan}")


def two_d_file(path: str, Environment, model_class, name: str) -> dict:
    ds = load_dataset(path)
    calls = ModelCalls(Environment, model_class, ds)
    nld = results_of(calls.fit(), calls, "nld_")
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    np.savez_compressed(path, **arrays, **nld)
    own_grid_check(Environment, model_class, ds, nld, name)
    print(f"{name}: posterior {nld['nld_acausal_posterior'].shape}, log marginal {float(nld['nld_marginal_log_likelihood'].reshape(-1)[-1]):.9f}")
    return nld


def local_std_1d(Environment, detector, path: str, std: float, prefix: str) -> dict:
    """NLD's detector with its own Environment on the 1-D protocol file, fitted on the file's is_training samples."""
    with np.load(path) as z:
        d = {k: z[k] for k in z.files}
    spikes = [d[f"spike_times_{e}"] for e in range(4)]
    marks = [d[f"spike_waveform_features_{e}"] for e in range(4)]
    params = {"position_std": 6.0, "waveform_std": np.float64(24.0), "block_size": 100}
    model = detector(environments=[Environment(place_bin_size=2.0)], clusterless_algorithm="clusterless_kde",
                     clusterless_algorithm_params=params, local_position_std=std)
    model.fit(d["position_time"], d["position"], spikes, marks, is_training=d["is_training"])
    res = model.predict(spikes, marks, time=d["time"], position_time=d["position_time"], position=d["position"],
                        return_outputs="filter")
    return {f"{prefix}acausal_posterior": np.asarray(res["acausal_posterior"]),
            f"{prefix}causal_posterior": np.asarray(res["causal_posterior"]),
            f"{prefix}acausal_state_probabilities": np.asarray(res["acausal_state_probabilities"]),
            f"{prefix}marginal_log_likelihood": np.asarray(res.attrs["marginal_log_likelihoods"], np.float64),
            f"{prefix}state_ind": np.asarray(model.state_ind_, np.int64)}


def local_std_cases(Environment, detector, fixtures: str) -> dict:
    out: dict = {}
    protocol = os.path.join(fixtures, "nld_detector_protocol.npz")
    two_d = os.path.join(fixtures, "nld_2d_detector.npz")
    with np.load(protocol) as z:
        out["d1_rows"] = np.arange(z["time"].size)
    ds = load_dataset(two_d)
    out["d2_rows"] = np.arange(ds["time"].size)
    for std in (0.0, 5.0):
        out.update(local_std_1d(Environment, detector, protocol, std, f"d1_{std:g}_"))
        calls = ModelCalls(Environment, detector, ds, std)
        d2 = results_of(calls.fit(), calls, f"d2_{std:g}_")
        out.update(d2)
        print(f"local_position_std {std:g}: d1 {out[f'd1_{std:g}_acausal_posterior'].shape}, d2 {d2[f'd2_{std:g}_acausal_posterior'].shape}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "test", "fixtures"), help="the fixtures folder")
    ap.add_argument("--nld-src", default=os.environ.get(NLD_SRC_ENV), help=f"NLD's src/ folder (default ${NLD_SRC_ENV})")
    a = ap.parse_args()
    _jax, Environment, decoder = import_nld_model(a.nld_src, "decoder", True)
    _jax, _env, detector = import_nld_model(a.nld_src, "detector", True)
    rng = np.random.default_rng(SEED)
    np.savez_compressed(os.path.join(a.out, "nld_grid2d.npz"), **grid_cases(rng, Environment))
    for model, cls, rows in (("decoder", decoder, 300), ("detector", detector, 200)):
        path = os.path.join(a.out, f"nld_2d_{model}.npz")
        open_field_file(rng, Environment, path, rows)
        two_d_file(path, Environment, cls, f"nld_2d_{model}")
    np.savez_compressed(os.path.join(a.out, "nld_local_position_std.npz"), **local_std_cases(Environment, detector, a.out))
    for name in ("nld_grid2d", "nld_2d_decoder", "nld_2d_detector", "nld_local_position_std"):
        print(f"wrote {name}.npz: {os.path.getsize(os.path.join(a.out, name + '.npz')) / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
