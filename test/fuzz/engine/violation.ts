/** What a fuzz target throws when a contract is broken: the message plus enough to replay the input. */

export class FuzzViolation extends Error {
  override readonly name = 'FuzzViolation';
  constructor(
    message: string,
    /** Hex of the offending input (codec targets) or a short script of what the fake server did (session). */
    readonly input?: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export function describeThrown(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return `non-Error thrown: ${String(e)}`;
}
