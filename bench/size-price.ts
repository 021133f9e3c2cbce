/**
 * What each optional part of the client costs in the client + InterProcessMutex bundle: `npm run bench:size --
 * --price` bundles the source again with one part taken out at a time (then all of them at once) and prints the
 * bytes each saves. The parts are taken out on the syntax tree as esbuild loads each file (never on disk): methods
 * removed from the client class, a module's classes and functions hollowed to empty bodies, or call arguments
 * dropped. The result no longer works; it only tells what the bytes would be, which is the figure a decision about
 * dropping a feature needs.
 */

import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';
import ts from 'typescript';

/** One way of rewriting a source file's text. */
type Edit = (source: ts.SourceFile) => string;

/** A part of the client that an application could do without, and the files that change when it is left out. */
export interface PricedPart {
  readonly name: string;
  /** A share of an earlier row, so not added again into "all of the above". */
  readonly share?: true;
  /** Edits by path relative to the repository root; a key ending in '/' applies to every file under it. */
  readonly edits: Readonly<Record<string, Edit>>;
}

/** Cuts the given [start, end) ranges out of the source text. */
function cut(source: ts.SourceFile, ranges: readonly (readonly [number, number, string?])[]): string {
  let text = source.text;
  for (const [start, end, insert] of [...ranges].sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + (insert ?? '') + text.slice(end);
  return text;
}

function nameOf(node: ts.Node): string | undefined {
  const name = (node as { name?: ts.Node }).name;
  return name !== undefined && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
}

/** Removes the named methods (with their overload signatures) from a class. */
function withoutMethods(className: string, methods: readonly string[]): Edit {
  return (source) => {
    const ranges: [number, number][] = [];
    const found = new Set<string>();
    for (const s of source.statements) {
      if (!ts.isClassDeclaration(s) || nameOf(s) !== className) continue;
      for (const m of s.members) {
        const name = nameOf(m) ?? '';
        if (ts.isMethodDeclaration(m) && methods.includes(name)) {
          ranges.push([m.getFullStart(), m.end]);
          found.add(name);
        }
      }
    }
    const missing = methods.filter((m) => !found.has(m));
    if (missing.length > 0) throw new Error(`${source.fileName}: no method ${missing.join(', ')} in class ${className}`);
    return cut(source, ranges);
  };
}

/** Empties the bodies of the named top-level classes (every method, accessor and constructor) and functions. */
function hollowed(names: readonly string[]): Edit {
  return (source) => {
    const ranges: [number, number, string][] = [];
    const empty = (body: ts.Block | undefined, returns: boolean): void => {
      if (body !== undefined) ranges.push([body.getStart(source), body.end, returns ? '{ return undefined as never; }' : '{}']);
    };
    const found = new Set<string>();
    for (const s of source.statements) {
      const name = nameOf(s) ?? '';
      if (!names.includes(name)) continue;
      found.add(name);
      if (ts.isFunctionDeclaration(s)) empty(s.body, true);
      if (ts.isClassDeclaration(s)) {
        for (const m of s.members) {
          if (ts.isConstructorDeclaration(m) || ts.isSetAccessorDeclaration(m)) empty(m.body, false);
          else if (ts.isMethodDeclaration(m) || ts.isGetAccessorDeclaration(m)) empty(m.body, true);
          else if (ts.isPropertyDeclaration(m) && m.initializer !== undefined) ranges.push([m.initializer.getStart(source), m.initializer.end, 'undefined as never']);
        }
      }
    }
    const missing = names.filter((n) => !found.has(n));
    if (missing.length > 0) throw new Error(`${source.fileName}: no class or function ${missing.join(', ')}`);
    return cut(source, ranges);
  };
}

/** Drops the label argument of every `reader.readX('Record.field')` call. */
const withoutReadLabels: Edit = (source) => {
  const ranges: [number, number][] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      /^read[A-Z]/.test(node.expression.name.text) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]!) &&
      /^[A-Za-z0-9]+\.[A-Za-z0-9]+$/.test(node.arguments[0].text)
    ) {
      ranges.push([node.arguments[0].getStart(source), node.arguments[0].end]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return cut(source, ranges);
};

/** The less common client methods: those a client + mutex application need not call (docs/benchmarks.md#what-an-application-ships-npm-run-benchsize). */
const UNCOMMON_METHODS = [
  'getACL',
  'setACL',
  'getChildrenWithStat',
  'getAllChildrenNumber',
  'getEphemerals',
  'getConfig',
  'sync',
  'multiRead',
  'addAuth',
  'whoAmI',
  'addWatch',
  'checkWatches',
  'mkdirp',
  'deleteRecursive',
];

const PARTS: readonly PricedPart[] = [
  { name: `the ${UNCOMMON_METHODS.length} less common client methods`, edits: { 'src/client.ts': withoutMethods('ZooKeeperClient', UNCOMMON_METHODS) } },
  { name: '- of them, persistent watches (addWatch, checkWatches)', share: true, edits: { 'src/client.ts': withoutMethods('ZooKeeperClient', ['addWatch', 'checkWatches']) } },
  { name: '- of them, mkdirp and deleteRecursive', share: true, edits: { 'src/client.ts': withoutMethods('ZooKeeperClient', ['mkdirp', 'deleteRecursive']) } },
  {
    name: 'read-only mode and learning the server version',
    edits: {
      'src/session/rw-search.ts': hollowed(['ReadWriteSearch']),
      'src/session/four-letter-probe.ts': hollowed(['fourLetterOver']),
      'src/session/server-version.ts': hollowed(['needsVersion', 'refusal']),
    },
  },
  { name: 'frame tracing behind onFrame', edits: { 'src/session/trace.ts': hollowed(['Tracer']) } },
  { name: 'the field names in decode errors', edits: { 'src/protocol/': withoutReadLabels } },
  {
    name: 'the diagnostics channels (zkwire:operation, :connection, :session)',
    edits: { 'src/client/observe.ts': hollowed(['channels', 'observer', 'stateObserver']) },
  },
  {
    name: 'retries on every call, idempotent writes, guaranteed delete',
    edits: {
      'src/client/retry-call.ts': hollowed(['retried', 'mayRepeat']),
      'src/client/idempotent.ts': hollowed(['readBack']),
      'src/client/guaranteed-delete.ts': hollowed(['guaranteed']),
    },
  },
  { name: "create's orSetData and protected", edits: { 'src/client/create.ts': hollowed(['createOrSet', 'createProtected']) } },
];

/** The parts one at a time, then all at once. */
export function pricedParts(): readonly PricedPart[] {
  const all: Record<string, Edit[]> = {};
  for (const part of PARTS.filter((p) => p.share !== true)) {
    for (const [file, edit] of Object.entries(part.edits)) (all[file] ??= []).push(edit);
  }
  const combined = Object.fromEntries(
    Object.entries(all).map(([file, edits]): [string, Edit] => [
      file,
      (source) => edits.reduce((text, edit) => edit(ts.createSourceFile(source.fileName, text, ts.ScriptTarget.Latest, true)), source.text),
    ]),
  );
  return [...PARTS, { name: 'all of the above together', edits: combined }];
}

/** An esbuild plugin that applies a part's edits to the files as they load from `root`. */
export function leaveOut(part: PricedPart, root: string): Plugin {
  const used = new Set<string>();
  return {
    name: 'leave-out',
    setup(build) {
      build.onLoad({ filter: /\/src\/.*\.ts$/ }, async (args) => {
        const file = args.path.slice(root.length);
        const key = Object.keys(part.edits).find((k) => (k.endsWith('/') ? file.startsWith(k) : file === k));
        if (key === undefined) return undefined;
        used.add(key);
        const source = ts.createSourceFile(args.path, await readFile(args.path, 'utf8'), ts.ScriptTarget.Latest, true);
        return { contents: part.edits[key]!(source), loader: 'ts' };
      });
      build.onEnd(() => {
        const missing = Object.keys(part.edits).filter((k) => !used.has(k));
        if (missing.length > 0) throw new Error(`"${part.name}": ${missing.join(', ')} not in the bundle; bench/size-price.ts needs updating`);
      });
    },
  };
}
