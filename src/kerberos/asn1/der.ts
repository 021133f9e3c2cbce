/**
 * The slice of ASN.1 DER that Kerberos (RFC 4120 section 5) needs: one-byte tags (universal, [APPLICATION n] and
 * context [n], all below 31), definite lengths, INTEGER, OCTET STRING, BIT STRING, GeneralString,
 * GeneralizedTime, OBJECT IDENTIFIER, SEQUENCE (OF). Writing builds nested byte arrays; reading gives DerValue nodes
 * that never throw a RangeError: every malformed input is a KerberosError BAD_REPLY.
 */

import { concatBytes, utf8Decode, utf8Encode } from '../../protocol/index.js';
import { kerberosError } from '../errors.js';

export const Tag = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  OID: 0x06,
  SEQUENCE: 0x30,
  GENERALIZED_TIME: 0x18,
  GENERAL_STRING: 0x1b,
} as const;

// ---- writing ----

function lengthBytes(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return Uint8Array.of(0x80 | out.length, ...out);
}

/** One element: tag, length, content. */
export function tlv(tag: number, content: Uint8Array): Uint8Array {
  return concatBytes([Uint8Array.of(tag), lengthBytes(content.length), content]);
}

/** SEQUENCE of the given encoded elements (undefined ones, the absent OPTIONAL fields, are left out). */
export function seq(...parts: readonly (Uint8Array | undefined)[]): Uint8Array {
  return tlv(Tag.SEQUENCE, concatBytes(parts.filter((p): p is Uint8Array => p !== undefined)));
}

/** An explicit context tag [n] around one element. */
export function ctx(n: number, inner: Uint8Array): Uint8Array {
  return tlv(0xa0 | n, inner);
}

/** An [APPLICATION n] tag around one element. */
export function app(n: number, inner: Uint8Array): Uint8Array {
  return tlv(0x60 | n, inner);
}

/** INTEGER, for the 32-bit signed and unsigned values of Kerberos (minimal two's complement). */
export function int(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < -0x80000000 || n > 0xffffffff) throw new RangeError(`${n} is not a Kerberos integer`);
  const bytes: number[] = [];
  let v = BigInt(n);
  for (;;) {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
    const top = bytes[0]! & 0x80;
    if ((v === 0n && top === 0) || (v === -1n && top !== 0)) break;
  }
  return tlv(Tag.INTEGER, Uint8Array.from(bytes));
}

export function octets(bytes: Uint8Array): Uint8Array {
  return tlv(Tag.OCTET_STRING, bytes);
}

/** KerberosString: a GeneralString holding IA5 (RFC 4120 5.2.1); we write UTF-8, which is the same for ASCII. */
export function kstring(s: string): Uint8Array {
  return tlv(Tag.GENERAL_STRING, utf8Encode(s));
}

/** KerberosTime: GeneralizedTime "YYYYMMDDHHMMSSZ", whole seconds, UTC. */
export function ktime(date: Date): Uint8Array {
  const s = date.toISOString().replace(/[-:T]/g, '').replace(/\.\d+Z$/, 'Z');
  return tlv(Tag.GENERALIZED_TIME, utf8Encode(s));
}

/** A 32-bit flag set (KDCOptions, APOptions, TicketFlags): bit 0 is the most significant. */
export function bits32(flags: number): Uint8Array {
  const b = new Uint8Array(5);
  new DataView(b.buffer).setUint32(1, flags >>> 0);
  return tlv(Tag.BIT_STRING, b);
}

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const group: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) group.unshift(0x80 | (v & 0x7f));
    out.push(...group);
  }
  return tlv(Tag.OID, Uint8Array.from(out));
}

/** The flag mask of bit `n` in a bits32 value (bit 0 the most significant, as RFC 4120 numbers them). */
export function bit(n: number): number {
  return (0x80000000 >>> n) >>> 0;
}

// ---- reading ----

const bad = (what: string): Error => kerberosError('BAD_REPLY', `malformed DER: ${what}`);

/** One decoded element; `content` is a view into the input. */
export class DerValue {
  private constructor(
    readonly tag: number,
    readonly content: Uint8Array,
    /** The whole element, tag and length included (checksums are taken over encodings as received). */
    readonly encoded: Uint8Array,
  ) {}

