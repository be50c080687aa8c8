import { describe, expect, it } from 'vitest';
import { applyTf32Setting } from './tf32';

describe('TF32 setting of the engine process', () => {
  it('turns TF32 off unless the run allows it', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(applyTf32Setting(undefined, env)).toBe('off');
    expect(env.NVIDIA_TF32_OVERRIDE).toBe('0');
  });

  it("leaves the user's environment alone when allowed", () => {
    const env: NodeJS.ProcessEnv = { NVIDIA_TF32_OVERRIDE: '1' };
    expect(applyTf32Setting(true, env)).toBe('allowed');
    expect(env.NVIDIA_TF32_OVERRIDE).toBe('1');
  });
});
