import { listBackends } from './index';
import { describeParity } from './testing/parity';

// WebGPU needs a Vulkan/Metal/D3D12 driver (here Mesa's lavapipe from bookworm-backports, which
// .ci/install-system.sh installs). Without an adapter the cases skip and say why.
let available: boolean | null = null;
async function ready(): Promise<boolean> {
  if (available === null) {
    const web = (await listBackends()).find((b) => b.name === 'webgpu')!;
    available = web.available;
    if (!available) console.warn(`webgpu parity skipped: ${web.detail}`);
  }
  return available;
}

describeParity('webgpu', (fixture) => (fixture.includes('medium') ? ['reference', 'compensated'] : ['reference', 'compensated', 'streaming']), ready);

// the same strategies with stages that do not wait for the device: each predict's rows summed there and read back once
describeParity('webgpu', (fixture) => (fixture.includes('medium') ? ['compensated'] : ['reference', 'compensated', 'streaming']), ready, {
  predictOptions: { stageSync: false }, label: ', rows summed on the device',
});
