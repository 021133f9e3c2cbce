/**
 * Fuzz targets over the pure codec: the frame decoder, the conversation decoder, every exported decodeX, and the
 * four-letter-word text parsers. Each run takes one input derived from the PRNG and checks the codec's contract:
 * only typed outcomes (a FrameResult, a DescribedFrame, a record or a JuteDecodeError), never a RangeError or
 * TypeError, and buffers bounded by the configured frame limit.
 */

import * as protocol from '../../../src/protocol/index.js';
import {
  ConversationDecoder,
  DEFAULT_MAX_FRAME_SIZE,
  encodeDescribedFrame,
  FrameDecoder,
  hexEncode,
  JuteDecodeError,
  JuteEncodeError,
  JuteReader,
  JuteWriter,
  OpCode,
  opSpec,
  toJsonValue,
  utf8Decode,
  utf8Encode,
  type FrameResult,
} from '../../../src/protocol/index.js';
import type { Corpus, CorpusFrame } from './corpus.js';
import { fixPrefix, mutate, randomSplits } from './mutate.js';
import type { Prng } from '../../harness/prng.js';
import { describeThrown, FuzzViolation } from './violation.js';
import { concatBytes } from '../../../src/protocol/bytes.js';

export interface CodecTarget {
  readonly name: string;
  run(rng: Prng, corpus: Corpus): void;
}

const FRAMED = new Set(['connect-request', 'connect-response', 'request', 'reply', 'notification']);

function framedFrames(corpus: Corpus): CorpusFrame[] {
  return corpus.frames.filter((f) => FRAMED.has(f.kind));
}

// ---- frame decoder ---------------------------------------------------------------------------------------------

type Outcome = { frames: string[]; end: string };

/** Drains a decoder after each push, checking every result; returns what came out. */
function drive(chunks: readonly Uint8Array[], maxFrameSize: number, input: string): Outcome {
  const d = new FrameDecoder({ maxFrameSize });
  const frames: string[] = [];
  let end = 'need-more';
  let failure: FrameResult | undefined;
  /** Bytes pushed before the stream broke, and bytes cut out as frames (prefixes included). */
  let pushed = 0;
  let consumed = 0;
  for (const chunk of chunks) {
    d.push(chunk);
    if (failure === undefined) pushed += chunk.length;
    for (;;) {
      let r: FrameResult;
      try {
        r = d.next();
      } catch (e) {
        throw new FuzzViolation(`FrameDecoder.next threw ${describeThrown(e)}`, input, e);
      }
      if (r.kind === 'frame') {
        if (r.payload.length > maxFrameSize) throw new FuzzViolation(`frame of ${r.payload.length} bytes above the limit ${maxFrameSize}`, input);
        frames.push(hexEncode(r.payload));
        consumed += 4 + r.payload.length;
        continue;
      }
      if (r.kind === 'need-more') {
        if (!(r.needed >= 1)) throw new FuzzViolation(`need-more with needed=${r.needed}`, input);
        // Bounded memory: what is held back is at most one frame under the limit plus the chunk just pushed.
        if (d.buffered > maxFrameSize + 4 + chunk.length) {
          throw new FuzzViolation(`decoder holds ${d.buffered} bytes with a limit of ${maxFrameSize}`, input);
        }
        break;
      }
      if (r.error.code !== 'FRAME_TOO_LARGE' && r.error.code !== 'CORRUPT') {
        throw new FuzzViolation(`unknown frame error code ${String(r.error.code)}`, input);
      }
      if (failure !== undefined && failure.kind === 'error' && failure.error !== r.error) {
        throw new FuzzViolation('frame errors are not sticky', input);
      }
      failure = r;
      end = `error:${r.error.code}`;
      // A broken decoder keeps the bytes from the bad prefix on (for drain()) and takes no more.
      if (d.buffered !== pushed - consumed) throw new FuzzViolation(`a broken decoder holds ${d.buffered} bytes, not the ${pushed - consumed} from the bad prefix on`, input);
      break;
    }
  }
  if (failure !== undefined) {
    const held = hexEncode(d.drain());
    if (held !== hexEncode(concatBytes(chunks).subarray(consumed, pushed))) throw new FuzzViolation('drain() after an error is not the stream from the bad prefix on', input);
    if (d.buffered !== 0 || d.next().kind !== 'need-more') throw new FuzzViolation('drain() did not give a fresh start', input);
  }
  return { frames, end };
}

export const frameDecoderTarget: CodecTarget = {
  name: 'frame-decoder',
  run(rng, corpus) {
    const pool = framedFrames(corpus);
    const parts: Uint8Array[] = [];
    const count = rng.range(1, 6);
    for (let i = 0; i < count; i++) {
      const f = rng.pick(pool).bytes;
      parts.push(rng.chance(0.5) ? mutate(rng, f, corpus.donors, true).bytes : f);
    }
    if (rng.chance(0.1)) parts.push(rng.bytes(rng.size(64)));
    const stream = concatBytes(parts);
    const maxFrameSize = rng.pick([DEFAULT_MAX_FRAME_SIZE, 16, 64, 256, 1024, rng.range(0, 4096)]);
    const input = `max=${maxFrameSize} ${hexEncode(stream)}`;
    const whole = drive([stream], maxFrameSize, input);
    const split = drive(randomSplits(rng, stream), maxFrameSize, input);
    // However TCP cuts the stream, the decoder must see the same frames and the same end.
    if (whole.end !== split.end || whole.frames.join('|') !== split.frames.join('|')) {
      throw new FuzzViolation(`split feeding differs from whole: ${split.frames.length}/${split.end} vs ${whole.frames.length}/${whole.end}`, input);
    }
  },
};

