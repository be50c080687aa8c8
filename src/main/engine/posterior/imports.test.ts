/**
 * The folder is the host-side float32 implementation, a tier of its own in the import table
 * (eslint-rules/boundaryTable.js); this test keeps the stricter shape of its imports too: each
 * module imports only its own folder's modules and src/shared's, by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SOURCES = readdirSync(HERE).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'testing.ts');

describe('posterior imports', () => {
  it.each(SOURCES)('%s imports only its own folder and src/shared', (file) => {
    const text = readFileSync(HERE + file, 'utf8');
    const specifiers = [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]!);
    for (const specifier of specifiers) expect(specifier).toMatch(/^(\.\/[A-Za-z]+|\.\.\/\.\.\/\.\.\/shared\/[A-Za-z]+)$/);
  });

  it('covers the modules', () => {
    expect(SOURCES).toContain('index.ts');
    expect(SOURCES.length).toBeGreaterThan(10);
  });
});
