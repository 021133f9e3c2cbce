/**
 * Collects every uncaught exception and unhandled rejection while a fuzz file runs, so a test can assert that
 * nothing escaped the client (vitest would report them only at the end, after the input that caused them).
 */
import { afterAll, beforeAll } from 'vitest';

export function trapCrashes(): string[] {
  const crashes: string[] = [];
  const onUncaught = (e: unknown): void => void crashes.push(`uncaught: ${String(e)}`);
  const onUnhandled = (e: unknown): void => void crashes.push(`unhandled rejection: ${String(e)}`);
  beforeAll(() => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
  });
  return crashes;
}
