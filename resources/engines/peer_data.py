"""The peer's reader of clusterless-npz/1 files (spec/data-format.md), resolving defaults as the
project's loader does: kernel widths from the arrays, else params JSON, else the spec's defaults;
the place grid from the file, else built from place_bin_size (kde-spec §2.2, 1-D); the decoding
rows from `time`, `time_bin_edges` or the position timestamps; decoding spikes from
decoding_spike_times_<e> when given, else the encoding spikes themselves. Position rows with NaN are
dropped before the fit, as the model layer does (kde-spec §4.7)."""

from __future__ import annotations

import json
import math

import numpy as np

DEFAULT_POSITION_STD = math.sqrt(12.5)
DEFAULT_WAVEFORM_STD = 24.0
DEFAULT_BLOCK_SIZE = 100
DEFAULT_PLACE_BIN_SIZE = 2.0
EXPECTED_KEYS = ("occupancy", "mean_rates", "summed_ground_process_intensity", "log_likelihood_nonlocal")
# Layouts and selections the loader understands but this peer does not reproduce.
UNSUPPORTED_KEYS = ("is_training", "encoding_intervals", "decoding_intervals", "spike_times_index", "multiunits")


class PeerDataError(Exception):
    """A file the peer cannot read; the message says which key and what to do."""


def load_dataset(path: str) -> dict:
    try:
        npz = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise PeerDataError(f"{path}: cannot be read as .npz ({e}); give a clusterless-npz/1 file.") from e
    with npz:
        return _read(npz, set(npz.files), path)


def _read(z, keys: set[str], path: str) -> dict:
    unsupported = [k for k in UNSUPPORTED_KEYS if k in keys]
    if unsupported:
        raise PeerDataError(f"{path}: {', '.join(unsupported)} is not supported by the peer; "
                            "use a file with per-electrode spike_times_<e> and no training selection.")
    for key in ("position_time", "position", "spike_times_0"):
        if key not in keys:
            raise PeerDataError(f"{path}: required array '{key}' not found; found {', '.join(sorted(keys)[:12])}.")
    raw_time = np.asarray(z["position_time"], np.float64).reshape(-1)
    raw_pos = np.asarray(z["position"], np.float64)
    raw_pos = raw_pos[:, None] if raw_pos.ndim == 1 else raw_pos
    finite = ~np.isnan(raw_pos).any(axis=1)
    if np.count_nonzero(finite) < 2:
        raise PeerDataError(f"{path}: fewer than two position samples without NaN; nothing to fit on.")
    q = raw_pos.shape[1]
    params = _params_json(z, keys, path)
    wstd = _std(z, keys, params, "waveform_std", DEFAULT_WAVEFORM_STD)
    grid_centers, grid_interior = _grid(z, keys, raw_pos, params, path)
    return {
        "position_time": raw_time[finite],
        "position": raw_pos[finite].astype(np.float32),
        "position_std": np.resize(np.asarray(_std(z, keys, params, "position_std", DEFAULT_POSITION_STD), np.float64), q),
        "waveform_std": wstd,
        "block_size": int(params.get("block_size", DEFAULT_BLOCK_SIZE)),
        "centers": grid_centers[grid_interior].astype(np.float32),
        # the whole grid with its interior mask: a posterior keeps the bins off the track as columns
        "grid_centers": grid_centers,
        "grid_interior": grid_interior,
        "decoding_position": _decoding_position(z, keys, q),
        "time": _decoding_rows(z, keys, raw_time),
        "electrodes": _electrodes(z, keys, path),
        "expected": {k: np.asarray(z[k], np.float64) for k in EXPECTED_KEYS if k in keys} or None,
    }


def load_for_engine(engine) -> dict | None:
    """The external engine's data (KDE_PROFILER_DATA) under its 'load-data' span; None once the
    engine has logged why a file it cannot read was refused."""
    try:
        with engine.span("load-data"):
            return load_dataset(engine.data_path)
    except PeerDataError as e:
        engine.log("error", str(e))
        return None


def waveform_std_for(ds: dict, n_features: int) -> np.ndarray:
    """σ per feature: a scalar is expanded to the electrode's D, an array is used as given."""
    w = np.asarray(ds["waveform_std"], np.float64).reshape(-1)
    if w.size == 1:
        return np.full(n_features, w[0])
    if w.size != n_features:
        raise PeerDataError(f"waveform_std has {w.size} values but an electrode has {n_features} features; give a scalar.")
    return w


