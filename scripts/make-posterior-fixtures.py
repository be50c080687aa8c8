#!/usr/bin/env python3
"""Writes test/fixtures/posterior_reference.npz: the float64 reference posterior (shared/tools/
posterior_reference.py) on both of NLD's golden protocols, and on the same inputs with positions
in (60, 72) moved to 72 so that the grid has empty, non-interior bins (posterior-spec §0), plus
NLD's golden arrays. Keys are `<case>_<array>`, cases `decoder`, `detector`, `decoder_gaps`,
`detector_gaps`, and `golden_<model>_<array>`. Also writes each golden protocol as an ordinary
clusterless-npz/1 file (test/fixtures/nld_<model>_protocol.npz): all fit positions, is_training,
the decoding rows as `time`, the params position_std 6 and waveform_std 24, so that
`kde-profiler decode --data FILE --model <model>` reproduces the protocol.

    python3 scripts/make-posterior-fixtures.py [--shared ../shared] [--out test/fixtures/posterior_reference.npz]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

KEEP = ("acausal_posterior", "causal_posterior", "predictive_posterior", "acausal_state_probabilities",
        "causal_state_probabilities", "log_likelihood", "marginal_log_likelihood", "transition_matrix",
        "initial_distribution", "place_bin_centers", "is_track_interior", "state_ind", "mean_rates")


def write_protocol(path: str, pt, pos, spike_times, features, is_training, time) -> None:
    arrays = dict(format="clusterless-npz/1", position_time=pt, position=pos, position_units="cm",
                  is_training=is_training, time=time, params=json.dumps({"position_std": 6.0, "waveform_std": 24.0}))
    for e, (t, w) in enumerate(zip(spike_times, features)):
        arrays[f"spike_times_{e}"] = t
        arrays[f"spike_waveform_features_{e}"] = w
    np.savez_compressed(path, **arrays)


def protocol_files(inputs_dir: str, fixtures: str, ref) -> None:
    """The protocols of posterior_reference.run_*_protocol, with its n_time 50 and 5000 detector samples."""
    d = ref.load_inputs(os.path.join(inputs_dir, "nld_clusterless_decoder_inputs.npz"))
    pt, pos = d["position_time"], d["position"]
    n_enc = int(0.7 * pt.size)
    is_training = np.arange(pt.size) < n_enc
    write_protocol(os.path.join(fixtures, "nld_decoder_protocol.npz"), pt, pos, d["spike_times"],
                   d["spike_waveform_features"], is_training, pt[n_enc:n_enc + 50])
    d = ref.load_inputs(os.path.join(inputs_dir, "nld_nonlocal_detector_inputs.npz"))
    n = 5000
    pt, pos = d["position_time"][:n], d["position"][:n]
    cut = d["position_time"][n]
    keep = [t < cut for t in d["spike_times"]]
    n_enc = int(0.7 * n)
    write_protocol(os.path.join(fixtures, "nld_detector_protocol.npz"), pt, pos,
                   [t[k] for t, k in zip(d["spike_times"], keep)],
                   [w[k] for w, k in zip(d["spike_waveform_features"], keep)], np.arange(n) < n_enc, pt[n_enc:n_enc + 50])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "posterior_reference.npz"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.shared, "tools"))
    import posterior_reference as ref  # noqa: E402  (the float64 reference lives in ../shared)

    datasets = os.path.join(a.shared, "datasets")
    saved: dict[str, np.ndarray] = {}
    for model, run in (("decoder", ref.run_decoder_protocol), ("detector", ref.run_detector_protocol)):
        stem = "nld_clusterless_decoder" if model == "decoder" else "nld_nonlocal_detector"
        inp = ref.load_inputs(os.path.join(datasets, f"{stem}_inputs.npz"))
        gaps = dict(inp)
        pos = inp["position"].copy()
        pos[(pos > 60) & (pos < 72)] = 72
        gaps["position"] = pos
        for case, data in ((model, inp), (f"{model}_gaps", gaps)):
            res = run(data)
            for k in KEEP:
                saved[f"{case}_{k}"] = np.asarray(res[k])
        golden = np.load(os.path.join(datasets, f"{stem}_golden.npz"), allow_pickle=False)
        for k in golden.files:
            if golden[k].dtype.kind in "fb":
                saved[f"golden_{model}_{k}"] = golden[k]
    np.savez_compressed(a.out, **saved)
    protocol_files(datasets, os.path.dirname(a.out), ref)
    print(f"wrote {a.out}: {len(saved)} arrays")
    return 0


if __name__ == "__main__":
    sys.exit(main())