// ---- conversation decoder --------------------------------------------------------------------------------------

export const conversationTarget: CodecTarget = {
  name: 'conversation',
  run(rng, corpus) {
    const conv = rng.pick(corpus.conversations);
    const decoder = new ConversationDecoder();
    const rate = rng.pick([0.05, 0.2, 0.5, 1]);
    const fed: string[] = [];
    for (const f of conv) {
      let bytes = f.bytes;
      if (rng.chance(rate)) {
        bytes = mutate(rng, bytes, corpus.donors, true).bytes;
        // Most of the time make the prefix honest again, so the lie reaches the record decoders.
        if (rng.chance(0.7)) bytes = fixPrefix(bytes);
      }
      const dir = rng.chance(0.02) ? (f.dir === 'c2s' ? 's2c' : 'c2s') : f.dir;
      fed.push(`${dir}:${hexEncode(bytes)}`);
      checkDescribed(decoder, dir, bytes, fed);
    }
  },
};

function checkDescribed(decoder: ConversationDecoder, dir: 'c2s' | 's2c', bytes: Uint8Array, fed: string[]): void {
  const input = (): string => fed.join(' ');
  let d: protocol.DescribedFrame;
  try {
    d = decoder.decode(dir, bytes);
  } catch (e) {
    throw new FuzzViolation(`ConversationDecoder.decode threw ${describeThrown(e)}`, input(), e);
  }
  if (typeof d.summary !== 'string') throw new FuzzViolation('described frame without a summary', input());
  // 'undecodable frame' is only produced by decode's last-resort catch: some code threw an untyped error.
  if (d.summary === 'undecodable frame') throw new FuzzViolation(`untyped error inside the describer: ${d.error ?? ''}`, input());
  if (d.error === undefined && d.decoded === undefined) throw new FuzzViolation('neither decoded nor error', input());
  if (d.decoded !== undefined) {
    try {
      JSON.stringify(toJsonValue(d.decoded));
    } catch (e) {
      throw new FuzzViolation(`toJsonValue threw ${describeThrown(e)}`, input(), e);
    }
    try {
      encodeDescribedFrame(new JuteWriter(), d);
    } catch (e) {
      if (!(e instanceof JuteEncodeError)) throw new FuzzViolation(`re-encoding a decoded frame threw ${describeThrown(e)}`, input(), e);
    }
  }
}

// ---- every decodeX -----------------------------------------------------------------------------------------------

type Decoder = { name: string; decode: (r: JuteReader) => unknown; codec?: protocol.RecordCodec<unknown> };

/** Every `decodeX(r)` the protocol exports, found by name so one added later is fuzzed without a list to update. */
function exportedDecoders(): Decoder[] {
  const out: Decoder[] = [];
  for (const [name, fn] of Object.entries(protocol)) {
    if (!name.startsWith('decode') || typeof fn !== 'function' || fn.length !== 1) continue;
    out.push({ name, decode: fn as (r: JuteReader) => unknown });
  }
  return out;
}

/** The opcode table's request and response codecs, which also have an encoder for the round-trip property. */
function tableDecoders(): Decoder[] {
  const out: Decoder[] = [];
  for (const code of Object.values(OpCode)) {
    const spec = opSpec(code);
    if (spec?.request != null) out.push({ name: `request:${spec.name}`, decode: (r) => spec.request!.decode(r), codec: spec.request });
    if (spec?.response != null) out.push({ name: `response:${spec.name}`, decode: (r) => spec.response!.decode(r), codec: spec.response });
  }
  return out;
}

const OPCODES = [...Object.values(OpCode), -1, 0, 99, 106, 0x7fffffff, -0x80000000];
let decoderCache: Decoder[] | undefined;

function allDecoders(): Decoder[] {
  if (decoderCache === undefined) {
    const byOpcode: Decoder[] = [];
    for (const code of OPCODES) {
      byOpcode.push({ name: `decodeRequestBody(${code})`, decode: (r) => protocol.decodeRequestBody(code, r) });
      byOpcode.push({ name: `decodeResponseBody(${code})`, decode: (r) => protocol.decodeResponseBody(code, r) });
    }
    decoderCache = [...exportedDecoders(), ...tableDecoders(), ...byOpcode];
  }
  return decoderCache;
}

/** The names of every decoder the `decoders` target exercises (tests assert the list is complete). */
export function decoderNames(): string[] {
  return allDecoders().map((d) => d.name);
}

