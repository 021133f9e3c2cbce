/** The data view (src/cli/data-view.ts): what each kind of node data looks like, pure, without a server. The ASCII column starts at column 60, as in xxd. */

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hexDump, looksGzipped, viewData } from '../../src/cli/data-view.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('viewData, detecting (auto)', () => {
  it('pretty-prints a JSON object or array, and leaves a bare JSON scalar as the text it is', () => {
    expect(viewData(bytes('{"a":1,"b":[true,null]}'))).toEqual({ text: '{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}', view: 'json', notes: [] });
    expect(viewData(bytes(' [1,2] \n'))).toMatchObject({ text: '[\n  1,\n  2\n]', view: 'json' });
    expect(viewData(bytes('42'))).toEqual({ text: '42', view: 'text', notes: [] });
    expect(viewData(bytes('{not json'))).toEqual({ text: '{not json', view: 'text', notes: [] });
  });

  it('inflates gzip (as Curator\'s GzipCompressionProvider writes it) and says so, then detects what was inside', () => {
    const inner = JSON.stringify({ service: 'orders', instances: Array.from({ length: 20 }, (_, i) => `host-${i}`) });
    const zipped = new Uint8Array(gzipSync(inner));
    expect(looksGzipped(zipped)).toBe(true);
    const view = viewData(zipped);
    expect(view).toMatchObject({ view: 'json', notes: [`gzip, ${zipped.length} bytes → ${inner.length} bytes`] });
    expect(JSON.parse((view as { text: string }).text)).toEqual(JSON.parse(inner));
    expect(viewData(new Uint8Array(gzipSync('plain words')))).toMatchObject({ text: 'plain words', view: 'text' });
  });

  it('shows damaged gzip as stored, with a note, never failing', () => {
    const zipped = new Uint8Array(gzipSync('some text to be damaged'));
    zipped.fill(0xee, 12);
    const view = viewData(zipped);
    expect(view).toMatchObject({ view: 'hex' });
    expect((view as { notes: readonly string[] }).notes[0]).toMatch(/starts like gzip but does not inflate/);
  });

  it('shows bytes that are not text (invalid UTF-8, or control characters) as a hex dump with a note', () => {
    const view = viewData(new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    expect(view).toEqual({ text: `${'00000000  63 61 66 e9'.padEnd(60)}|caf.|`, view: 'hex', notes: ['4 byte(s) that are not text; shown as a hex dump'] });
    expect(viewData(new Uint8Array([0x00, 0x01]))).toMatchObject({ view: 'hex' });
    expect(viewData(bytes('tab\tand\r\nnewline'))).toMatchObject({ view: 'text' });
  });

  it('shows empty data as empty text', () => {
    expect(viewData(new Uint8Array())).toEqual({ text: '', view: 'text', notes: [] });
  });
});

describe('viewData, forced', () => {
  it('hex and base64 show the bytes as stored, gzip or not', () => {
    const zipped = new Uint8Array(gzipSync('x'));
    expect(viewData(zipped, 'base64')).toEqual({ text: Buffer.from(zipped).toString('base64'), view: 'base64', notes: [] });
    expect(viewData(zipped, 'hex')).toMatchObject({ view: 'hex', notes: [] });
    expect(viewData(bytes('{"a":1}'), 'hex')).toMatchObject({ text: `${'00000000  7b 22 61 22 3a 31 7d'.padEnd(60)}|{"a":1}|` });
  });

  it('json and text refuse data that is not that, saying why', () => {
    expect(viewData(bytes('hello'), 'json')).toEqual({ error: 'the data is not a JSON object or array' });
    expect(viewData(new Uint8Array([0xff]), 'json')).toEqual({ error: 'the data is not text, so not JSON (try --format hex)' });
    expect(viewData(new Uint8Array([0xff, 0x00]), 'text')).toEqual({ error: 'the data (2 bytes) is not printable UTF-8 text (try --format hex)' });
    expect(viewData(bytes('{"a":1}'), 'text')).toEqual({ text: '{"a":1}', view: 'text', notes: [] });
  });
});

describe('hexDump', () => {
  it('prints offset, two groups of eight bytes and the ASCII column, as xxd does', () => {
    const data = Uint8Array.from({ length: 20 }, (_, i) => 0x41 + i);
    expect(hexDump(data)).toBe(
      [
        '00000000  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  |ABCDEFGHIJKLMNOP|',
        `${'00000010  51 52 53 54'.padEnd(60)}|QRST|`,
      ].join('\n'),
    );
  });
});
