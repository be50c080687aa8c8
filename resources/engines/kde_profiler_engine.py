"""Protocol 1 of KDE Profiler's external engines (docs/external-engines.md), for an engine written in
Python: the profiler starts the script with the run's data and an events descriptor, and the
script reports what it does in a few lines.

    from kde_profiler_engine import Engine

    engine = Engine.from_environment(name="my-decoder", version="0.3", device="cpu", dtype="float32")
    for phase in engine.phases():                 # "cold", then the warm-ups, then the warm repeats
        with engine.timed_call(phase) as call:
            with call.fit():
                model = fit(engine.data_path)
            with call.predict():
                ll = predict(model)
    engine.result("log_likelihood_nonlocal", ll)
    engine.done()

Needs NumPy only. Messages are kept within the protocol's bounds: long names and texts are cut.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator

import numpy as np

PROTOCOL = 1
EXIT_UNAVAILABLE = 3
_MAX_NAME = 200
_MAX_TEXT = 4000
_MAX_ARGS = 32


class NotStartedByProfiler(RuntimeError):
    """The script was run by hand: the events descriptor the profiler opens is missing."""


def _flat(args: dict | None) -> dict:
    """A message's args: strings, finite numbers and booleans only, at most 32 keys, texts cut short."""
    out: dict = {}
    for key, value in list((args or {}).items())[:_MAX_ARGS]:
        if isinstance(value, (bool, np.bool_)):
            out[str(key)[:_MAX_NAME]] = bool(value)
        elif isinstance(value, (int, float, np.integer, np.floating)) and np.isfinite(value):
            out[str(key)[:_MAX_NAME]] = value.item() if hasattr(value, "item") else value
        elif value is not None:
            out[str(key)[:_MAX_NAME]] = str(value)[:_MAX_TEXT]
    return out


class TimedCall:
    """One fit + predict call: each half is a span, and the call's times are sent when it ends."""

    def __init__(self, engine: "Engine", phase: str, index: int) -> None:
        self._engine, self.phase, self.index = engine, phase, index
        self.fit_ms = 0.0
        self.predict_ms = 0.0

    def fit(self) -> contextlib.AbstractContextManager[None]:
        return self._half("fit")

    def predict(self) -> contextlib.AbstractContextManager[None]:
        return self._half("predict")

    @contextlib.contextmanager
    def _half(self, name: str) -> Iterator[None]:
        start = time.monotonic_ns()
        with self._engine.span(name, phase=self.phase, repeat=self.index, cold=self.phase == "cold"):
            yield
        setattr(self, f"{name}_ms", getattr(self, f"{name}_ms") + (time.monotonic_ns() - start) / 1e6)


class Engine:
    """An external engine's side of the protocol: the run's inputs, and the messages it sends."""

    def __init__(self, events, environ: dict) -> None:
        self._events = events
        self.data_path: str = environ["KDE_PROFILER_DATA"]
        self.out_dir: str = environ["KDE_PROFILER_OUT"]
        self.repeats = int(environ.get("KDE_PROFILER_REPEATS", "3"))
        self.warmup = int(environ.get("KDE_PROFILER_WARMUP", "1"))
        block = environ.get("KDE_PROFILER_BLOCK_SIZE")
        self.block_size: int | None = int(block) if block else None
        # the run asked for the framework's own trace of one more warm call (JAX's profiler)
        self.framework_trace = environ.get("KDE_PROFILER_FRAMEWORK_TRACE") == "1"

    @classmethod
    def from_environment(cls, name: str, version: str, device: str, dtype: str, info: dict | None = None,
                         environ: dict | None = None) -> "Engine":
        """Opens the events descriptor the profiler gave and says hello; refuses to run without it."""
        env = os.environ if environ is None else environ
        fd = env.get("KDE_PROFILER_EVENTS_FD")
        if not fd or "KDE_PROFILER_DATA" not in env or "KDE_PROFILER_OUT" not in env:
            raise NotStartedByProfiler(
                "this script is an external engine of KDE Profiler: run it with "
                "`kde-profiler run --data FILE --engine 'cmd:python3 SCRIPT'`, which gives it the data and an events descriptor")
        # processes the engine starts must not hold the descriptor open: the profiler reads it to its end
        os.set_inheritable(int(fd), False)
        engine = cls(os.fdopen(int(fd), "w", buffering=1, encoding="utf-8", closefd=False), env)
        engine._send(type="hello", protocol=PROTOCOL, engine=name[:_MAX_NAME], version=str(version)[:_MAX_NAME],
                     t_ns=time.monotonic_ns(), device=str(device)[:_MAX_NAME], dtype=str(dtype)[:_MAX_NAME], info=_flat(info))
        return engine

    def _send(self, **message) -> None:
        self._events.write(json.dumps(message, allow_nan=False) + "\n")
        self._events.flush()

    def phases(self) -> Iterator[str]:
        """'cold' once, then 'warmup' for each warm-up, then 'warm' for each repeat the run asked for."""
        yield "cold"
        for _ in range(self.warmup):
            yield "warmup"
        for _ in range(self.repeats):
            yield "warm"

    @contextlib.contextmanager
    def timed_call(self, phase: str) -> Iterator[TimedCall]:
        """One timed call of the given phase; its `call` message goes out when the block ends without an error."""
        call = TimedCall(self, phase, getattr(self, "_calls", 0))
        self._calls = call.index + 1
        yield call
        self._send(type="call", phase=phase, fit_ms=call.fit_ms, predict_ms=call.predict_ms)

    @contextlib.contextmanager
    def span(self, name: str, **args) -> Iterator[None]:
        """A span on the engine's lane, sent when the block ends (also when it raises)."""
        start = time.monotonic_ns()
        try:
            yield
        finally:
            self._send(type="span", name=name[:_MAX_NAME], start_ns=start, end_ns=time.monotonic_ns(), args=_flat(args))

    def counter(self, name: str, value: float) -> None:
        self._send(type="counter", name=name[:_MAX_NAME], t_ns=time.monotonic_ns(), value=float(value))

    def log(self, level: str, message: str) -> None:
        self._send(type="log", level=level if level in ("info", "warn", "error") else "info", message=str(message)[:_MAX_TEXT] or "-")

    def result(self, name: str, array) -> str:
        """Writes the array to the engine's folder as NAME.npy and tells the profiler; returns the path."""
        file = f"{name[:_MAX_NAME]}.npy"
        path = os.path.join(self.out_dir, file)
        np.save(path, np.ascontiguousarray(np.asarray(array)))
        self._send(type="result", name=name[:_MAX_NAME], file=file)
        return path

    def trace(self, file: str, start_ns: int) -> None:
        """A framework's trace (Chrome trace JSON, plain or gzip) in the engine's folder, its first event at start_ns."""
        self._send(type="trace", file=os.path.basename(file), start_ns=int(start_ns))

    def done(self) -> None:
        self._send(type="done")

    def unavailable(self, reason: str) -> None:
        """This engine cannot run here (a package is missing): says why and exits with status 3."""
        self.log("error", reason)
        sys.exit(EXIT_UNAVAILABLE)
