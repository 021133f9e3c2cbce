/**
 * src/ has no import cycle, type-only imports included: a cycle means two modules that cannot be read, tested or
 * moved apart, and the type-only ones grow into value ones the day someone needs a constant across them.
 */

import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, SRC } from './import-graph.js';

/** One cycle per strongly connected component with more than one module (or a module importing itself). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const color = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    color.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const c = color.get(next);
      if (c === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (c === undefined) visit(next);
    }
    stack.pop();
    color.set(node, 'done');
  };
  for (const node of graph.keys()) if (!color.has(node)) visit(node);
  return cycles;
}

describe('the import graph of src/', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(findCycles(graph)).toEqual([['/a.ts', '/b.ts', '/c.ts', '/a.ts']]);
  });

  it('reads type-only imports and re-exports as edges', () => {
    const graph = importGraph(SRC);
    const errors = graph.get(join(SRC, 'errors.ts'));
    expect(errors).toContain(join(SRC, 'protocol/op-result.ts'));
    expect(errors).toContain(join(SRC, 'protocol/error-codes.ts'));
    expect(graph.size).toBeGreaterThan(100);
  });

  it('has no cycle', () => {
    const cycles = findCycles(importGraph(SRC)).map((c) => c.map((f) => relative(SRC, f)).join(' -> '));
    expect(cycles, `import cycles in src/:\n${cycles.join('\n')}`).toEqual([]);
  });
});
