/**
 * TF32 on NVIDIA GPUs (Ampere and later) runs float32 matmuls with 10 mantissa bits, silently, in
 * TensorFlow's default configuration: enough to break the engine's parity with the float64
 * reference. The engine process turns it off before TensorFlow loads unless the run allows it.
 */

export type Tf32Setting = 'off' | 'allowed';

/** Sets NVIDIA_TF32_OVERRIDE=0 unless allowed (then the environment is left as the user set it). */
export function applyTf32Setting(allow: boolean | undefined, env: NodeJS.ProcessEnv = process.env): Tf32Setting {
  if (allow === true) return 'allowed';
  env.NVIDIA_TF32_OVERRIDE = '0';
  return 'off';
}
