/**
 * Discrete (state-to-state) transitions and initial probabilities of posterior-spec §5–§6, in
 * float64 as upstream builds them. Rows are "from" states, columns "to" states.
 */

/**
 * NonLocalClusterlessDetector's default, order Local, No-Spike, Non-Local Continuous, Non-Local
 * Fragmented; the off-diagonal entries are the float64 expressions upstream evaluates, so they
 * carry its rounding (0.01750000000000002, not 0.0175).
 */
export function detectorDiscreteTransition(): number[][] {
  const noSpike = 5e-3;
  const [local, stayNoSpike, continuous, fragmented] = [0.99, 0.98, 0.96, 0.96];
  return [
    [local, noSpike, (1 - local - noSpike) / 2, (1 - local - noSpike) / 2],
    [(1 - stayNoSpike) / 3, stayNoSpike, (1 - stayNoSpike) / 3, (1 - stayNoSpike) / 3],
    [(1 - continuous - noSpike) / 2, noSpike, continuous, (1 - continuous - noSpike) / 2],
    [(1 - fragmented - noSpike) / 2, noSpike, (1 - fragmented - noSpike) / 2, fragmented],
  ];
}

/** DiscreteStationaryDiagonal([1.0]) of the decoder: one state that always stays. */
export function decoderDiscreteTransition(): number[][] {
  return [[1.0]];
}

/** The detector starts in Local with certainty (§6); a uniform start is one of §15's traps. */
export function detectorDiscreteInitial(): number[] {
  return [1, 0, 0, 0];
}

export function decoderDiscreteInitial(): number[] {
  return [1];
}

/** S × S, every row a probability distribution over the next state. */
export function checkDiscreteTransition(matrix: number[][], nStates: number): void {
  if (matrix.length !== nStates || matrix.some((row) => row.length !== nStates)) {
    throw new RangeError(`discrete transition must be ${nStates} × ${nStates}`);
  }
  for (const row of matrix) {
    const sum = row.reduce((a, b) => a + b, 0);
    if (row.some((v) => !(v >= 0)) || Math.abs(sum - 1) > 1e-9) {
      throw new RangeError(`discrete transition rows must be probabilities summing to 1, got [${row.join(', ')}]`);
    }
  }
}
