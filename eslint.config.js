/**
 * Lint for the whole repository: typescript-eslint and eslint-plugin-vue for the code, and the
 * architecture's import table (who may import whom) as a rule that fails the check.
 *
 * The boundary rule is local because the tree imports by relative path: `../../shared/x` from one
 * folder and `../shared/x` from another name the same module, so a boundary has to be judged on
 * the resolved path, not on the import string (which is all `no-restricted-imports` sees). It also
 * covers `import()`, `export … from` and type-only imports, and it needs no module resolver.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const REPO_ROOT = path.dirname(fileURLToPath(import.meta.url));

// ---- The import table -------------------------------------------------------------------------
// An import's target is its folder in src/ (the longest folder below that contains it), `node:*`
// for a Node built-in, or an npm package name ('*' matches any package, 'scope/*' a scope).

const NO_ELECTRON = {
  deny: ['electron'],
  rule: 'only the Electron composition root (src/main/index.ts) imports electron; ipc/ and appMenu.ts may import its types',
  instead: 'take the Electron object as an argument that src/main/index.ts hands in (as host/ takes utilityProcess)',
};
const ELECTRON_TYPES_ONLY = { ...NO_ELECTRON, typeOnlyAllowed: true };
const NO_TFJS = {
  deny: ['@tensorflow/*'],
  rule: 'TensorFlow.js loads only in the engine (src/main/engine)',
  instead: 'call the engine from engineProcess/, or use src/main/engine/model for tfjs-free decisions',
};
const ENGINE_PROCESS_ONLY = {
  deny: ['src/main/engine', 'src/main/engineProcess'],
  rule: 'the engine (its entry loads TensorFlow.js) and engineProcess/ are imported only inside the engine process, by engineProcess/',
  instead: 'run engine work through the service (host/ spawns engineProcess/engineMain by path); sizes, memory formulas and auto dispatch come from src/main/engine/model',
};
const NO_FRONTEND = {
  deny: ['src/renderer', 'src/preload'],
  rule: 'src/main never imports the renderer or the preload',
  instead: 'move what both sides need into src/shared',
};
const THROUGH_THE_SERVICE = {
  deny: ['src/main/engine', 'src/main/engineProcess', 'src/main/host'],
  rule: 'the CLI, the server and IPC reach the engine only through the service',
  instead: 'call src/main/service (it runs the engine in its own process); tfjs-free decisions come from src/main/engine/model',
};
const SERVICE_SIDE = {
  deny: ['src/main/engine', 'src/main/engineProcess'],
  rule: 'service/ and host/ run in the service process, where the engine never loads',
  instead: 'host/ spawns engineProcess/engineMain by path and talks engineProtocol messages; tfjs-free decisions come from src/main/engine/model',
};
const MAIN_DEFAULTS = [NO_ELECTRON, NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND];

/** Folder (or file) of src/ → the constraints on what its files import, checked in order. */
const BOUNDARIES = {
  'src/shared': [{
    allow: ['src/shared'],
    rule: 'src/shared is the contract: it imports nothing outside src/shared (no node, electron, main or renderer)',
    instead: 'move what it needs into src/shared, or keep the code that needs it on the side that uses it',
  }],
  'src/renderer': [{
    allow: ['src/renderer', 'src/shared', 'vue', 'pinia', 'echarts', 'vue-echarts'],
    rule: 'the renderer imports src/shared, vue, pinia, echarts and vue-echarts only: never node, electron or src/main',
    instead: 'reach the service through ProfilerApi (src/renderer/src/api); what both sides need belongs in src/shared',
  }],
  'src/preload': [{
    allow: ['src/preload', 'src/shared', 'electron'],
    rule: 'the preload imports electron and src/shared (the contract) only',
    instead: 'channel names and argument shapes come from src/shared (ipcChannels, apiArgs); handlers belong in src/main/ipc',
  }],
  'src/main': MAIN_DEFAULTS,
  'src/main/index.ts': [NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND],
  'src/main/appMenu.ts': [ELECTRON_TYPES_ONLY, NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND],
  'src/main/engine': [{
    allow: ['src/main/engine', 'src/main/engine/model', 'src/shared', '@tensorflow/*'],
    rule: 'the engine imports tfjs, engine/model and src/shared only: no node built-ins, electron, recorder or other src/main folder',
    instead: 'do file, process and data work in engineProcess/ (or data/) and pass the result in; report through the EngineProbe handed to the engine',
  }],
  'src/main/engine/model': [{
    allow: ['src/main/engine/model', 'src/shared'],
    rule: 'engine/model is tfjs-free: it imports src/shared and itself only (no tfjs, node, electron, nor the rest of the engine, whose entry loads tfjs)',
    instead: 'move what both need into engine/model; the engine imports the model, never the other way round',
  }],
  'src/main/engineProcess': [NO_ELECTRON, NO_TFJS, {
    allow: [
      'src/main/engineProcess', 'src/main/engine', 'src/main/engine/model', 'src/main/data', 'src/main/recorder',
      'src/main/analysis', 'src/main/engineProtocol', 'src/shared', 'node:*', '*',
    ],
    rule: 'engineProcess/ runs inside the engine process: it imports the engine, engine/model, data/, recorder/, analysis/, engineProtocol/ and src/shared, never the service side (host/, service/, cli/, server/, ipc/)',
    instead: 'send the service an engineProtocol message instead of calling it',
  }],
  'src/main/engineProtocol': [{
    allow: ['src/main/engineProtocol', 'src/shared'],
    rule: 'engineProtocol/ is the wire between host/ and engineProcess/: it imports src/shared and itself only',
    instead: 'keep message types, guards and constants here or in src/shared; behaviour belongs to host/ (service side) or engineProcess/ (engine side)',
  }],
  'src/main/analysis': [{
    allow: ['src/main/analysis', 'src/main/engine/model', 'src/shared'],
    rule: 'analysis/ is data in, data out: it imports src/shared and src/main/engine/model only (no tfjs, node or electron)',
    instead: 'let the caller (service, CLI, engineProcess) read files or run the engine and pass the data in',
  }],
  'src/main/host': [SERVICE_SIDE, ...MAIN_DEFAULTS],
  'src/main/service': [SERVICE_SIDE, ...MAIN_DEFAULTS],
  'src/main/cli': [THROUGH_THE_SERVICE, ...MAIN_DEFAULTS],
  'src/main/server': [THROUGH_THE_SERVICE, ...MAIN_DEFAULTS],
  'src/main/ipc': [THROUGH_THE_SERVICE, ELECTRON_TYPES_ONLY, NO_TFJS, NO_FRONTEND],
  'src/main/data': MAIN_DEFAULTS,
  'src/main/export': MAIN_DEFAULTS,
  'src/main/recorder': MAIN_DEFAULTS,
};