def _params_json(z, keys: set[str], path: str) -> dict:
    if "params" not in keys:
        return {}
    a = z["params"]
    text = bytes(a).decode("utf-8") if a.dtype == np.uint8 else str(a.reshape(-1)[0]) if a.size else "{}"
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as e:
        raise PeerDataError(f"{path}: 'params' is not valid JSON ({e}).") from e
    return parsed if isinstance(parsed, dict) else {}


def _std(z, keys: set[str], params: dict, key: str, default: float):
    if key in keys:
        a = np.asarray(z[key], np.float64)
        return float(a) if a.ndim == 0 else a.reshape(-1)
    if key in params:
        return params[key] if isinstance(params[key], (int, float)) else np.asarray(params[key], np.float64)
    return default


def _grid(z, keys: set[str], raw_pos: np.ndarray, params: dict, path: str) -> tuple[np.ndarray, np.ndarray]:
    """(every bin's centre, which of them are on the track)."""
    q = raw_pos.shape[1]
    if "place_bin_centers" in keys and "is_track_interior" in keys:
        centers = np.asarray(z["place_bin_centers"], np.float64).reshape(-1, q)
        interior = np.asarray(z["is_track_interior"]).reshape(-1).astype(bool)
        if interior.size != centers.shape[0]:
            raise PeerDataError(f"{path}: is_track_interior has {interior.size} entries for {centers.shape[0]} place bins; they must be equal.")
        return centers, interior
    for key in ("interior_place_bin_centers", "place_bin_centers"):
        if key in keys:
            centers = np.asarray(z[key], np.float64).reshape(-1, q)
            return centers, np.ones(centers.shape[0], dtype=bool)
    if q != 1:
        raise PeerDataError(f"{path}: position is {q}-D and the file gives no place grid; add interior_place_bin_centers.")
    finite = raw_pos[~np.isnan(raw_pos[:, 0]), 0]
    h = float(params.get("place_bin_size", DEFAULT_PLACE_BIN_SIZE))
    lo, hi = float(finite.min()), float(finite.max())
    n_bins = int(np.ceil((hi - lo) / h).astype(np.int32))
    if lo == hi:  # numpy.histogram's rule for an empty range, as the project's grid does
        lo, hi, n_bins = lo - 0.5, hi + 0.5, 1
    edges = np.linspace(lo, hi, n_bins + 1)
    counts, _ = np.histogram(finite, bins=edges)
    centers = edges[:-1] + np.diff(edges) / 2
    return centers[:, None], counts > 0


def _decoding_position(z, keys: set[str], q: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(times, positions) of the decoding period where the file gives them apart from the encoding's."""
    if "decoding_position_time" not in keys or "decoding_position" not in keys:
        return None
    t = np.asarray(z["decoding_position_time"], np.float64).reshape(-1)
    return t, np.asarray(z["decoding_position"], np.float64).reshape(t.size, q)


def _decoding_rows(z, keys: set[str], raw_time: np.ndarray) -> np.ndarray:
    for key in ("time", "time_bin_edges", "decoding_position_time"):
        if key in keys:
            return np.asarray(z[key], np.float64).reshape(-1)
    return raw_time


def _marks(z, key: str, n: int) -> np.ndarray:
    a = np.asarray(z[key], np.float32)
    return a if a.ndim == 2 else a.reshape(n, -1) if a.ndim > 2 else a.reshape(-1, 1)


def _electrodes(z, keys: set[str], path: str) -> list[dict]:
    out = []
    e = 0
    while f"spike_times_{e}" in keys:
        if f"spike_waveform_features_{e}" not in keys:
            raise PeerDataError(f"{path}: spike_times_{e} exists but spike_waveform_features_{e} does not.")
        enc_times = np.asarray(z[f"spike_times_{e}"], np.float64).reshape(-1)
        enc_marks = _marks(z, f"spike_waveform_features_{e}", enc_times.size)
        if f"decoding_spike_times_{e}" in keys:
            dec_times = np.asarray(z[f"decoding_spike_times_{e}"], np.float64).reshape(-1)
            dec_marks = _marks(z, f"decoding_spike_waveform_features_{e}", dec_times.size)
        else:
            dec_times, dec_marks = enc_times, enc_marks
        out.append({"enc_times": enc_times, "enc_marks": enc_marks, "dec_times": dec_times, "dec_marks": dec_marks})
        e += 1
    return out
