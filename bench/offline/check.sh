#!/usr/bin/env bash
# Runs from an unpacked offline bundle (npm run bench:bundle): says which adapter WebGPU found,
# makes the data with the float64 reference tool, then times on the same files the NumPy peer, the
# engine (each backend × strategy, one process each) and non_local_detector on JAX when the bundle
# carries it. Each step has a time limit and its outcome is kept as it finishes, so a step that
# fails or hangs costs only itself. Needs python3 with NumPy; NLD needs JAX and its imports.
#
#   bash check.sh [--out DIR] [--presets large,realistic] [--backends webgpu,wasm] [--op-graphs 1]
#                 [--strategies reference,compensated,series,auto] [--cpu-strategies LIST] [--nld-variants clusterless_kde,clusterless_kde_log]
#                 [--nld-cpu] [--repeats 3] [--warmup 1] [--step-timeout-s 240] [--nld-step-timeout-s 480] [--deadline-s 0]
#                 [--data-args 'NAME:ARGS'] [--cpu-workers N]
#
# --cpu-workers N: wasm runs on the engine pool's N worker threads (default: every core, nproc),
# as a run on this machine would; its cells are named "… wasm ×N". 1 is one thread.
# --cpu-strategies replaces --strategies on the CPU backends (wasm, cpu), where `reference` on a
# large file can take longer than the rest together.
# --data-args adds a file made by the reference tool with extra arguments, e.g.
#   --data-args 'realistic4x:--preset realistic --n-enc-spikes 2000 --n-dec-spikes 800 --no-local'
# --nld-step-timeout-s: NLD's own limit. Its first call compiles with XLA, on a GPU op by op for
# minutes on the large presets, where our engine's steps take seconds.
# --deadline-s N: no step starts after N seconds, and none runs past them (0: no deadline), so a
# machine lent for a fixed time still ends with every finished step written and the table printed.
# Exit status 1 when any step failed (a skipped step is not a failure).
# Results: DIR/check.json (every step), DIR/lines.jsonl (the same, one line per step as it ends),
# DIR/log.txt (every step's stderr) and the table on stdout.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR="$HERE/results"
PRESETS=large,realistic
BACKENDS=webgpu,wasm
# 1: each webgpu cell again on TensorFlow.js's op graphs (--op-graphs 0 leaves them out)
OP_GRAPHS=1
STRATEGIES=reference,compensated,series,auto
CPU_STRATEGIES=
NLD_VARIANTS=clusterless_kde,clusterless_kde_log
NLD_CPU=0
REPEATS=3
WARMUP=1
STEP_TIMEOUT=240
NLD_STEP_TIMEOUT=480
DEADLINE=0
DATA_ARGS=()
CPU_WORKERS=$(nproc 2>/dev/null || echo 1)
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT_DIR=$2; shift 2 ;;
    --presets) PRESETS=$2; shift 2 ;;
    --backends) BACKENDS=$2; shift 2 ;;
    --op-graphs) OP_GRAPHS=$2; shift 2 ;;
    --cpu-workers) CPU_WORKERS=$2; shift 2 ;;
    --strategies) STRATEGIES=$2; shift 2 ;;
    --cpu-strategies) CPU_STRATEGIES=$2; shift 2 ;;
    --nld-variants) NLD_VARIANTS=$2; shift 2 ;;
    --nld-cpu) NLD_CPU=1; shift ;;
    --repeats) REPEATS=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --step-timeout-s) STEP_TIMEOUT=$2; shift 2 ;;
    --nld-step-timeout-s) NLD_STEP_TIMEOUT=$2; shift 2 ;;
    --deadline-s) DEADLINE=$2; shift 2 ;;
    --data-args) DATA_ARGS+=("$2"); shift 2 ;;
    *) echo "check.sh: unknown argument $1 (see the comment at the top of check.sh)" >&2; exit 2 ;;
  esac
done

mkdir -p "$OUT_DIR" || exit 1
WORK=$(mktemp -d)
LINES="$OUT_DIR/lines.jsonl"
LOG="$OUT_DIR/log.txt"
: >"$LINES"
: >"$LOG"
PY=python3
command -v $PY >/dev/null || { echo "check.sh: python3 is needed and not on PATH" >&2; exit 2; }

