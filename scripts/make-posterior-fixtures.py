#!/usr/bin/env python3
"""Writes test/fixtures/posterior_reference.npz: the float64 reference posterior (shared/tools/
posterior_reference.py) on both of NLD's golden protocols, and on the same inputs with positions
in (60, 72) moved to 72 so that the grid has empty, non-interior bins (posterior-spec §0), plus
NLD's golden arrays. Keys are `<case>_<array>`, cases `decoder`, `detector`, `decoder_gaps`,
`detector_gaps`, and `golden_<model>_<array>`.

    python3 scripts/make-posterior-fixtures.py [--shared ../shared] [--out test/fixtures/posterior_reference.npz]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

KEEP = ("acausal_posterior", "causal_posterior", "predictive_posterior", "acausal_state_probabilities",
        "causal_state_probabilities", "log_likelihood", "marginal_log_likelihood", "transition_matrix",
        "initial_distribution", "place_bin_centers", "is_track_interior", "state_ind", "mean_rates")


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
    print(f"wrote {a.out}: {len(saved)} arrays")
    return 0


if __name__ == "__main__":
    sys.exit(main())
