/**
 * The house style's sizes as lint rules: a file under 300 lines (.ts, .wat) or 250 (.vue), a
 * function under 60 lines of code, a .vue file's `<script setup>` block (the body of its setup
 * function) included. What is over today is named debt (sizeDebt.js) with the size it may not grow
 * past; an entry that no longer matches anything over the limit is reported, so the list only
 * shrinks.
 */

import path from 'node:path';

/** Lines holding at least one token: blank lines and comment-only lines do not count. */
function codeLines(sourceCode, ...nodes) {
  const lines = new Set();
  for (const node of nodes) {
    for (const token of sourceCode.getTokens(node)) {
      for (let line = token.loc.start.line; line <= token.loc.end.line; line++) lines.add(line);
    }
  }
  return lines.size;
}

/** What the rule calls a .vue file's `<script setup>` block, which Vue compiles into one function. */
export const SCRIPT_SETUP = '<script setup>';

/** A .vue file's `<script setup>` element, from vue-eslint-parser's document; null elsewhere. */
function scriptSetupElement(sourceCode) {
  const document = sourceCode.parserServices?.getDocumentFragment?.();
  const isSetup = (a) => !a.directive && a.key.name === 'setup';
  return document?.children.find((e) => e.type === 'VElement' && e.name === 'script' && e.startTag.attributes.some(isSetup)) ?? null;
}

/**
 * The statements of `<script setup>` that become the body of the component's setup function: all
 * but its imports, which the compiler hoists out of it.
 */
function scriptSetupBody(sourceCode, program) {
  const element = scriptSetupElement(sourceCode);
  if (!element) return [];
  const [from, to] = element.range;
  return program.body.filter((s) => s.range[0] >= from && s.range[1] <= to && s.type !== 'ImportDeclaration');
}

function keyName(key) {
  if (!key) return null;
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return key.name;
  if (key.type === 'Literal') return String(key.value);
  return null;
}

function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression') return keyName(callee.property);
  return null;
}

/**
 * The name a person would look for: a declaration's name, the variable or property it is
 * assigned to, `Class.method`, or `defineStore callback` for a function passed to a call.
 */
export function functionName(node) {
  if (node.id?.name) return node.id.name;
  const parent = node.parent;
  if (parent?.type === 'VariableDeclarator') return keyName(parent.id);
  if (parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') {
    const owner = parent.parent?.parent?.id?.name;
    const method = keyName(parent.key);
    return owner ? `${owner}.${method}` : method;
  }
  if (parent?.type === 'Property') return keyName(parent.key);
  if (parent?.type === 'CallExpression' && parent.arguments.includes(node)) {
    const callee = calleeName(parent.callee);
    return callee ? `${callee} callback` : 'anonymous';
  }
  return 'anonymous';
}

function debtSchema() {
  return [{
    type: 'object',
    properties: { max: { type: 'number' }, maxVue: { type: 'number' }, debt: { type: 'array' } },
    additionalProperties: false,
  }];
}

/** Reports debt entries of this file that nothing over the limit used. */
function reportUnusedDebt(context, program, entries, seen, describe) {
  for (const entry of entries.filter((e) => !seen.has(e))) {
    context.report({ node: program, messageId: 'staleDebt', data: { what: describe(entry) } });
  }
}

function repoPathOf(context, repoRoot) {
  return path.relative(repoRoot, context.physicalFilename).split(path.sep).join('/');
}

export function fileSizeRule(repoRoot) {
  return {
    meta: {
      type: 'suggestion',
      docs: { description: 'A file stays under the house style size (docs/architecture.md, House style)' },
      schema: debtSchema(),
      messages: {
        tooLong: 'This file has {{lines}} lines; the house style is at most {{max}}. Split it by concern: one file, one thing.',
        grew: 'This file has {{lines}} lines, past the {{debt}} its debt entry in eslint-rules/sizeDebt.js allows. Split it rather than raise the entry.',
        staleDebt: 'eslint-rules/sizeDebt.js lists {{what}} as over the size limit, and it no longer is: remove the entry.',
      },
    },
    create(context) {
      const { max = 300, maxVue = 250, debt = [] } = context.options[0] ?? {};
      const file = repoPathOf(context, repoRoot);
      const limit = file.endsWith('.vue') ? maxVue : max;
      const entries = debt.filter((entry) => entry.file === file);
      return {
        'Program:exit': (program) => {
          const text = context.sourceCode.text;
          const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
          const seen = new Set();
          if (lines > limit) {
            const entry = entries[0];
            if (!entry) context.report({ node: program, messageId: 'tooLong', data: { lines, max: limit } });
            else {
              seen.add(entry);
              if (lines > entry.lines) context.report({ node: program, messageId: 'grew', data: { lines, debt: entry.lines } });
            }
          }
          reportUnusedDebt(context, program, entries, seen, () => `${file}`);
        },
      };
    },
  };
}

export function functionSizeRule(repoRoot) {
  return {
    meta: {
      type: 'suggestion',
      docs: { description: 'A function stays under 60 lines of code (docs/architecture.md, House style)' },
      schema: debtSchema(),
      messages: {
        tooLong: "Function '{{name}}' has {{lines}} lines of code; the house style is at most {{max}}. Split it into steps with names of their own.",
        setupTooLong: "This component's <script setup> has {{lines}} lines of code besides its imports; the house style is at most {{max}} (it is its setup function). Move a concern into a composable or a child component.",
        grew: "Function '{{name}}' has {{lines}} lines of code, past the {{debt}} its debt entry in eslint-rules/sizeDebt.js allows. Split it rather than raise the entry.",
        staleDebt: 'eslint-rules/sizeDebt.js lists {{what}} as over the size limit, and it no longer is (or has another name): remove the entry.',
      },
    },
    create(context) {
      const { max = 60, debt = [] } = context.options[0] ?? {};
      const file = repoPathOf(context, repoRoot);
      const entries = debt.filter((entry) => entry.file === file);
      const seen = new Set();
      function judge(node, name, lines) {
        if (lines <= max) return;
        const entry = entries.find((e) => e.function === name);
        if (!entry) {
          context.report({ node, messageId: name === SCRIPT_SETUP ? 'setupTooLong' : 'tooLong', data: { name, lines, max } });
          return;
        }
        seen.add(entry);
        if (lines > entry.lines) context.report({ node, messageId: 'grew', data: { name, lines, debt: entry.lines } });
      }
      const check = (node) => judge(node, functionName(node), codeLines(context.sourceCode, node));
      return {
        FunctionDeclaration: check,
        FunctionExpression: check,
        ArrowFunctionExpression: check,
        'Program:exit': (program) => {
          const setup = scriptSetupBody(context.sourceCode, program);
          if (setup.length > 0) judge(setup[0], SCRIPT_SETUP, codeLines(context.sourceCode, ...setup));
          reportUnusedDebt(context, program, entries, seen, (e) => `'${e.function}' in ${file}`);
        },
      };
    },
  };
}