/**
 * Named debt: imports that break the table today, each with the reason and its way out. An entry
 * that no longer matches an import is reported, so the list only shrinks.
 */
export const DEBT = [];

/** Tests and their helpers run under vitest on Node and wire layers together on purpose. */
const TEST_FILES = [
  '**/*.test.ts', '**/testing/**', '**/testing.ts', '**/testData.ts', '**/*.testdata.ts', 'src/main/server/testService.ts',
];

// ---- The boundary rule ------------------------------------------------------------------------

/** The table keyed by path without extension, so `src/main/index` names src/main/index.ts too. */
const ZONES = new Map(Object.entries(BOUNDARIES).map(([key, constraints]) => [stripExtension(key), { key, constraints }]));
const NODE_BUILTINS = new Set(builtinModules);

function stripExtension(repoPath) {
  return repoPath.replace(/\.(ts|js|mjs|cjs|vue|json)$/, '');
}

/** The folder of the table a repository path belongs to (the longest match), or null. */
function zoneOf(repoPath) {
  const bare = stripExtension(repoPath);
  const inside = [...ZONES.keys()].filter((zone) => bare === zone || bare.startsWith(`${zone}/`));
  return inside.sort((a, b) => b.length - a.length)[0] ?? null;
}

/** What an import names: { kind: 'path', name: folder or repo path } | { kind: 'node' } | { kind: 'package', name }. */
function targetOf(specifier, importerPath) {
  if (specifier.startsWith('.')) {
    const repoPath = path.posix.normalize(path.posix.join(path.posix.dirname(importerPath), specifier));
    return { kind: 'path', name: zoneOf(repoPath) ?? repoPath };
  }
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0])) return { kind: 'node' };
  const parts = specifier.split('/');
  return { kind: 'package', name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

function matches(pattern, target) {
  if (target.kind === 'node') return pattern === 'node:*';
  if (target.kind === 'path') return stripExtension(pattern) === target.name;
  if (pattern === '*' || pattern === target.name) return true;
  return pattern.endsWith('/*') && target.name.startsWith(pattern.slice(0, -1));
}

function breaks(constraint, target, typeOnly) {
  if (typeOnly && constraint.typeOnlyAllowed) return false;
  if (constraint.allow) return !constraint.allow.some((pattern) => matches(pattern, target));
  return constraint.deny.some((pattern) => matches(pattern, target));
}

/** The module an import names when it is written out (`'x'` or `` `x` ``); null when computed. */
function specifierOf(source) {
  if (source?.type === 'Literal' && typeof source.value === 'string') return source.value;
  if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) return source.quasis[0].value.cooked;
  return null;
}

function isTypeOnly(node) {
  if (node.type === 'TSImportType' || node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the architecture table (who may import whom)' },
    // the debt list comes in as the rule's option, so a test can hand it a list of its own
    schema: [{ type: 'object', properties: { debt: { type: 'array' } }, additionalProperties: false }],
    messages: {
      boundary: '{{zone}} may not import "{{specifier}}". Architecture rule: {{rule}}. Instead: {{instead}}.',
      staleDebt: 'DEBT in eslint.config.js lists "{{specifier}}" for this file, which no longer imports it: remove the entry.',
    },
  },
  create(context) {
    const importerPath = path.relative(REPO_ROOT, context.physicalFilename).split(path.sep).join('/');
    const zone = zoneOf(importerPath);
    if (zone === null) return {};
    const { key, constraints } = ZONES.get(zone);
    const debtList = context.options[0]?.debt ?? DEBT;
    const debts = debtList.filter((entry) => entry.file === importerPath);
    const debtsSeen = new Set();

    function check(node, source) {
      const specifier = specifierOf(source);
      if (specifier === null) return;
      const debt = debts.find((entry) => entry.import === specifier);
      if (debt) {
        debtsSeen.add(debt);
        return;
      }
      const target = targetOf(specifier, importerPath);
      const broken = constraints.find((constraint) => breaks(constraint, target, isTypeOnly(node)));
      if (broken) context.report({ node: source, messageId: 'boundary', data: { zone: key, specifier, rule: broken.rule, instead: broken.instead } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSExternalModuleReference: (node) => check(node.parent, node.expression),
      TSImportType: (node) => check(node, node.argument.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      'Program:exit': (program) => {
        for (const debt of debts.filter((entry) => !debtsSeen.has(entry))) {
          context.report({ node: program, messageId: 'staleDebt', data: { specifier: debt.import } });
        }
      },
    };
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
    plugins: { architecture: { rules: { 'import-boundaries': importBoundaries } } },
    rules: { 'architecture/import-boundaries': ['error', { debt: DEBT }] },
  },
);
