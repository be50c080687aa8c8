"""What the peer ran on: NumPy, its BLAS (name, version, core) and how many threads that BLAS uses."""

from __future__ import annotations

import ctypes
import os
import platform

import numpy as np

# Symbol prefixes of the OpenBLAS builds NumPy ships with: plain (Debian), and the scipy-openblas
# wheels with and without the 64-bit-integer suffix.
_OPENBLAS_NAMES = [("openblas_", ""), ("scipy_openblas_", "64_"), ("scipy_openblas_", "")]


def _loaded_openblas() -> ctypes.CDLL | None:
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and ".so" in line})
    except OSError:
        return None
    for path in paths:
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


def _openblas_call(lib: ctypes.CDLL, name: str, restype):
    for prefix, suffix in _OPENBLAS_NAMES:
        fn = getattr(lib, f"{prefix}{name}{suffix}", None)
        if fn is not None:
            fn.restype = restype
            return fn()
    return None


def _build_blas() -> dict | None:
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except Exception:  # older NumPy: no dict mode; the runtime probe below still answers
        return None
    return {"name": blas.get("name"), "version": blas.get("version")}


def blas_info() -> dict:
    lib = _loaded_openblas()
    threads = _openblas_call(lib, "get_num_threads", ctypes.c_int) if lib else None
    config = _openblas_call(lib, "get_config", ctypes.c_char_p) if lib else None
    core = _openblas_call(lib, "get_corename", ctypes.c_char_p) if lib else None
    return {
        "numpyVersion": np.__version__,
        "python": platform.python_version(),
        "cpuCount": os.cpu_count(),
        "blas": _build_blas(),
        "blasRuntime": config.decode() if config else None,
        "blasCore": core.decode() if core else None,
        "blasThreads": threads,
        "threadEnv": {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS") if k in os.environ},
    }
