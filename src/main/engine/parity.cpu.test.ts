import { STRATEGIES } from '../../shared/config';
import { describeParity } from './testing/parity';

// The plain-JS backend needs ~45 s per log-space strategy on `medium`; that fixture runs the two
// matmul strategies there, every other fixture runs all six.
describeParity('cpu', (fixture) => (fixture.includes('medium') ? ['reference', 'compensated'] : [...STRATEGIES]));
