/**
 * A parser for files that hold no JavaScript (the kernels' WebAssembly text, .wat): the text becomes
 * an empty program, so the rules that read only a file's text (its size) run on it, and every rule
 * that looks for code finds none.
 */

export function parseForESLint(text) {
  const lines = text.split('\n');
  const end = { line: lines.length, column: lines[lines.length - 1].length };
  return {
    ast: { type: 'Program', sourceType: 'module', body: [], tokens: [], comments: [], range: [0, text.length], loc: { start: { line: 1, column: 0 }, end } },
    visitorKeys: { Program: [] },
  };
}

export const meta = { name: 'plain-text', version: '1' };
