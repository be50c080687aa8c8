#!/usr/bin/env python3
"""The offline check's bookkeeping (check.sh): each step's outcome as one JSON line, then all of
them as one JSON and a table of warm medians with ratios to the NumPy peer on the same file.

    python3 summarize.py step KIND NAME EXIT_CODE STDOUT_FILE   one line for lines.jsonl
    python3 summarize.py combine LINES.jsonl OUT.json           the JSON, and the table on stdout;
                                                                exit 1 when any step failed

Needs python3 only (no NumPy), so it runs before anything else is known to work.
"""

from __future__ import annotations

import json
import sys

EXIT_UNAVAILABLE = 3  # nld_peer.py: NLD or JAX cannot be imported


def step(kind: str, name: str, code: str, stdout_file: str) -> dict:
    with open(stdout_file, encoding="utf-8", errors="replace") as f:
        text = f.read()
    lines = [line for line in text.splitlines() if line.startswith("{")]
    rc = int(code)
    entry: dict = {"kind": kind, "name": name, "exitCode": rc}
    if rc == 0 and lines:
        try:
            entry["result"] = json.loads(lines[-1])
            return entry
        except json.JSONDecodeError as e:
            entry["error"] = f"its last JSON line does not parse ({e})"
            return entry
    if rc == 0 and kind == "data":
        entry["result"] = {"made": name, "log": text.strip().splitlines()[-1:]}  # the reference tool prints timings, not JSON
        return entry
    if rc == 124:
        entry["error"] = "stopped at the step's time limit"
    elif rc == 125:
        entry["skipped"] = "not started: the check's deadline had passed"
    elif kind == "nld" and rc == EXIT_UNAVAILABLE:
        entry["skipped"] = "non_local_detector or JAX is not importable here (see log.txt)"
    else:
        entry["error"] = f"exit code {rc}" + ("" if lines else ", no JSON result") + "; see log.txt"
    return entry


def _diff(x) -> str:
    return f"{x:.2g}" if isinstance(x, (int, float)) else "—"


def _ms(x) -> str:
    return "—" if x is None else f"{x:,.1f}"


def adapters(entries: list[dict]) -> list[str]:
    lines = []
    for e in entries:
        if e["kind"] == "gpu" and "result" in e:
            lines.append(f"GPU (nvidia-smi): {e['result']['answer']}")
        if e["kind"] == "adapter" and "result" in e:
            for name, info in e["result"]["active"].items():
                what = info.get("error") or f"{info.get('device')} (GPU: {info.get('isGpu')}, fallback: {info.get('isFallback')})"
                lines.append(f"{name}: {what}")
    return lines


def table(entries: list[dict]) -> str:
    rows = [*adapters(entries), "","| file | side | device | first ms | warm fit ms | warm predict ms | warm total ms | × NumPy | max |Δ| vs float64 |",
            "|---|---|---|---|---|---|---|---|---|"]
    peers = {e["name"].split(" ")[0]: e["result"] for e in entries if e["kind"] == "numpy" and "result" in e}
    for e in entries:
        if e["kind"] not in ("numpy", "engine", "nld"):
            continue
        file = e["name"].split(" ")[0]
        side = " ".join(e["name"].split(" ")[1:]) or e["kind"]
        if "result" not in e:
            rows.append(f"| {file} | {side} | | {e.get('error') or e.get('skipped')} | | | | | |")
            continue
        r = e["result"]
        peer_total = (peers.get(file) or {}).get("totalMedianMs")
        ratio = f"{r['totalMedianMs'] / peer_total:.3f}" if peer_total and r.get("totalMedianMs") else "—"
        first = (r.get("firstFitMs") or 0) + (r.get("firstPredictMs") or 0)
        device = r.get("device") or r.get("jaxDevice") or r.get("blasCore") or ""
        vs = r.get("vsExpected") or ((r.get("parity") or {}).get("arrays") or {}).get("log_likelihood_nonlocal") or {}
        rows.append(f"| {file} | {side} | {device} | {_ms(first)} | {_ms(r.get('fitMedianMs'))} | {_ms(r.get('predictMedianMs'))} "
                    f"| {_ms(r.get('totalMedianMs'))} | {ratio} | {_diff(vs.get('maxAbsDiff'))} |")
    return "\n".join(rows)


def combine(lines_file: str, out_file: str) -> int:
    with open(lines_file, encoding="utf-8") as f:
        entries = [json.loads(line) for line in f if line.strip()]
    with open(out_file, "w", encoding="utf-8") as f:
        json.dump({"steps": entries}, f, indent=2)
    print(table(entries))
    failed = [e["name"] for e in entries if "error" in e]
    if failed:
        print(f"\n{len(failed)} step(s) failed: {', '.join(failed)}; see log.txt", file=sys.stderr)
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if len(argv) == 5 and argv[0] == "step":
        print(json.dumps(step(*argv[1:])))
        return 0
    if len(argv) == 3 and argv[0] == "combine":
        return combine(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