/** The body bytes of a captured frame: after the length prefix and the request or reply header. */
function bodyOf(f: CorpusFrame): Uint8Array {
  const skip = f.kind === 'request' ? 12 : f.kind === 'reply' || f.kind === 'notification' ? 20 : 4;
  return f.bytes.subarray(Math.min(skip, f.bytes.length));
}

/** Random bytes shaped like Jute: ints and lengths from the edge values, short strings, longs. */
function juteish(rng: Prng): Uint8Array {
  const w = new JuteWriter();
  const n = rng.range(1, 12);
  for (let i = 0; i < n; i++) {
    switch (rng.int(6)) {
      case 0:
        w.writeInt(rng.pick([-1, -2, 0, 1, 2, 0x7fffffff, -0x80000000, rng.u32() | 0]));
        break;
      case 1:
        w.writeLong(BigInt(rng.u32()) << BigInt(rng.int(33)));
        break;
      case 2:
        w.writeBool(rng.chance(0.5));
        break;
      case 3:
        w.writeString(rng.chance(0.1) ? null : utf8Decode(rng.bytes(rng.size(24))));
        break;
      case 4:
        w.writeBuffer(rng.chance(0.1) ? null : rng.bytes(rng.size(24)));
        break;
      default:
        w.writeBytes(rng.bytes(rng.size(8)));
    }
  }
  return w.toBytes();
}

export const decodersTarget: CodecTarget = {
  name: 'decoders',
  run(rng, corpus) {
    const decoder = rng.pick(allDecoders());
    let bytes: Uint8Array;
    const source = rng.int(10);
    if (source < 6) {
      const body = bodyOf(rng.pick(framedFrames(corpus)));
      bytes = source < 1 ? body : mutate(rng, body, corpus.donors, false).bytes;
    } else if (source < 9) bytes = juteish(rng);
    else bytes = rng.bytes(rng.size(256));
    const input = `${decoder.name} ${hexEncode(bytes)}`;
    let rec: unknown;
    try {
      rec = decoder.decode(new JuteReader(bytes));
    } catch (e) {
      if (!(e instanceof JuteDecodeError)) throw new FuzzViolation(`${decoder.name} threw ${describeThrown(e)}`, input, e);
      if (e.reason !== 'short' && e.reason !== 'corrupt') throw new FuzzViolation(`JuteDecodeError with reason ${String(e.reason)}`, input);
      if (!(e.offset >= 0 && e.offset <= bytes.length)) throw new FuzzViolation(`JuteDecodeError offset ${e.offset} outside 0..${bytes.length}`, input);
      return;
    }
    if (decoder.codec !== undefined) roundTrip(decoder.codec, rec, input);
  },
};

/** decode → encode → decode gives the same record: nothing decoded is lost or invented on the way back. */
function roundTrip(codec: protocol.RecordCodec<unknown>, rec: unknown, input: string): void {
  const w = new JuteWriter();
  try {
    codec.encode(w, rec);
  } catch (e) {
    if (e instanceof JuteEncodeError) return;
    throw new FuzzViolation(`${codec.name} cannot re-encode what it decoded: ${describeThrown(e)}`, input, e);
  }
  let again: unknown;
  try {
    again = codec.decode(new JuteReader(w.toBytes()));
  } catch (e) {
    throw new FuzzViolation(`${codec.name} cannot decode its own encoding: ${describeThrown(e)}`, input, e);
  }
  const a = JSON.stringify(toJsonValue(rec));
  const b = JSON.stringify(toJsonValue(again));
  if (a !== b) throw new FuzzViolation(`${codec.name} round trip changed the record: ${a} → ${b}`, input);
}

// ---- four-letter-word text ------------------------------------------------------------------------------------

export const fourLetterTarget: CodecTarget = {
  name: 'four-letter',
  run(rng, corpus) {
    const texts = corpus.frames.filter((f) => f.kind === '4lw-response' || f.kind === '4lw-command');
    const base = texts.length > 0 && rng.chance(0.8) ? rng.pick(texts).bytes : rng.bytes(rng.size(256));
    const bytes = mutate(rng, base, corpus.donors, false).bytes;
    const text = utf8Decode(bytes);
    const input = hexEncode(bytes);
    const calls: [string, () => unknown][] = [
      ['parseSrvr', () => protocol.parseSrvr(text)],
      ['parseCons', () => protocol.parseCons(text)],
      ['parseMntr', () => protocol.parseMntr(text)],
      ['parseWchs', () => protocol.parseWchs(text)],
      ['parseConnectionLine', () => protocol.parseConnectionLine(text)],
      ['detectFourLetterWord', () => protocol.detectFourLetterWord(bytes)],
      ['utf8 round trip', () => utf8Decode(utf8Encode(text)) === text || fail('utf8 round trip of a decoded string changed it')],
    ];
    for (const [name, call] of calls) {
      try {
        call();
      } catch (e) {
        throw new FuzzViolation(`${name} threw ${describeThrown(e)}`, input, e);
      }
    }
  },
};

function fail(message: string): never {
  throw new Error(message);
}


export const CODEC_TARGETS: readonly CodecTarget[] = [frameDecoderTarget, conversationTarget, decodersTarget, fourLetterTarget];