unpack() { # FILE.xz TARGET: with xz when installed, else Python's lzma
  if command -v xz >/dev/null; then xz -dc "$1" >"$2"; else $PY -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],"wb"))' "$1" "$2"; fi
}
NODE="$WORK/node"
unpack "$HERE/node.xz" "$NODE" && chmod +x "$NODE" || { echo "check.sh: could not unpack node.xz" >&2; exit 1; }
DAWN="$HERE/engine/node_modules/webgpu/dist/linux-x64/dawn.node"
[ -f "$DAWN" ] || unpack "$DAWN.xz" "$DAWN" || echo "check.sh: could not unpack dawn.node: webgpu will be unavailable" >&2
# Dawn opens the GPU through the Vulkan loader. A machine image without one (containers often lack
# it) gets the loader and GL vendor libraries the bundle carries (bench:bundle --debs), unpacked
# here; KDE_BUNDLE_USE_LIBS=1 uses them even where the machine has its own.
if ls "$HERE"/libs/*.deb >/dev/null 2>&1 && { [ "${KDE_BUNDLE_USE_LIBS:-0}" = 1 ] || ! ldconfig -p 2>/dev/null | grep -q 'libvulkan\.so\.1 '; }; then
  LIBS="$WORK/libs"
  mkdir -p "$LIBS"
  for deb in "$HERE"/libs/*.deb; do
    if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$LIBS"
    else (cd "$LIBS" && ar x "$deb" && tar xf data.tar.* && rm -f data.tar.* control.tar.* debian-binary); fi || echo "check.sh: could not unpack $deb" >&2
  done
  export LD_LIBRARY_PATH="$LIBS/usr/lib/x86_64-linux-gnu:$LIBS/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "check.sh: using the Vulkan loader and GL libraries the bundle carries ($(cd "$HERE/libs" && echo *.deb))" >&2
fi
# Dawn needs a Vulkan driver manifest; where none is configured, use NVIDIA's if it is at a usual
# place, else write one for the NVIDIA driver library the machine has (its Vulkan entry points are
# in libGLX_nvidia)
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -z "${VK_ICD_FILENAMES:-}" ]; then
  for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
    if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd; break; fi
  done
  glx=$(ldconfig -p 2>/dev/null | grep -o '/[^ ]*libGLX_nvidia\.so\.0$' | head -1)
  if [ -z "${VK_DRIVER_FILES:-}" ] && [ -n "$glx" ]; then
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$glx" >"$WORK/nvidia_icd.json"
    export VK_DRIVER_FILES="$WORK/nvidia_icd.json"
    echo "check.sh: no NVIDIA Vulkan manifest installed; wrote one for $glx" >&2
  fi
fi

step() { # KIND NAME COMMAND…: runs it under the time limit, keeps its JSON line (or why not)
  local kind=$1 name=$2; shift 2
  local limit=$STEP_TIMEOUT
  [ "$kind" = nld ] && limit=$NLD_STEP_TIMEOUT
  if [ "$DEADLINE" -gt 0 ]; then
    local left=$((DEADLINE - SECONDS))
    if [ "$left" -lt 5 ]; then
      echo "== $kind $name: not started, the deadline has passed" | tee -a "$LOG" >&2
      : >"$WORK/stdout"
      $PY "$HERE/peer/summarize.py" step "$kind" "$name" 125 "$WORK/stdout" >>"$LINES"
      return
    fi
    [ "$left" -lt "$limit" ] && limit=$left
  fi
  echo "== $kind $name" | tee -a "$LOG" >&2
  local started=$SECONDS
  timeout "$limit" "$@" >"$WORK/stdout" 2> >(tee -a "$LOG" >&2)
  local rc=$?
  $PY "$HERE/peer/summarize.py" step "$kind" "$name" "$rc" "$WORK/stdout" >>"$LINES"
  echo "   exit $rc after $((SECONDS - started)) s" | tee -a "$LOG" >&2
}

step adapter "node" "$NODE" "$HERE/engine/adapterInfo.mjs" ${BACKENDS//,/ }
if command -v nvidia-smi >/dev/null; then
  step gpu "nvidia-smi" $PY -c 'import json,subprocess; q="name,memory.total,driver_version,clocks.max.sm"; r=subprocess.run(["nvidia-smi","--query-gpu="+q,"--format=csv,noheader"],capture_output=True,text=True); print(json.dumps({"query":q,"answer":r.stdout.strip()}))'
fi

FILES=()
make_data() { # NAME ARGS…
  local name=$1; shift
  local file="$WORK/data/$name.npz"
  mkdir -p "$WORK/data"
  step data "$name" $PY "$HERE/peer/kde_reference.py" "$@" --seed 5 --out "$WORK/data" --name "$name"
  [ -f "$file" ] && FILES+=("$name")
}
for p in ${PRESETS//,/ }; do make_data "$p" --preset "$p"; done
for spec in "${DATA_ARGS[@]}"; do
  # shellcheck disable=SC2086  # the arguments after NAME: are meant to split
  make_data "${spec%%:*}" ${spec#*:}
done

for name in "${FILES[@]}"; do
  file="$WORK/data/$name.npz"
  peer_ll="$WORK/$name.peer-ll.npy"
  step numpy "$name numpy" $PY "$HERE/peer/kde_peer.py" "$file" --repeats "$REPEATS" --warmup "$WARMUP" --save-ll "$peer_ll"
  ll_arg=()
  [ -f "$peer_ll" ] && ll_arg=(--peer-ll "$peer_ll")
  for b in ${BACKENDS//,/ }; do
    strategies=$STRATEGIES
    if [ -n "$CPU_STRATEGIES" ] && { [ "$b" = wasm ] || [ "$b" = cpu ]; }; then strategies=$CPU_STRATEGIES; fi
    cell=$b
    workers=(--workers 1)
    if [ "$b" = wasm ] && [ "$CPU_WORKERS" -gt 1 ]; then cell="wasm ×$CPU_WORKERS"; workers=(--workers "$CPU_WORKERS"); fi
    for s in ${strategies//,/ }; do
      step engine "$name $s $cell" "$NODE" "$HERE/engine/engineSide.mjs" "$file" --strategy "$s" --backend "$b" \
        --repeats "$REPEATS" --warmup "$WARMUP" --cell-limit-s "$STEP_TIMEOUT" "${workers[@]}" "${ll_arg[@]}"
      # the same cell on webgpu's op graphs (TensorFlow.js's programs, not the engine's WGSL kernels): what fusing gains
      if [ "$b" = webgpu ] && [ "$OP_GRAPHS" = 1 ]; then
        step engine "$name $s webgpu op-graph" env KDE_PROFILER_TFJS_KERNELS=1 "$NODE" "$HERE/engine/engineSide.mjs" "$file" --strategy "$s" \
          --backend webgpu --repeats "$REPEATS" --warmup "$WARMUP" --cell-limit-s "$STEP_TIMEOUT" "${ll_arg[@]}"
      fi
    done
  done
  if [ -d "$HERE/nld" ]; then
    for v in ${NLD_VARIANTS//,/ }; do
      step nld "$name nld:$v" $PY "$HERE/peer/nld_peer.py" "$file" --variant "$v" --nld-src "$HERE/nld" \
        --repeats "$REPEATS" --warmup "$WARMUP" "${ll_arg[@]}"
      if [ "$NLD_CPU" = 1 ]; then
        step nld "$name nld:$v cpu" env JAX_PLATFORMS=cpu $PY "$HERE/peer/nld_peer.py" "$file" --variant "$v" --nld-src "$HERE/nld" \
          --repeats "$REPEATS" --warmup "$WARMUP" "${ll_arg[@]}"
      fi
    done
  else
    echo "check.sh: the bundle carries no non_local_detector (built without --nld-src): NLD skipped" | tee -a "$LOG" >&2
  fi
done

$PY "$HERE/peer/summarize.py" combine "$LINES" "$OUT_DIR/check.json"
status=$?
rm -rf "$WORK"
exit $status
