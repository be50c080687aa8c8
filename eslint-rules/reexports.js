/**
 * What a module hands on from other modules, for the import-boundary rule's check of a folder's
 * index.ts: `export … from`, `export * from` and an imported binding exported again
 * (`import { a } from 'x'; export { a }`), each with the names it passes and whether only types
 * pass. The modules a door re-exports from inside its own folder are read from disk (or from
 * `sources`, which a test hands in) and parsed, so a re-export is followed to where its names are
 * declared.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * One re-export: `source` the module it names as written, `names` the names asked of it ('*' for
 * all), `exported` the names it is handed on as ('*' for all), `typeOnly` whether only types pass.
 */
function reexport(node, source, names, exported, typeOnly) {
  return { node, source, names, exported, typeOnly };
}

function nameOf(identifier) {
  return identifier.type === 'Identifier' ? identifier.name : String(identifier.value);
}

/** The bindings a module imports, by local name: where from, as what, whether a type only. */
function importBindings(program) {
  const bindings = new Map();
  for (const node of program.body) {
    if (node.type !== 'ImportDeclaration') continue;
    for (const s of node.specifiers) {
      const imported = s.type === 'ImportNamespaceSpecifier' ? '*' : s.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(s.imported);
      bindings.set(s.local.name, { node, source: node.source.value, imported, typeOnly: node.importKind === 'type' || s.importKind === 'type' });
    }
  }
  return bindings;
}

/** Every re-export of a parsed module, and the names it declares itself. */
export function reexportsOf(program) {
  const bindings = importBindings(program);
  const found = [];
  const declared = new Set();
  for (const node of program.body) {
    if (node.type === 'ExportAllDeclaration') {
      found.push(reexport(node, node.source.value, '*', node.exported ? [nameOf(node.exported)] : '*', node.exportKind === 'type'));
    } else if (node.type === 'ExportNamedDeclaration' && node.source) {
      for (const s of node.specifiers) {
        found.push(reexport(node, node.source.value, [nameOf(s.local)], [nameOf(s.exported)], node.exportKind === 'type' || s.exportKind === 'type'));
      }
    } else if (node.type === 'ExportNamedDeclaration') {
      for (const s of node.specifiers) {
        const binding = bindings.get(nameOf(s.local));
        if (!binding) {
          declared.add(nameOf(s.exported));
          continue;
        }
        const typeOnly = binding.typeOnly || node.exportKind === 'type' || s.exportKind === 'type';
        found.push(reexport(node, binding.source, binding.imported === '*' ? '*' : [binding.imported], [nameOf(s.exported)], typeOnly));
      }
      for (const d of node.declaration?.declarations ?? []) if (d.id.type === 'Identifier') declared.add(d.id.name);
      if (node.declaration?.id) declared.add(node.declaration.id.name);
    }
  }
  return { reexports: found, declared };
}

const parsed = new Map();

function parse(code) {
  return tseslint.parser.parseForESLint(code, { sourceType: 'module', ecmaVersion: 'latest', range: true, loc: true }).ast;
}

/** The file a module path (repository-relative, no extension) names, or null. */
function moduleFile(repoRoot, bare, sources) {
  for (const candidate of [`${bare}.ts`, `${bare}/index.ts`, `${bare}.js`, `${bare}/index.js`]) {
    if (Object.hasOwn(sources, candidate) || existsSync(path.join(repoRoot, candidate))) return candidate;
  }
  return null;
}

/** A module's re-exports, parsed once per version of the file; null when it cannot be read. */
function moduleReexports(repoRoot, file, sources) {
  if (Object.hasOwn(sources, file)) return reexportsOf(parse(sources[file]));
  const full = path.join(repoRoot, file);
  const stamp = statSync(full).mtimeMs;
  const known = parsed.get(full);
  if (known?.stamp === stamp) return known.value;
  let value = null;
  try {
    value = reexportsOf(parse(readFileSync(full, 'utf8')));
  } catch {
    // a module that does not parse is the parser's error to report, in its own file
  }
  parsed.set(full, { stamp, value });
  return value;
}

/** The names to ask of `next`'s module for the names `wanted` of the module that hands them on ('*': all). */
function namesAsked(next, wanted) {
  if (next.exported === '*') return wanted;
  if (next.names === '*') return next.exported.some((n) => wanted === '*' || wanted.includes(n)) ? '*' : [];
  return next.names.filter((_, i) => wanted === '*' || wanted.includes(next.exported[i]));
}

/**
 * Where the names of one re-export come from: the import targets outside the door's folder that
 * declare them, each { target, typeOnly }. `targetOf(specifier, fromFile)` says what an import
 * names (the rule's own reading: a folder of the table, node, a package); `inside(target)` whether
 * it is a module of the door's folder, which is read and its own re-exports followed.
 */
export function originsOf(entry, fromFile, context, seen = new Set()) {
  const { repoRoot, targetOf, inside, sources = {} } = context;
  const target = targetOf(entry.source, fromFile);
  if (!inside(target)) return [{ target, typeOnly: entry.typeOnly }];
  const file = moduleFile(repoRoot, target.path, sources);
  const key = `${file}:${entry.names === '*' ? '*' : entry.names.join(',')}`;
  if (file === null || seen.has(key)) return [];
  seen.add(key);
  const module = moduleReexports(repoRoot, file, sources);
  if (module === null) return [];
  const wanted = entry.names === '*' ? '*' : entry.names.filter((n) => !module.declared.has(n));
  return module.reexports.flatMap((next) => {
    const names = namesAsked(next, wanted);
    if (names !== '*' && names.length === 0) return [];
    return originsOf({ ...next, names, typeOnly: entry.typeOnly || next.typeOnly }, file, context, seen);
  });
}
