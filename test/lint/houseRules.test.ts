/**
 * The house style's size limits and the engine's op seam bite: snippets linted as if they were
 * files of the tree get the rule's message, debt entries let today's offenders pass without
 * growing, and an entry that no longer matches is reported.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface SizeDebt {
  file: string;
  function?: string;
  lines: number;
  why: string;
}

function linter(ruleId: string, options?: unknown): ESLint {
  const rules = options === undefined ? {} : { [ruleId]: ['error', options] as const };
  return new ESLint({
    cwd: REPO_ROOT,
    overrideConfig: [tseslint.configs.disableTypeChecked, { rules }],
    ruleFilter: ({ ruleId: id }) => id === ruleId,
  });
}

async function messages(eslint: ESLint, code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result?.messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath} did not parse: ${fatal.message}`);
  return (result?.messages ?? []).map((m) => m.message);
}

/** A function declaration of `lines` lines of code, with blank and comment lines between that do not count. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 3 }, (_, i) => `  const v${i} = ${i};\n\n  // a comment line\n`).join('');
  return `export function ${name}(): number {\n${body}  return 0;\n}\n`;
}

describe('function size', () => {
  const FUNCTION_SIZE = 'architecture/function-size';
  const file = 'src/main/data/probe.ts';

  it('refuses a function over 60 lines of code, by name, and counts no blank or comment line', async () => {
    const eslint = linter(FUNCTION_SIZE, { max: 60, debt: [] });
    expect(await messages(eslint, functionOf('readEverything', 60), file)).toEqual([]);
    expect(await messages(eslint, functionOf('readEverything', 61), file)).toEqual([
      "Function 'readEverything' has 61 lines of code; the house style is at most 60. Split it into steps with names of their own.",
    ]);
  });

  it('names a store setup by its call and a method by its class', async () => {
    const eslint = linter(FUNCTION_SIZE, { max: 3, debt: [] });
    const store = "export const useProbe = defineStore('probe', () => {\n  const a = 1;\n  const b = 2;\n  return { a, b };\n});\n";
    expect(await messages(eslint, store, 'src/renderer/src/stores/probe.ts')).toEqual([expect.stringContaining("Function 'defineStore callback' has 5")]);
    const method = 'export class Run {\n  execute(): number {\n    const a = 1;\n    const b = 2;\n    return a + b;\n  }\n}\n';
    expect(await messages(eslint, method, file)).toEqual([expect.stringContaining("Function 'Run.execute' has 5")]);
  });

  it('lets a debt entry pass at its size, refuses growth past it, and reports an entry with nothing over the limit', async () => {
    const entry: SizeDebt = { file, function: 'readEverything', lines: 70, why: 'a fixture entry for this test' };
    const eslint = linter(FUNCTION_SIZE, { max: 60, debt: [entry] });
    expect(await messages(eslint, functionOf('readEverything', 70), file)).toEqual([]);
    expect(await messages(eslint, functionOf('readEverything', 71), file)).toEqual([expect.stringContaining('past the 70 its debt entry')]);
    expect(await messages(eslint, functionOf('readEverything', 40), file)).toEqual([expect.stringContaining("lists 'readEverything' in src/main/data/probe.ts as over the size limit")]);
  });
});

describe("a .vue file's <script setup>", () => {
  const FUNCTION_SIZE = 'architecture/function-size';
  const file = 'src/renderer/src/components/Probe.vue';
  /** a component whose <script setup> holds `lines` lines of code besides its imports, with blank and comment lines between */
  const component = (lines: number) => [
    '<script setup lang="ts">',
    "import { ref } from 'vue';",
    "import { computed } from 'vue';",
    ...Array.from({ length: lines }, (_, i) => `const v${i} = ref(${i});\n\n// a comment line`),
    'const all = computed(() => v0.value);',
    '</script>',
    '',
    '<template>',
    '  <p>{{ all }}</p>',
    '</template>',
    '',
  ].join('\n');

  it("is its setup function: the repository's lint refuses one over 60 lines of code, its imports and blank and comment lines aside", async () => {
    const eslint = linter(FUNCTION_SIZE);
    expect(await messages(eslint, component(59), file)).toEqual([]);
    expect(await messages(eslint, component(60), file)).toEqual([
      "This component's <script setup> has 61 lines of code besides its imports; the house style is at most 60 (it is its setup function). Move a concern into a composable or a child component.",
    ]);
  });

  it('lets a debt entry named <script setup> pass at its size and refuses growth past it', async () => {
    const entry: SizeDebt = { file, function: '<script setup>', lines: 70, why: 'a fixture entry for this test' };
    const eslint = linter(FUNCTION_SIZE, { max: 60, debt: [entry] });
    expect(await messages(eslint, component(69), file)).toEqual([]);
    expect(await messages(eslint, component(70), file)).toEqual([expect.stringContaining("Function '<script setup>' has 71 lines of code, past the 70 its debt entry")]);
    expect(await messages(eslint, component(10), file)).toEqual([expect.stringContaining("lists '<script setup>' in src/renderer/src/components/Probe.vue as over the size limit")]);
  });

  it('leaves a component without <script setup> to the rule for functions', async () => {
    const eslint = linter(FUNCTION_SIZE);
    const options = `<script lang="ts">\nexport default { data: () => ({ a: 1 }) };\n${lines(80)}</script>\n<template>\n  <p />\n</template>\n`;
    expect(await messages(eslint, options, file)).toEqual([]);
  });
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');

