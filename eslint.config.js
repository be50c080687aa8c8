/**
 * Lint for the whole repository: typescript-eslint and eslint-plugin-vue for the code, and the
 * architecture as rules that fail the check (eslint-rules/): the import table (who may import
 * whom, and through which door), the house style's sizes, and the engine's op seam.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { DEBT } from './eslint-rules/boundaryTable.js';
import { importBoundariesRule } from './eslint-rules/importBoundaries.js';
import * as plainTextParser from './eslint-rules/plainTextParser.js';
import { FILE_SIZE_DEBT, FUNCTION_SIZE_DEBT } from './eslint-rules/sizeDebt.js';
import { fileSizeRule, functionSizeRule } from './eslint-rules/sizeLimits.js';
import { strategiesCallOpsRule } from './eslint-rules/strategiesCallOps.js';

const REPO_ROOT = path.dirname(fileURLToPath(import.meta.url));

/** Tests and their helpers run under vitest on Node and wire layers together on purpose. */
const TEST_FILES = [
  '**/*.test.ts', '**/testing/**', '**/testing.ts', '**/testData.ts', '**/*.testdata.ts', 'src/main/server/testService.ts',
];

const architecture = {
  rules: {
    'import-boundaries': importBoundariesRule(REPO_ROOT),
    'file-size': fileSizeRule(REPO_ROOT),
    'function-size': functionSizeRule(REPO_ROOT),
    'strategies-call-ops': strategiesCallOpsRule(REPO_ROOT),
  },
};

// ---- The configuration ------------------------------------------------------------------------

/** Plain JS, scripts/ and .vue files are in no TypeScript program (vue-tsc checks the .vue ones). */
const OUTSIDE_TS_PROGRAMS = ['**/*.vue', '**/*.js', '**/*.mjs', '**/*.cjs', 'scripts/**'];

export default defineConfig(
  {
    ignores: ['out/**', 'dist/**', 'runs/**', 'bench/results/**', 'test-artifacts/**', '.vite/**', '.scratch/**', 'coverage/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  pluginVue.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: { project: ['tsconfig.json', 'tsconfig.web.json'], tsconfigRootDir: REPO_ROOT },
    },
  },
  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] },
      globals: globals.browser,
    },
    rules: {
      // vue-tsc checks names in templates and scripts, with the types no-undef cannot see
      'no-undef': 'off',
      // the house style closes void elements (<input ... />) like components
      'vue/html-self-closing': ['error', { html: { void: 'always', normal: 'always', component: 'always' } }],
      // template layout is the author's, as in the rest of the tree (no formatter runs over it):
      // short elements keep their attributes and content on one line
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
    },
  },
  { files: OUTSIDE_TS_PROGRAMS, extends: [tseslint.configs.disableTypeChecked] },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], languageOptions: { globals: globals.node } },
  {
    rules: {
      // `_name` marks a deliberately unused argument or binding (a callback's position, a rest split)
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_',
      }],
      // ProfilerApi methods and their fakes are async without awaiting on purpose: a throw inside
      // must reach the caller as a rejected promise, as the contract says
      '@typescript-eslint/require-await': 'off',
      // a cast that picks a generic's type argument (`tf.sum(…) as tf.Tensor2D`: tfjs ops are generic
      // in their rank) reads as unnecessary to this rule, and its fix breaks the typecheck
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: [...TEST_FILES, 'test/**'],
    rules: {
      // tests walk untyped structures (ECharts options, parsed JSON, fakes) to assert on them
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // errors cross the preload in wire form: contextBridge strips an Error to its message, so a call
    // rejects with the plain SerializedError and the renderer's api/ rebuilds the AppError
    files: ['src/preload/**', 'test/contract/fakeIpc.ts'],
    rules: { '@typescript-eslint/prefer-promise-reject-errors': 'off' },
  },
  {
    // typescript-eslint's program cannot read .vue files (vue-tsc can), so the root component is untyped here
    files: ['src/renderer/src/main.ts'],
    rules: { '@typescript-eslint/no-unsafe-argument': 'off' },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.vue'],
    ignores: TEST_FILES,
    plugins: { architecture },
    rules: {
      'architecture/import-boundaries': ['error', { debt: DEBT }],
      'architecture/file-size': ['error', { max: 300, maxVue: 250, debt: FILE_SIZE_DEBT }],
      'architecture/function-size': ['error', { max: 60, debt: FUNCTION_SIZE_DEBT }],
      'architecture/strategies-call-ops': 'error',
    },
  },
  {
    // the kernels' WebAssembly text: no code for the other rules, a size like any source's
    files: ['src/**/*.wat'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parser: plainTextParser },
    plugins: { architecture },
    rules: { 'architecture/file-size': ['error', { max: 300, debt: FILE_SIZE_DEBT }] },
  },
  {
    // generated by `npm run build:kernels` (the kernels' binary as text): nobody splits it by hand
    files: ['src/main/engine/simd/kdeKernelsBinary.ts'],
    rules: { 'architecture/file-size': 'off' },
  },
);
