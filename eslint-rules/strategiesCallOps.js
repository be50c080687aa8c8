/**
 * The engine's seam, as TensorFlow.js draws its own: op → kernel → backend. A strategy calls ops
 * (src/main/engine/ops); an op chooses its kernel for the backend it runs on. A strategy that
 * asks which backend it is on, or reaches the wasm kernels itself, would need one more branch
 * for every backend that gains a kernel.
 */
import path from 'node:path';

const STRATEGIES = 'src/main/engine/strategies/';
/** the wasm kernels (simd/) and the backends' room (backends/: choosing one, its calibration, waiting for its device), whole */
const BACKEND_MODULES = ['src/main/engine/simd', 'src/main/engine/webgpu', 'src/main/engine/backends'];
const BACKEND_QUESTIONS = new Set(['hasWasmKernels', 'getBackend', 'findBackend', 'backend']);

function specifierOf(source) {
  if (source?.type === 'Literal' && typeof source.value === 'string') return source.value;
  if (source?.type === 'TemplateLiteral' && source.expressions.length === 0) return source.quasis[0].value.cooked;
  return null;
}

function calledName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') return callee.property.name;
  return null;
}

export function strategiesCallOpsRule(repoRoot) {
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Strategies call engine/ops and never branch on the backend' },
      schema: [],
      messages: {
        backendImport: 'A strategy may not import "{{specifier}}" (the backends and their kernels). Architecture rule: strategies call engine/ops; an op chooses its kernel for the backend. Instead: call or add an op in src/main/engine/ops/.',
        backendQuestion: 'A strategy may not ask which backend it runs on ({{name}}()). Architecture rule: strategies call engine/ops; an op chooses its kernel for the backend. Instead: ask the op what it can run (its own capability check in src/main/engine/ops/).',
      },
    },
    create(context) {
      const file = path.relative(repoRoot, context.physicalFilename).split(path.sep).join('/');
      if (!file.startsWith(STRATEGIES)) return {};
      function checkImport(source) {
        const specifier = specifierOf(source);
        if (specifier === null || !specifier.startsWith('.')) return;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.(ts|js)$/, '');
        if (BACKEND_MODULES.some((m) => target === m || target.startsWith(`${m}/`))) {
          context.report({ node: source, messageId: 'backendImport', data: { specifier } });
        }
      }
      return {
        ImportDeclaration: (node) => checkImport(node.source),
        ExportNamedDeclaration: (node) => checkImport(node.source),
        ExportAllDeclaration: (node) => checkImport(node.source),
        ImportExpression: (node) => checkImport(node.source),
        CallExpression: (node) => {
          const name = calledName(node.callee);
          if (name !== null && BACKEND_QUESTIONS.has(name)) context.report({ node, messageId: 'backendQuestion', data: { name } });
        },
      };
    },
  };
}