  /** Decodes exactly one element filling `bytes`. */
  static parse(bytes: Uint8Array): DerValue {
    const { value, next } = DerValue.#read(bytes, 0);
    if (next !== bytes.length) throw bad(`${bytes.length - next} bytes after the element`);
    return value;
  }

  static #read(bytes: Uint8Array, at: number): { value: DerValue; next: number } {
    if (at + 2 > bytes.length) throw bad('truncated header');
    const tag = bytes[at]!;
    if ((tag & 0x1f) === 0x1f) throw bad('multi-byte tag');
    let len = bytes[at + 1]!;
    let start = at + 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4) throw bad('unsupported length form');
      if (start + n > bytes.length) throw bad('truncated length');
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + bytes[start + i]!;
      start += n;
    }
    if (start + len > bytes.length) throw bad(`an element of ${len} bytes with ${bytes.length - start} left`);
    return { value: new DerValue(tag, bytes.subarray(start, start + len), bytes.subarray(at, start + len)), next: start + len };
  }

  /** The elements inside a constructed element. */
  children(): DerValue[] {
    if ((this.tag & 0x20) === 0) throw bad(`tag 0x${this.tag.toString(16)} is not constructed`);
    const out: DerValue[] = [];
    for (let at = 0; at < this.content.length; ) {
      const { value, next } = DerValue.#read(this.content, at);
      out.push(value);
      at = next;
    }
    return out;
  }

  /** The one element inside an explicit tag ([APPLICATION n] or [n]), after checking the tag. */
  unwrap(tag: number, what: string): DerValue {
    this.expect(tag, what);
    const kids = this.children();
    if (kids.length !== 1) throw bad(`${what} holds ${kids.length} elements`);
    return kids[0]!;
  }

  expect(tag: number, what: string): this {
    if (this.tag !== tag) throw bad(`${what}: tag 0x${this.tag.toString(16)}, expected 0x${tag.toString(16)}`);
    return this;
  }

  /** The SEQUENCE's field [n], or undefined when that OPTIONAL field is absent. */
  field(n: number): DerValue | undefined {
    const kid = this.expect(Tag.SEQUENCE, 'SEQUENCE').children().find((k) => k.tag === (0xa0 | n));
    return kid?.unwrap(0xa0 | n, `field [${n}]`);
  }

  /** The SEQUENCE's field [n], which must be present. */
  need(n: number, what: string): DerValue {
    const f = this.field(n);
    if (f === undefined) throw bad(`${what} (field [${n}]) is missing`);
    return f;
  }

  int(): number {
    this.expect(Tag.INTEGER, 'INTEGER');
    if (this.content.length === 0 || this.content.length > 5) throw bad(`an INTEGER of ${this.content.length} bytes`);
    let v = this.content[0]! & 0x80 ? -1n : 0n;
    for (const b of this.content) v = (v << 8n) | BigInt(b);
    return Number(BigInt.asIntN(40, v));
  }

  bytes(): Uint8Array {
    return this.expect(Tag.OCTET_STRING, 'OCTET STRING').content;
  }

  string(): string {
    return utf8Decode(this.expect(Tag.GENERAL_STRING, 'KerberosString').content);
  }

  time(): Date {
    const s = utf8Decode(this.expect(Tag.GENERALIZED_TIME, 'KerberosTime').content);
    const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s);
    if (m === null) throw bad(`KerberosTime "${s}"`);
    const [, y, mo, d, h, mi, se] = m.map(Number) as [number, number, number, number, number, number, number];
    return new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  }

  bits(): number {
    const c = this.expect(Tag.BIT_STRING, 'BIT STRING').content;
    let v = 0;
    for (let i = 1; i < 5; i++) v = (v * 256) + (c[i] ?? 0);
    return v >>> 0;
  }

  oid(): string {
    const c = this.expect(Tag.OID, 'OBJECT IDENTIFIER').content;
    if (c.length === 0) throw bad('empty OBJECT IDENTIFIER');
    const arcs = [Math.floor(c[0]! / 40), c[0]! % 40];
    let v = 0;
    for (const b of c.subarray(1)) {
      v = v * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) {
        arcs.push(v);
        v = 0;
      }
    }
    return arcs.join('.');
  }
}