describe('file size', () => {
  const FILE_SIZE = 'architecture/file-size';

  it('refuses a .ts over 300 lines and a .vue over 250', async () => {
    const eslint = linter(FILE_SIZE, { max: 300, maxVue: 250, debt: [] });
    expect(await messages(eslint, lines(300), 'src/main/data/probe.ts')).toEqual([]);
    expect(await messages(eslint, lines(301), 'src/main/data/probe.ts')).toEqual([
      'This file has 301 lines; the house style is at most 300. Split it by concern: one file, one thing.',
    ]);
    const vue = (n: number) => `<template>\n  <p />\n</template>\n<script setup lang="ts">\n${lines(n - 5)}</script>\n`;
    expect(await messages(eslint, vue(250), 'src/renderer/src/components/Probe.vue')).toEqual([]);
    expect(await messages(eslint, vue(251), 'src/renderer/src/components/Probe.vue')).toEqual([expect.stringContaining('has 251 lines; the house style is at most 250')]);
  });

  it("the repository's lint holds a .wat (the kernels' WebAssembly text) under 300 lines", async () => {
    const eslint = linter(FILE_SIZE);
    const wat = (n: number) => ['(module', ...Array.from({ length: n - 2 }, (_, i) => `  (func $f${i})`), ')', ''].join('\n');
    expect(await messages(eslint, wat(300), 'src/main/engine/simd/probe.wat')).toEqual([]);
    expect(await messages(eslint, wat(301), 'src/main/engine/simd/probe.wat')).toEqual([
      'This file has 301 lines; the house style is at most 300. Split it by concern: one file, one thing.',
    ]);
  });

  it('holds a file in debt at its size and reports the entry once the file is small', async () => {
    const entry: SizeDebt = { file: 'src/main/data/probe.ts', lines: 320, why: 'a fixture entry for this test' };
    const eslint = linter(FILE_SIZE, { max: 300, maxVue: 250, debt: [entry] });
    expect(await messages(eslint, lines(320), entry.file)).toEqual([]);
    expect(await messages(eslint, lines(321), entry.file)).toEqual([expect.stringContaining('past the 320 its debt entry')]);
    expect(await messages(eslint, lines(10), entry.file)).toEqual([expect.stringContaining('no longer is: remove the entry')]);
  });

  it('every size debt entry in the config names its size and says why', async () => {
    const debt = (await import(pathToFileURL(`${REPO_ROOT}eslint-rules/sizeDebt.js`).href)) as { FILE_SIZE_DEBT: SizeDebt[]; FUNCTION_SIZE_DEBT: SizeDebt[] };
    for (const entry of [...debt.FILE_SIZE_DEBT, ...debt.FUNCTION_SIZE_DEBT]) {
      expect(entry.lines).toBeGreaterThan(0);
      expect(entry.why.length).toBeGreaterThan(20);
    }
    for (const entry of debt.FUNCTION_SIZE_DEBT) expect(entry.function).toBeTruthy();
  });

  it('every size debt entry names a file that exists (the rule cannot report an entry for a file that is gone)', async () => {
    const debt = (await import(pathToFileURL(`${REPO_ROOT}eslint-rules/sizeDebt.js`).href)) as { FILE_SIZE_DEBT: SizeDebt[]; FUNCTION_SIZE_DEBT: SizeDebt[] };
    const missing = [...debt.FILE_SIZE_DEBT, ...debt.FUNCTION_SIZE_DEBT].map((e) => e.file).filter((file) => !existsSync(`${REPO_ROOT}${file}`));
    expect(missing).toEqual([]);
  });
});

describe('strategies call ops', () => {
  const RULE = 'architecture/strategies-call-ops';
  const eslint = linter(RULE);
  const file = 'src/main/engine/strategies/probe.ts';

  it('refuses a strategy that asks for the backend or reaches its kernels', async () => {
    expect(await messages(eslint, "import { gauss } from '../simd/gaussKernels';\nexport { gauss };", file)).toEqual([expect.stringMatching(/may not import "\.\.\/simd\/gaussKernels".*call or add an op/)]);
    // judged on the resolved path: from a strategy's own folder, '../backends' is not the engine's
    expect(await messages(eslint, "import { initBackend } from '../backends';\nexport { initBackend };", 'src/main/engine/strategies/series/probe.ts')).toHaveLength(0);
    expect(await messages(eslint, "import { initBackend } from '../../backends';\nexport { initBackend };", 'src/main/engine/strategies/series/probe.ts')).toEqual([expect.stringContaining('may not import "../../backends"')]);
    // the backends are a room: its door and every module behind it are refused alike
    expect(await messages(eslint, "import { initBackend } from '../backends/backends';\nexport { initBackend };", file)).toEqual([expect.stringContaining('may not import "../backends/backends"')]);
    expect(await messages(eslint, "import { makeStageTools } from '../backends/sync';\nexport { makeStageTools };", file)).toEqual([expect.stringContaining('may not import "../backends/sync"')]);
    expect(await messages(eslint, 'declare const tf: { getBackend(): string };\nexport const fused = tf.getBackend() === "wasm";', file)).toEqual([expect.stringMatching(/may not ask which backend it runs on \(getBackend\(\)\)/)]);
    expect(await messages(eslint, 'declare function hasWasmKernels(): boolean;\nexport const fused = hasWasmKernels();', file)).toEqual([expect.stringContaining('(hasWasmKernels())')]);
  });

  it('lets a strategy call ops, and leaves the rest of the engine alone', async () => {
    expect(await messages(eslint, "import { gaussianKernelMatrix } from '../ops';\nexport { gaussianKernelMatrix };", file)).toEqual([]);
    expect(await messages(eslint, "import { prepareMarks } from '../gaussian';\nimport { maxFinite } from '../hostMath';\nexport { prepareMarks, maxFinite };", file)).toEqual([]);
    expect(await messages(eslint, 'declare const tf: { getBackend(): string };\nexport const fused = tf.getBackend() === "wasm";', 'src/main/engine/ops/probe.ts')).toEqual([]);
  });
});
