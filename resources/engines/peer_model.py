"""The peer's model: the linear reference of kde-spec §7(a) in float32 NumPy.

fit: occupancy, mean rates and the ground process (spec §3). predict: the non-local log likelihood
(spec §4.1-4.5) with the EPS and LOG_EPS floors, zero occupancy, electrodes without encoding or
decoding spikes and spikes outside the decoding rows. Per electrode, the mark kernel of a block of
decoding spikes is one GEMM (the squared distance expanded, both norms folded into augmented
columns) and the joint density a second GEMM against the position kernel, so OpenBLAS does the
heavy work on every core.
"""

from __future__ import annotations

import math

import numpy as np

from peer_data import waveform_std_for

EPS = 1e-15
LOG_EPS = math.log(EPS)
F32 = np.float32
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# Elements of one temporary (kernel block) kept in memory at a time: 16 Mi float32 = 64 MiB.
DEFAULT_BLOCK_ELEMS = 1 << 24


def log_norm(std: np.ndarray) -> float:
    """log of the product Gaussian's normalisation (2π)^(-d/2) Π σ_j^(-1)."""
    return -float(np.sum(np.log(std.astype(np.float64)))) - std.size * _HALF_LOG_2PI


def log_kernel(a: np.ndarray, b: np.ndarray, std: np.ndarray) -> np.ndarray:
    """log K_σ(a_i, b_j) as (len(a), len(b)) float32: the position kernel in either orientation."""
    out = np.full((a.shape[0], b.shape[0]), log_norm(std), dtype=F32)
    for d in range(std.size):
        z = np.subtract.outer(a[:, d], b[:, d])
        z *= F32(1.0 / std[d])
        z *= z
        z *= F32(-0.5)
        out += z
    return out


