/**
 * Create modes: the user-facing names, the CreateRequest flags and the opcode each needs.
 * Containers must go through opcode 19 and TTL modes through 21 (through opcode 1 a container silently
 * becomes a persistent node and a TTL mode is refused), so the mode decides the opcode, not the caller.
 */

import { clientError } from '../errors.js';
import { CreateFlags } from '../protocol/opcodes.js';

/** How a node is created: persistent or ephemeral, optionally sequential, or a container or TTL node. */
export type CreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'ttl'
  | 'ttl-sequential';

export interface CreateModeInfo {
  readonly flags: number;
  readonly sequential: boolean;
  readonly ephemeral: boolean;
  readonly ttl: boolean;
}

/** Each mode's CreateRequest flags; what else a mode means (sequential, ephemeral, TTL) its name says. */
const FLAGS: Readonly<Record<CreateMode, number>> = {
  persistent: CreateFlags.persistent,
  ephemeral: CreateFlags.ephemeral,
  'persistent-sequential': CreateFlags.persistentSequential,
  'ephemeral-sequential': CreateFlags.ephemeralSequential,
  container: CreateFlags.container,
  ttl: CreateFlags.persistentWithTTL,
  'ttl-sequential': CreateFlags.persistentSequentialWithTTL,
};

/** The largest TTL the server accepts (it keeps the TTL in 40 bits of the ephemeral-owner field). */
export const MAX_TTL_MS = 2 ** 40 - 1;

export function createModeInfo(mode: CreateMode, op: string, path: string): CreateModeInfo {
  if (!Object.hasOwn(FLAGS, mode)) throw clientError('BAD_ARGUMENT', `unknown create mode "${String(mode)}"`, { op, path });
  return { flags: FLAGS[mode], sequential: mode.endsWith('-sequential'), ephemeral: mode.startsWith('ephemeral'), ttl: mode.startsWith('ttl') };
}

/** Checks the ttl option against the mode; returns the ttl to send (undefined for non-TTL modes). */
export function checkTtl(info: CreateModeInfo, ttl: number | undefined, op: string, path: string): bigint | undefined {
  if (!info.ttl) {
    if (ttl !== undefined) throw clientError('BAD_ARGUMENT', 'ttl is only valid with the ttl create modes', { op, path });
    return undefined;
  }
  if (ttl === undefined || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_MS) {
    throw clientError('BAD_ARGUMENT', `ttl must be an integer from 1 to ${MAX_TTL_MS} ms`, { op, path });
  }
  return BigInt(ttl);
}

/** The ops a create goes out as. */
export type CreateOp = 'create' | 'create2' | 'createContainer' | 'createTTL';

/**
 * The op for a create: createContainer for containers, createTTL for TTL modes, else create2 (which also returns
 * the Stat) when `withStat`, else create.
 */
export function createOp(info: CreateModeInfo, withStat: boolean): CreateOp {
  if (info.flags === CreateFlags.container) return 'createContainer';
  if (info.ttl) return 'createTTL';
  return withStat ? 'create2' : 'create';
}
