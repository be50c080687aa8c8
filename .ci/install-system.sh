#!/usr/bin/env bash
# Installs the Debian packages the tests need: Chromium (renderer end-to-end tests), xz (the offline
# bench bundle compresses Node and dawn.node with it) and Mesa 25's
# software Vulkan driver from bookworm-backports (the WebGPU backend runs on it when no GPU is present).
# The backports suite reuses whatever Debian mirror the machine's apt sources already name.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

mirror=""
for f in /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  uri=$(awk '/^URIs:/ {print $2}' "$f" | grep -v -- '-security' | head -n1 || true)
  if [ -n "$uri" ]; then mirror="$uri"; break; fi
done
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1=="deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list || true)
fi
if [ -z "$mirror" ]; then
  echo "install-system: no Debian mirror found in the apt sources; cannot add bookworm-backports" >&2
  exit 1
fi

if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$mirror" \
    | $SUDO tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium xz-utils
$SUDO apt-get install -y -q --no-install-recommends -t bookworm-backports mesa-vulkan-drivers libvulkan1
# A one-node SLURM for the sharded-run test (test/slurm.test.ts starts and stops it itself). Optional:
# where the packages cannot be installed, that test skips and says why.
$SUDO apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge \
  || echo "install-system: SLURM packages could not be installed; the SLURM test will skip" >&2
