/** Four-letter words: detection from the first bytes and the text parsers, on the golden answers. */

import { describe, expect, it } from 'vitest';
import {
  detectFourLetterWord,
  FOUR_LETTER_WORDS,
  isFourLetterWord,
  parseCons,
  parseMntr,
  parseSrvr,
  parseStat,
  parseWchs,
  utf8Encode,
} from '../../src/protocol/index.js';
import { loadGolden } from './golden.js';

const lines = loadGolden('four_letter_words.jsonl');
const answer = (cmd: string): string => {
  const i = lines.findIndex((l) => l.kind === '4lw-command' && l.hex === [...utf8Encode(cmd)].map((b) => b.toString(16)).join(''));
  const reply = lines.slice(i).find((l) => l.kind === '4lw-response' && l.conn === lines[i]!.conn);
  return (reply!.decoded as { text: string }).text;
};

describe('four-letter word detection', () => {
  it('recognises every command of the golden captures from its first four bytes', () => {
    const commands = lines.filter((l) => l.kind === '4lw-command');
    expect(commands.map((l) => detectFourLetterWord(l.bytes))).toStrictEqual(['ruok', 'isro', 'srvr', 'stat', 'wchs', 'mntr']);
  });

  it('never mistakes a framed connection for one', () => {
    for (const l of loadGolden('connect_handshake.jsonl')) expect(detectFourLetterWord(l.bytes)).toBeUndefined();
    expect(detectFourLetterWord(utf8Encode('ruo'))).toBeUndefined();
    expect(detectFourLetterWord(utf8Encode('nope'))).toBeUndefined();
  });

  it('knows the 3.8 command set', () => {
    expect(FOUR_LETTER_WORDS).toHaveLength(18);
    expect(isFourLetterWord('mntr')).toBe(true);
    expect(isFourLetterWord('MNTR')).toBe(false);
  });
});

describe('four-letter answer parsers', () => {
  it('srvr', () => {
    const s = parseSrvr(answer('srvr'));
    expect(s).toMatchObject({
      latencyMin: 0,
      latencyAvg: 2.1356,
      latencyMax: 57,
      received: 244,
      sent: 262,
      connections: 1,
      outstanding: 0,
      zxid: '0xaf',
      mode: 'standalone',
      nodeCount: 58,
    });
    expect(s.version).toMatch(/^3\.8\.0/);
    expect(s.clients).toBeUndefined();
  });

  it('stat adds the client list', () => {
    const s = parseStat(answer('stat'));
    expect(s.mode).toBe('standalone');
    expect(s.clients).toStrictEqual([{ address: '127.0.0.1:47906', interestOps: 0, stats: { queued: '0', recved: '1', sent: '0' } }]);
  });

  it('mntr', () => {
    const m = parseMntr(answer('mntr'));
    expect(m['zk_server_state']).toBe('standalone');
    expect(m['zk_znode_count']).toBe(58);
    expect(m['zk_avg_latency']).toBe(2.1356);
    expect(typeof m['zk_version']).toBe('string');
    expect(Object.keys(m).length).toBeGreaterThan(100);
  });

  it('wchs', () => {
    expect(parseWchs(answer('wchs'))).toStrictEqual({ connections: 0, paths: 0, totalWatches: 0 });
    expect(parseWchs('garbage')).toBeUndefined();
  });

  it('cons', () => {
    const text =
      ' /127.0.0.1:51234[1](queued=0,recved=5,sent=5,sid=0x1000013bb720000,lop=GETD,est=1795236927726,to=30000,lcxid=0x4,lzxid=0x51,lresp=12,llat=0,minlat=0,avglat=1,maxlat=3)\n' +
      ' /127.0.0.1:51240[0](queued=0,recved=1,sent=0)\n\n';
    const c = parseCons(text);
    expect(c).toHaveLength(2);
    expect(c[0]).toMatchObject({ address: '127.0.0.1:51234', interestOps: 1 });
    expect(c[0]!.stats['sid']).toBe('0x1000013bb720000');
    expect(c[0]!.stats['lop']).toBe('GETD');
    expect(c[1]!.stats).toStrictEqual({ queued: '0', recved: '1', sent: '0' });
  });
});
