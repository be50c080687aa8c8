/**
 * A detector's posterior answer for store and component tests: 100 rows of 0.1 s, 4 position
 * bins, non-local between rows 30 and 39 and again from row 90 to the end. Run ids starting with
 * 'decoder' stand for a decoder (one state: no state probabilities), those starting with 'field'
 * for a 2-D decode (samplePosterior2d.ts).
 */
import type { PosteriorRequest, PosteriorView } from '../../../shared/posteriorView';
import { fieldView } from './samplePosterior2d';

export const SAMPLE_POSTERIOR_ROWS = 100;

function nonLocalAt(row: number): number {
  return (row >= 30 && row < 40) || row >= 90 ? 0.95 : 0.05;
}

export function posteriorView(request: PosteriorRequest = {}, runId = 'run-1'): PosteriorView {
  if (runId.startsWith('field')) return fieldView(request);
  const decoder = runId.startsWith('decoder');
  const nTime = SAMPLE_POSTERIOR_ROWS;
  const startRow = request.startRow ?? 0;
  const endRow = request.endRow ?? nTime;
  const rows = Math.min(endRow - startRow, request.maxRows ?? 1000);
  const firstRows = Array.from({ length: rows }, (_, i) => startRow + Math.floor((i * (endRow - startRow)) / rows));
  const binCenters = [10, 30, 50, 70];
  const peakBin = (r: number): number => Math.floor(r / 25) % 4;
  const perBin = firstRows.map((r) => binCenters.map((_, b) => (b === peakBin(r) ? 0.7 : 0.1) * (decoder ? 1 : nonLocalAt(r))));
  // one column (what the whole-decode request asks for) holds each row's whole mass; more, every bin
  const oneColumn = request.maxCols === 1;
  const values = oneColumn ? perBin.map((bins) => bins.reduce((a, b) => a + b, 0)) : perBin.flat();
  const view: PosteriorView = {
    source: request.source ?? 'acausal',
    model: decoder ? 'decoder' : 'detector',
    states: decoder ? ['Continuous'] : ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'],
    spatialStates: decoder ? ['Continuous'] : ['Non-Local Continuous', 'Non-Local Fragmented'],
    nTime, nBins: 4, dims: 1, startRow, endRow, rowsPerRow: (endRow - startRow) / rows, values, rows,
    cols: oneColumn ? 1 : 4, binCenters: oneColumn ? [40] : binCenters,
    time: firstRows.map((r) => r / 10),
    mapPosition: firstRows.map((r) => binCenters[peakBin(r)]!),
    truePosition: firstRows.map((r) => binCenters[peakBin(r)]! + 2),
  };
  if (!decoder) {
    const nl = firstRows.map(nonLocalAt);
    view.stateProbabilities = [nl.map((p) => 1 - p - 0.01), nl.map(() => 0.01), nl.map((p) => p * 0.8), nl.map((p) => p * 0.2)];
    view.nonLocalProbability = nl;
  }
  return view;
}
