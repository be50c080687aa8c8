/**
 * Stage times on the device's clock, put in the stage table the host's spans give. Where a run's
 * calls do not wait for the device at each stage (webgpu, run as a decode runs), a stage span's
 * host time is only the time its work took to be queued; the engine's stage timer gives each span
 * the GPU time of the work it issued instead (engine/backends/stageTimer.ts). The table keeps the
 * host's rows (calls, counted work, the device's counts) and takes its times from the clock that
 * measured them, the host's kept beside; where the device could not time its work the times are
 * not known, and the rows say so rather than show queueing time as stage time.
 */
import type { StageClock, StageTime } from '../../shared/report';
import { electrodeIndexOf } from '../../shared/traceSpans';
import type { GpuSpanTime } from '../engine/model';

interface DeviceRow {
  totalMs: number;
  selfMs: number;
  perElectrode: Map<number, number>;
}

export class DeviceStageTimes {
  private readonly byName = new Map<string, DeviceRow>();

  add(s: GpuSpanTime): void {
    let row = this.byName.get(s.name);
    if (!row) this.byName.set(s.name, (row = { totalMs: 0, selfMs: 0, perElectrode: new Map() }));
    row.totalMs += s.gpuMs;
    row.selfMs += s.gpuSelfMs;
    const electrode = electrodeIndexOf(s.name, s.args);
    if (electrode >= 0) row.perElectrode.set(electrode, (row.perElectrode.get(electrode) ?? 0) + s.gpuMs);
  }

  /**
   * The host's table with its times on `clock`, largest first: 'host' as it is; 'gpu' each stage's
   * GPU time (a stage the timer did not see keeps its host time and says so); 'unsplit' no time.
   */
  onClock(host: readonly StageTime[], clock: StageClock): StageTime[] {
    if (clock === 'host') return [...host];
    const rows = host.map((st): StageTime => {
      const device = clock === 'gpu' ? this.byName.get(st.name) : undefined;
      if (clock === 'gpu' && !device) return { ...st, clock: 'host' };
      const onDevice: StageTime = {
        ...st, clock, totalMs: device?.totalMs ?? 0, selfMs: device?.selfMs ?? 0, hostMs: st.totalMs, hostSelfMs: st.selfMs,
      };
      if (st.byElectrode) onDevice.byElectrode = st.byElectrode.map((e) => ({ ...e, totalMs: device?.perElectrode.get(e.electrode) ?? 0 }));
      return onDevice;
    });
    return rows.sort((a, b) => b.totalMs - a.totalMs || (b.hostMs ?? 0) - (a.hostMs ?? 0) || a.name.localeCompare(b.name));
  }
}
