import { STRATEGIES } from '../../shared/config';
import { describeParity } from './testing/parity';

describeParity('wasm', () => [...STRATEGIES], undefined, { calibratedAuto: true });
