/**
 * The architecture's import table as a lint rule (the table itself: boundaryTable.js).
 *
 * The rule is local because the tree imports by relative path: `../../shared/x` from one folder
 * and `../shared/x` from another name the same module, so a boundary has to be judged on the
 * resolved path, not on the import string (which is all `no-restricted-imports` sees). It also
 * covers `import()`, `export … from` and type-only imports, and it needs no module resolver.
 *
 * Three checks: the table (may this folder import that one at all), the door (another folder is
 * imported through its index.ts, unless it is one whose modules are imported by name), and what a
 * door hands on: a folder's index.ts may re-export only what every folder allowed to import it may
 * import itself, or the table would be broken one hop away (the CLI taking export/ through the
 * service's index). Re-exports are followed through the folder's own modules (reexports.js).
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { BOUNDARIES, DEBT, IMPORTED_BY_MODULE } from './boundaryTable.js';
import { originsOf, reexportsOf } from './reexports.js';

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

/**
 * What an import names: { kind: 'path', name: its folder of the table (or its repo path), path }
 * | { kind: 'node' } | { kind: 'package', name }.
 */
function targetOf(specifier, importerPath) {
  if (specifier.startsWith('.')) {
    const repoPath = stripExtension(path.posix.normalize(path.posix.join(path.posix.dirname(importerPath), specifier)));
    return { kind: 'path', name: zoneOf(repoPath) ?? repoPath, path: repoPath };
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

/** The rows of the table that name a folder, longest first, so the first match is the deepest. */
const FOLDER_ZONES = [...ZONES.entries()].filter(([zone, { key }]) => key === zone).map(([zone]) => zone).sort((a, b) => b.length - a.length);

/** The folder of the table a path belongs to, leaving out the rows that name a single file. */
function folderZoneOf(repoPath) {
  const bare = stripExtension(repoPath);
  return FOLDER_ZONES.find((zone) => bare === zone || bare.startsWith(`${zone}/`)) ?? null;
}

/**
 * The folder whose index.ts an import should have gone through, or null when it did (or needs
 * none): the import leaves its own folder for one whose modules are not imported by name.
 */
function skippedIndex(target, importerFolder) {
  if (target.kind !== 'path') return null;
  const to = folderZoneOf(target.path);
  if (to === null || to === importerFolder || Object.hasOwn(IMPORTED_BY_MODULE, to)) return null;
  if (target.path === to || target.path === `${to}/index`) return null;
  return to;
}

/** The folder whose index.ts this file is (the folder's door), or null. */
function doorOf(repoPath) {
  const folder = folderZoneOf(repoPath);
  return folder !== null && stripExtension(repoPath) === `${folder}/index` ? folder : null;
}

/** The rows of the table whose files may import `folder` (through its door). */
function importersOf(folder) {
  const target = { kind: 'path', name: folder, path: folder };
  // a room's own folder hands the room on through its own door, whose re-exports are judged there
  return [...ZONES.entries()]
    .filter(([zone, { constraints }]) => zone !== folder && !handsRoomOn(zone, folder) && !constraints.some((c) => breaks(c, target, false)))
    .map(([, row]) => row);
}

/** Whether `folder` is a room (a sub-folder with a row of its own) of `parent`. */
function isRoomOf(folder, parent) {
  return folder.startsWith(`${parent}/`);
}

/**
 * Whether `parent` reaches its room `folder` only to hand it on through a door of its own (its
 * index.ts belongs to its row): then what the room hands it is judged at that door. A folder whose
 * index.ts has a row of its own (src/main, the Electron root's) holds files that import the room as
 * any importer does.
 */
function handsRoomOn(parent, folder) {
  return isRoomOf(folder, parent) && zoneOf(`${parent}/index.ts`) === parent;
}

function targetName(target) {
  return target.kind === 'node' ? 'node built-ins' : target.name;
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

function relativeSpecifier(fromFile, toFolder) {
  const relative = path.posix.relative(path.posix.dirname(fromFile), toFolder);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

export function importBoundariesRule(repoRoot) {
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Imports follow the architecture table (who may import whom) and enter a folder through its index.ts' },
      // the debt list comes in as the rule's option, so a test can hand it a list of its own
      // `sources` (repository path → text) stands in for files on disk when a door's re-exports are followed, for tests
      schema: [{ type: 'object', properties: { debt: { type: 'array' }, sources: { type: 'object' } }, additionalProperties: false }],
      messages: {
        boundary: '{{zone}} may not import "{{specifier}}". Architecture rule: {{rule}}. Instead: {{instead}}.',
        throughIndex: '{{zone}} imports "{{specifier}}", past the index.ts of {{target}}. Architecture rule: a folder\'s index.ts is its public surface, and other folders import it there. Instead: import from "{{door}}", and export what you need from {{target}}/index.ts.',
        handsOn: '{{zone}}/index.ts re-exports "{{specifier}}", which hands {{origin}} on to {{importers}}: they may import {{zone}} but not {{origin}}. Architecture rule: a folder\'s index.ts hands its importers only what the table lets each of them import ({{example}}: {{rule}}). Instead: export from {{zone}}/index.ts only what all its importers may import; a folder that may import {{origin}} imports it there, the others reach it through a call of {{zone}}\'s own.',
        staleDebt: 'DEBT in eslint-rules/boundaryTable.js lists "{{specifier}}" for this file, which no longer imports it: remove the entry.',
      },
    },
    create(context) {
      const importerPath = path.relative(repoRoot, context.physicalFilename).split(path.sep).join('/');
      const zone = zoneOf(importerPath);
      if (zone === null) return {};
      const { key, constraints } = ZONES.get(zone);
      const importerFolder = folderZoneOf(importerPath);
      const debtList = context.options[0]?.debt ?? DEBT;
      const debts = debtList.filter((entry) => entry.file === importerPath);
      const debtsSeen = new Set();
      const doorFolder = doorOf(importerPath);
      const following = {
        repoRoot,
        targetOf,
        // a door's rooms are its folder's own modules: what they hand on is followed to where it comes from
        inside: (target) => {
          const folder = target.kind === 'path' ? folderZoneOf(target.path) : null;
          return folder !== null && (folder === doorFolder || isRoomOf(folder, doorFolder));
        },
        sources: context.options[0]?.sources ?? {},
      };

      /** The door's re-exports whose names reach a folder that one of the door's importers may not import. */
      function checkHandedOn(program) {
        const importers = importersOf(doorFolder);
        const reported = new Set();
        for (const entry of reexportsOf(program).reexports) {
          if (debts.some((d) => d.import === entry.source)) continue;
          // an import the door may not make at all is reported as that, once
          if (constraints.some((c) => breaks(c, targetOf(entry.source, importerPath), entry.typeOnly))) continue;
          for (const { target, typeOnly } of originsOf(entry, importerPath, following)) {
            const refused = importers
              .map((row) => ({ row, broken: row.constraints.find((c) => breaks(c, target, typeOnly)) }))
              .filter((r) => r.broken !== undefined);
            const key = `${entry.node.range[0]}:${targetName(target)}`;
            if (refused.length === 0 || reported.has(key)) continue;
            reported.add(key);
            // a folder's own row says it best; the composition root's files say only that they are the root
            const example = refused.find((r) => FOLDER_ZONES.includes(r.row.key) && r.row.key !== 'src/main') ?? refused[0];
            context.report({
              node: entry.node,
              messageId: 'handsOn',
              data: {
                zone: doorFolder, specifier: entry.source, origin: targetName(target),
                importers: refused.map((r) => r.row.key).join(', '), example: example.row.key, rule: example.broken.rule,
              },
            });
          }
        }
      }

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
        if (broken) {
          context.report({ node: source, messageId: 'boundary', data: { zone: key, specifier, rule: broken.rule, instead: broken.instead } });
          return;
        }
        const door = skippedIndex(target, importerFolder);
        if (door !== null) {
          context.report({ node: source, messageId: 'throughIndex', data: { zone: key, specifier, target: door, door: relativeSpecifier(importerPath, door) } });
        }
      }

      return {
        Program: (program) => {
          if (doorFolder !== null) checkHandedOn(program);
        },
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
}
