/**
 * Curator's UriSpec: a URI template such as `{scheme}://{address}:{port}/api`, kept as parts (literal text, or a
 * variable name), which is how it travels inside an instance's JSON (`{"parts":[{"value","variable"}]}`).
 * buildUriSpec fills the variables from an instance as Curator's UriSpec.build does.
 */

import type { ZooKeeperError } from '../../errors.js';
import { badArgument } from '../common/errors.js';

/** One piece of a UriSpec: literal text, or (`variable: true`) the name of a variable to substitute. */
export interface UriSpecPart {
  readonly value: string;
  readonly variable: boolean;
}

/** A parsed URI template (Curator's UriSpec). */
export interface UriSpec {
  readonly parts: readonly UriSpecPart[];
}

/** What buildUriSpec reads from an instance. */
export interface UriSpecSource {
  readonly name: string;
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  readonly registrationTimeUTC: number;
  readonly serviceType: string | null;
  readonly uriSpec: UriSpec | null;
}

/**
 * Parses a template as Curator's `new UriSpec(raw)`: text between `{` and `}` is a variable (trimmed), the rest
 * literal; empty pieces are dropped. BAD_ARGUMENT on a nested `{`, a `}` without `{`, or an unclosed `{`.
 */
export function parseUriSpec(raw: string): UriSpec {
  const parts: UriSpecPart[] = [];
  let inside = false;
  for (const token of raw.split(/([{}])/)) {
    if (token === '') continue;
    if (token === '{') {
      if (inside) throw badSpec(raw, '{ is not allowed inside of a variable specification');
      inside = true;
    } else if (token === '}') {
      if (!inside) throw badSpec(raw, '} must be preceded by {');
      inside = false;
    } else parts.push({ value: inside ? token.trim() : token, variable: inside });
  }
  if (inside) throw badSpec(raw, 'final variable not closed - expected }');
  return { parts };
}

function badSpec(raw: string, detail: string): ZooKeeperError {
  return badArgument('parseUriSpec', undefined, `${JSON.stringify(raw)}: ${detail}`);
}

/**
 * The instance's URI from its uriSpec (`''` when it has none), as Curator's ServiceInstance.buildUriSpec: the
 * variables `scheme` (`https` when the instance has an sslPort, else `http`), `name`, `id`, `address`, `port`,
 * `ssl-port`, `registration-time-utc`, `service-type` (lower case), `[` and `]` (for literal braces), then
 * `variables` over them. A variable with no value is left out.
 */
export function buildUriSpec(instance: UriSpecSource, variables: Readonly<Record<string, unknown>> = {}): string {
  if (instance.uriSpec === null) return '';
  const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
  const values: Record<string, unknown> = {
    '[': '{',
    ']': '}',
    scheme: instance.sslPort !== null ? 'https' : 'http',
    name: text(instance.name),
    id: text(instance.id),
    address: text(instance.address),
    port: text(instance.port),
    'ssl-port': text(instance.sslPort),
    'registration-time-utc': text(instance.registrationTimeUTC),
    'service-type': instance.serviceType === null ? '' : instance.serviceType.toLowerCase(),
    ...variables,
  };
  let out = '';
  for (const part of instance.uriSpec.parts) {
    if (!part.variable) out += part.value;
    else if (Object.hasOwn(values, part.value) && values[part.value] !== null && values[part.value] !== undefined) out += String(values[part.value]);
  }
  return out;
}