def kde_at_centers(samples: np.ndarray, centers: np.ndarray, std: np.ndarray, block_elems: int) -> np.ndarray:
    """Equal-weight Gaussian KDE of the samples at the bin centres (0 with no samples), float32.

    Each chunk of samples is summed along contiguous rows (NumPy's pairwise summation) and chunk
    sums are carried in float64, so hundreds of thousands of samples add up without drift.
    """
    n, n_bins = samples.shape[0], centers.shape[0]
    total = np.zeros(n_bins, dtype=np.float64)
    if n == 0:
        return total.astype(F32)
    step = max(1, block_elems // max(n_bins, 1))
    for s in range(0, n, step):
        k = log_kernel(centers, samples[s : s + step], std)
        np.exp(k, out=k)
        total += k.sum(axis=1)
    return (total / n).astype(F32)


def fit(ds: dict, block_elems: int) -> dict:
    """kde-spec §3: occupancy, mean rates, per-electrode ground-process terms and their sum."""
    pt, pos, centers, pstd = ds["position_time"], ds["position"], ds["centers"], ds["position_std"]
    n = pt.size
    occupancy = kde_at_centers(pos, centers, pstd, block_elems)
    positive = occupancy > 0
    safe_occ = np.where(positive, occupancy, F32(1))
    t_lo, t_hi = (pt[0], pt[-1]) if n else (math.nan, math.nan)
    summed = np.zeros(centers.shape[0], dtype=F32)
    electrodes = []
    for el in ds["electrodes"]:
        keep = (el["enc_times"] >= t_lo) & (el["enc_times"] <= t_hi)
        times, marks = el["enc_times"][keep], el["enc_marks"][keep]
        enc_pos = interpolate(pt, pos, times).astype(F32)
        rate = times.size / max(n, 1)
        ratio = np.where(positive, kde_at_centers(enc_pos, centers, pstd, block_elems) / safe_occ, F32(EPS))
        summed += np.maximum(F32(rate) * ratio, F32(EPS))  # NaN propagates, as the spec's clip
        electrodes.append({"positions": enc_pos, "marks": marks, "rate": rate})
    return {"occupancy": occupancy, "summed_gpi": summed, "electrodes": electrodes,
            "mean_rates": np.asarray([e["rate"] for e in electrodes], dtype=np.float64)}


def interpolate(pt: np.ndarray, pos: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Piecewise-linear position at t, extrapolating linearly (spec §3.3)."""
    if t.size == 0:
        return np.zeros((0, pos.shape[1]))
    i = np.clip(np.searchsorted(pt, t, side="right") - 1, 0, pt.size - 2)
    w = ((t - pt[i]) / (pt[i + 1] - pt[i]))[:, None]
    return pos[i] * (1.0 - w) + pos[i + 1] * w


def scaled_position_kernel(fitted: dict, model: dict, centers: np.ndarray, pstd: np.ndarray) -> np.ndarray:
    """K_pos (E, P) times μ / (E·π_p), 0 where π_p is not positive: λ is then Kmark @ this."""
    occ = model["occupancy"]
    n_enc = fitted["positions"].shape[0]
    scale = np.zeros_like(occ)
    positive = occ > 0
    scale[positive] = F32(fitted["rate"] / n_enc) / occ[positive]
    k = log_kernel(fitted["positions"], centers, pstd)
    np.exp(k, out=k)
    k *= scale
    return k


def mark_factors(enc_marks: np.ndarray, dec_marks: np.ndarray, wstd: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Augmented operands so that one GEMM gives log K_mark before its clamp (spec §7.0).

    Marks are centred on the encoding mean first (distances do not change) so the float32 norms
    that cancel in the expanded square stay small.
    """
    centre = enc_marks.mean(axis=0, dtype=np.float64) if enc_marks.shape[0] else 0.0
    y = ((enc_marks - centre) / wstd).astype(F32)
    m = ((dec_marks - centre) / wstd).astype(F32)
    c = log_norm(wstd)
    enc_aug = np.concatenate([y, (-0.5 * np.einsum("ij,ij->i", y, y))[:, None], np.ones((y.shape[0], 1), F32)], axis=1)
    dec_aug = np.concatenate([m, np.ones((m.shape[0], 1), F32), (c - 0.5 * np.einsum("ij,ij->i", m, m))[:, None]], axis=1)
    return np.ascontiguousarray(enc_aug.T, dtype=F32), dec_aug.astype(F32), c


def spike_rows(times: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Output row of each spike: numpy.digitize(t, grid[1:-1]) (spec §4.4)."""
    return np.searchsorted(grid[1:-1], times, side="right")


def add_rows(ll: np.ndarray, rows: np.ndarray, terms: np.ndarray) -> None:
    """ll[rows[k]] += terms[k] for sorted or unsorted rows, spikes sharing a row included.

    Each pass adds the first spike of every row still pending, so a pass never writes a row twice
    and the number of passes is the most spikes any one row holds.
    """
    if rows.size > 1 and np.any(rows[1:] < rows[:-1]):
        order = np.argsort(rows, kind="stable")
        rows, terms = rows[order], terms[order]
    while rows.size:
        first = np.ones(rows.size, dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        ll[rows[first]] += terms[first]
        if first.all():
            return
        rows, terms = rows[~first], terms[~first]


def predict(model: dict, ds: dict, block_elems: int, block_size: int | None) -> np.ndarray:
    """kde-spec §4.1-4.5: −Λ in every row plus each electrode's floored spike terms."""
    grid, centers, pstd = ds["time"], ds["centers"], ds["position_std"]
    n_time, n_bins = grid.size, centers.shape[0]
    ll = np.empty((n_time, n_bins), dtype=F32)
    ll[:] = -model["summed_gpi"]
    for el, fitted in zip(ds["electrodes"], model["electrodes"], strict=True):
        keep = (el["dec_times"] >= grid[0]) & (el["dec_times"] <= grid[-1]) if n_time else np.zeros(el["dec_times"].size, bool)
        rows = spike_rows(el["dec_times"][keep], grid)
        if rows.size == 0:
            continue
        n_enc = fitted["positions"].shape[0]
        if n_enc == 0:
            # μ = 0 and J ≡ 0: each decoding spike adds exactly LOG_EPS to every bin of its row
            ll += (np.bincount(rows, minlength=n_time).astype(F32) * F32(LOG_EPS))[:, None]
            continue
        kpos = scaled_position_kernel(fitted, model, centers, pstd)
        enc_aug_t, dec_aug, c = mark_factors(fitted["marks"], el["dec_marks"][keep], waveform_std_for(ds, fitted["marks"].shape[1]))
        step = block_size or max(1, block_elems // max(n_enc, n_bins))
        for s in range(0, rows.size, step):
            kmark = dec_aug[s : s + step] @ enc_aug_t  # log K_mark, (B, E)
            np.minimum(kmark, F32(c), out=kmark)  # the squared distance clamped at 0
            np.exp(kmark, out=kmark)
            lam = kmark @ kpos  # λ = μ·J/π, (B, P)
            np.maximum(lam, F32(EPS), out=lam)  # safe_log: below EPS reads as EPS
            np.log(lam, out=lam)
            add_rows(ll, rows[s : s + step], lam)
    return ll
