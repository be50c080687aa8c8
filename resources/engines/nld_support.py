"""non_local_detector (NLD) as the profiler reaches it, shared by the bench's peer (bench/peer/nld_peer.py)
and the external engine (nld_engine.py): importing NLD from a source folder with a stand-in for
track_linearization, NLD's Environment on a file's own place grid, a counter of XLA compilations,
and the fit and predict calls of a likelihood module on a loaded clusterless-npz/1 file.

NLD's code stays outside this project: give the folder that holds its `non_local_detector`
package (KDE_PROFILER_NLD_SRC), or install it where this Python finds it.
"""

from __future__ import annotations

import glob
import inspect
import os
import shutil
import sys
import time
import types

import numpy as np

NLD_SRC_ENV = "KDE_PROFILER_NLD_SRC"
TRACE_FILE = "jax-trace.json.gz"
EXIT_UNAVAILABLE = 3


class NldUnavailable(Exception):
    """NLD or one of its imports is missing; the message says which and what to do."""


def install_track_linearization_stand_in() -> None:
    try:
        import track_linearization  # noqa: F401
    except ImportError:
        stand_in = types.ModuleType("track_linearization")

        def refuse(*_args, **_kwargs):
            raise NotImplementedError("track_linearization is not installed: this peer decodes 1-D positions without a track graph")

        for name in ("get_linearized_position", "make_track_graph", "plot_track_graph", "plot_graph_as_1D"):
            setattr(stand_in, name, refuse)
        sys.modules["track_linearization"] = stand_in


def _import_jax(src: str | None, x64: bool):
    """JAX, with NLD's source folder on the path and track_linearization stood in for."""
    if src:
        if not os.path.isdir(os.path.join(src, "non_local_detector")):
            raise NldUnavailable(f"{src} holds no non_local_detector package; give the src/ folder of an NLD checkout.")
        sys.path.insert(0, src)
    try:
        import jax
    except ImportError as e:
        raise NldUnavailable(f"JAX is not importable ({e}); install jax in the Python that runs NLD.") from e
    jax.config.update("jax_enable_x64", x64)
    install_track_linearization_stand_in()
    return jax


def _not_importable(e: ImportError) -> NldUnavailable:
    return NldUnavailable(f"non_local_detector could not be imported ({e}); pass --nld-src or set {NLD_SRC_ENV} to NLD's src/ folder.")


def import_nld(src: str | None, variant: str, x64: bool):
    """(jax, Environment, fit, predict) for the variant, or NldUnavailable saying what is missing."""
    jax = _import_jax(src, x64)
    try:
        from non_local_detector.environment import Environment
        module = __import__(f"non_local_detector.likelihoods.{variant}", fromlist=["fit_clusterless_kde_encoding_model"])
    except ImportError as e:
        raise _not_importable(e) from e
    return jax, Environment, module.fit_clusterless_kde_encoding_model, module.predict_clusterless_kde_log_likelihood


def import_nld_model(src: str | None, model: str, x64: bool):
    """(jax, Environment, the model's class) for `decoder` (ClusterlessDecoder) or `detector` (NonLocalClusterlessDetector)."""
    jax = _import_jax(src, x64)
    try:
        from non_local_detector.environment import Environment
        from non_local_detector import models
    except ImportError as e:
        raise _not_importable(e) from e
    return jax, Environment, models.ClusterlessDecoder if model == "decoder" else models.NonLocalClusterlessDetector


def environment_for(Environment, ds: dict):
    """NLD's Environment on the file's own place grid (every bin interior), so both decode the same bins."""
    centers = np.asarray(ds["centers"], np.float64).reshape(-1, 1)
    env = Environment(place_bin_size=float(centers[1, 0] - centers[0, 0]) if centers.shape[0] > 1 else 1.0)
    env.place_bin_centers_ = centers
    env.centers_shape_ = (centers.shape[0],)
    env.is_track_interior_ = np.ones(centers.shape[0], dtype=bool)
    env._is_fitted = True
    return env


class GridRefused(Exception):
    """The file's grid is not one this engine can hand NLD whole; the message says what the file needs."""


