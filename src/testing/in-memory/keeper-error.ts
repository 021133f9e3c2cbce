/**
 * How a request handler of the in-memory server fails: with one of ZooKeeper's error numbers, which becomes the
 * `err` of the reply header (or of a multi's result). Thrown only inside the server, never to an application.
 */

import { ErrorCode, type ServerErrorName } from '../../protocol/error-codes.js';

export class KeeperError extends Error {
  override readonly name = 'KeeperError';
  readonly errno: number;

  constructor(readonly code: ServerErrorName) {
    super(code);
    this.errno = ErrorCode[code];
  }
}

/** Throws KeeperError(code). */
export function fail(code: ServerErrorName): never {
  throw new KeeperError(code);
}
