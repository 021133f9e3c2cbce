import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Where the golden captures live: `ZK_GOLDEN_DIR` if set, else `shared/zk-golden` beside the repository (the layout
 * every checkout and CI clone has: `<parent>/main` and `<parent>/shared`), else the development machine's path.
 * Commands run from the repository root (npm scripts do), so the sibling is resolved against the working directory.
 */
export function goldenDir(env: Record<string, string | undefined> = process.env): string {
  const explicit = env['ZK_GOLDEN_DIR'];
  if (explicit !== undefined && explicit !== '') return explicit;
  const candidates = [resolve(process.cwd(), '../shared/zk-golden'), '/work/shared/zk-golden'];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0]!;
}