def regular_grid_axes(centers: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each axis's centres of a whole grid laid out as NLD lays out its own (meshgrid "ij", raveled in
    C order: the first ny bins share x), or GridRefused; 1-D centres are their own axis."""
    if centers.shape[1] == 1:
        return (centers[:, 0],)
    if centers.shape[1] != 2:
        raise GridRefused(f"position is {centers.shape[1]}-D; this engine decodes 1-D and 2-D positions only.")
    ny = int(np.argmax(centers[:, 0] != centers[0, 0])) or centers.shape[0]
    xs, ys = centers[::ny, 0], centers[:ny, 1]
    regular = centers.shape[0] == xs.size * ny and np.array_equal(
        centers, np.stack([a.ravel() for a in np.meshgrid(xs, ys, indexing="ij")], axis=1))
    if not regular or np.any(np.diff(xs) <= 0) or np.any(np.diff(ys) <= 0):
        raise GridRefused("a 2-D file needs its whole place grid: place_bin_centers (B, 2) of every bin, padding bins "
                          "included, in NLD's C order (bin ix * ny + iy), with is_track_interior (B,); this file's "
                          "centres are not such a grid.")
    return xs, ys


def _edges_of(axis: np.ndarray) -> np.ndarray:
    """Bin edges around an axis's centres: midway between neighbours, half a bin beyond the ends."""
    width = float(axis[1] - axis[0]) if axis.size > 1 else 1.0
    inner = (axis[:-1] + axis[1:]) / 2
    return np.concatenate([[axis[0] - width / 2], inner, [axis[-1] + width / 2]])


def _graph_distances(graph, n_bins: int) -> np.ndarray:
    """Shortest-path lengths between every two bins of NLD's grid graph (inf where no path), as its fit keeps them."""
    import networkx as nx

    distance = np.full((n_bins, n_bins), np.inf)
    for source, lengths in nx.shortest_path_length(graph, weight="distance"):
        distance[source, list(lengths)] = list(lengths.values())
    return distance


def whole_grid_environment_for(Environment, ds: dict, with_graph: bool = False):
    """NLD's Environment on the file's whole grid (1-D, or 2-D in NLD's C order) and interior mask, kept when a
    model's fit would fit its own grid from the positions: the posterior then has the same columns as the
    profiler's. With `with_graph`, also the grid graph (interior bins joined to their 3^D neighbours) and its
    shortest-path distances, as NLD's own fit_place_grid leaves them: the Local state's kernel
    (local_position_std) measures distance on them. NLD's fit always builds them (about 50 s at 3 420 bins);
    without a model that reads them they are left out, so the timed fit is the decode's."""
    from non_local_detector.environment import get_track_boundary, make_nD_track_graph_from_environment

    centers = np.asarray(ds["grid_centers"], np.float64)
    centers = centers.reshape(centers.shape[0], -1)
    axes = regular_grid_axes(centers)
    shape = tuple(a.size for a in axes)
    edges = tuple(_edges_of(a) for a in axes)
    widths = tuple(float(e[1] - e[0]) for e in edges)
    env = Environment(place_bin_size=widths[0] if len(set(widths)) == 1 else widths)
    env.place_bin_centers_ = centers
    env.centers_shape_ = shape
    env.edges_ = edges
    env.place_bin_edges_ = np.stack([m.ravel() for m in np.meshgrid(*edges, indexing="ij")], axis=1)
    interior = np.asarray(ds["grid_interior"], bool).reshape(shape)
    env.is_track_interior_ = interior
    env.is_track_boundary_ = get_track_boundary(interior, n_position_dims=2, connectivity=1) if len(shape) == 2 else None
    env._is_fitted = True
    if with_graph:
        env.track_graphDD = make_nD_track_graph_from_environment(env)
        env.distance_between_nodes_ = _graph_distances(env.track_graphDD, centers.shape[0])
    env.fit_place_grid = lambda *_args, **_kwargs: env
    return env


