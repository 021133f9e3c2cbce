/**
 * bench:size --price rewrites the source as esbuild loads it; when the code it names moves, it must say so rather
 * than price nothing. Every part must still be found, and leaving it out must make the bundle smaller.
 */

import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { measure, ROOT } from '../../bench/size-bundle.js';
import { leaveOut, pricedParts, type PricedPart } from '../../bench/size-price.js';

describe('bench:size --price', () => {
  it('finds every part it prices, and each one left out makes the bundle smaller', { timeout: 60_000 }, async () => {
    const base = await measure();
    expect(base.gzipped).toBeGreaterThan(10_000);
    const parts = pricedParts();
    expect(parts.length).toBeGreaterThan(3);
    const sizes: number[] = [];
    for (const part of parts) {
      const { gzipped } = await measure([leaveOut(part, ROOT)]);
      expect(gzipped, part.name).toBeLessThan(base.gzipped);
      sizes.push(gzipped);
    }
    // The last row, all of them together, is the smallest bundle.
    expect(sizes.at(-1)).toBe(Math.min(...sizes));
  });

  it('fails with the part named when a file it edits is not in the bundle', async () => {
    const stale: PricedPart = { name: 'a part that moved', edits: { 'src/session/no-such-file.ts': (source) => source.text } };
    await expect(measure([leaveOut(stale, ROOT)])).rejects.toThrow(/a part that moved.*no-such-file\.ts.*needs updating/s);
  });

  it('fails naming a method that is no longer there', () => {
    const renamed = pricedParts().find((p) => p.name.includes('client methods'))!;
    const edit = renamed.edits['src/client.ts']!;
    const source = ts.createSourceFile('client.ts', 'export class ZooKeeperClient { getACL() {} }', ts.ScriptTarget.Latest, true);
    expect(() => edit(source)).toThrow(/no method setACL, .* in class ZooKeeperClient/);
  });
});