class CompileCounter:
    """Counts XLA compilations through JAX's monitoring events, so cold and warm calls can be told apart."""

    def __init__(self, jax) -> None:
        self.count = 0
        try:
            from jax import monitoring

            def listener(event: str, *_args, **_kwargs) -> None:
                if "backend_compile" in event:
                    self.count += 1

            monitoring.register_event_duration_secs_listener(listener)
            self.available = True
        except Exception:  # an older JAX without this hook: the count is reported as unknown
            self.available = False


class NldCalls:
    """NLD's fit and non-local predict on one loaded file, its arrays on JAX's device once."""

    def __init__(self, jax, Environment, fit_fn, predict_fn, ds: dict) -> None:
        import jax.numpy as jnp

        self.jax, self.fit_fn, self.predict_fn, self.ds = jax, fit_fn, predict_fn, ds
        self.env = environment_for(Environment, ds)
        els = ds["electrodes"]
        self.enc_times = [jnp.asarray(e["enc_times"]) for e in els]
        self.enc_marks = [jnp.asarray(e["enc_marks"]) for e in els]
        self.dec_times = [jnp.asarray(e["dec_times"]) for e in els]
        self.dec_marks = [jnp.asarray(e["dec_marks"]) for e in els]
        self.position_time = jnp.asarray(ds["position_time"])
        self.position = jnp.asarray(ds["position"]).reshape(self.position_time.shape[0], -1)
        self.decode_time = jnp.asarray(ds["time"])
        self.position_std = float(np.asarray(ds["position_std"]).reshape(-1)[0])
        self.waveform_std = np.asarray(ds["waveform_std"], np.float64)
        self.predict_params = set(inspect.signature(predict_fn).parameters)

    def fit(self) -> dict:
        model = self.fit_fn(self.position_time, self.position, self.enc_times, self.enc_marks, self.env,
                            position_std=self.position_std, waveform_std=self.waveform_std,
                            block_size=self.ds["block_size"], disable_progress_bar=True)
        self.jax.block_until_ready(model["summed_ground_process_intensity"])
        return model

    def predict(self, model: dict):
        kwargs = {k: v for k, v in model.items() if k in self.predict_params}
        ll = self.predict_fn(self.decode_time, self.position_time, self.position, self.dec_times, self.dec_marks, **kwargs)
        return self.jax.block_until_ready(ll)


def device_memory(device) -> dict | None:
    """The device's own memory statistics (GPUs); None where it has none (CPU)."""
    try:
        stats = device.memory_stats() or {}
    except Exception:  # CPU devices answer nothing
        return None
    keep = ("peak_bytes_in_use", "bytes_in_use", "bytes_limit")
    return {k: int(stats[k]) for k in keep if k in stats} or None


def profiled_call(engine, jax, call) -> None:
    """One more warm call under JAX's profiler; its Perfetto-format trace is handed to the profiler."""
    log_dir = os.path.join(engine.out_dir, "jax-profile")
    began = time.monotonic_ns()
    with jax.profiler.trace(log_dir, create_perfetto_trace=True):
        with engine.span("profiled call", phase="profile"):
            call()
    found = sorted(glob.glob(os.path.join(log_dir, "**", "perfetto_trace.json.gz"), recursive=True))
    if not found:
        engine.log("warn", "JAX's profiler wrote no perfetto_trace.json.gz; no framework trace for this run")
        return
    shutil.copyfile(found[-1], os.path.join(engine.out_dir, TRACE_FILE))
    engine.trace(TRACE_FILE, began)


def timed_calls(engine, calls, compiles: CompileCounter):
    """Every call the run asked for (calls.fit(), then calls.predict(model)), XLA's compilations
    counted after each; the last prediction."""
    out = None
    for phase in engine.phases():
        with engine.timed_call(phase) as call:
            with call.fit():
                model = calls.fit()
            if compiles.available:
                engine.counter("xla compilations", compiles.count)
            with call.predict():
                out = calls.predict(model)
            if compiles.available:
                engine.counter("xla compilations", compiles.count)
    return out


def send_device_peak(engine, jax) -> None:
    """The device's own peak memory as a counter, where it keeps one (GPUs)."""
    memory = device_memory(jax.devices()[0])
    if memory and "peak_bytes_in_use" in memory:
        engine.counter("device memory peak (bytes)", memory["peak_bytes_in_use"])
