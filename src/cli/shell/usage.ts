/**
 * A command's usage text as it reads inside the shell: typed without "zkwire", with no connection options (the
 * session is the shell's: `--server`, `--session-timeout`, `--auth` are given to `zkwire shell`) and no word of a
 * throwaway local server (the shell is connected already).
 */

/** The connection options of the one-shot usage lines, each with the space before it. */
const SESSION_OPTIONS = / ?\[--(?:server HOSTS|session-timeout MS|connect-timeout MS|auth SCHEME:CRED)\]/g;

/** The sentence every one-shot command carries about the throwaway server, wherever its lines break. */
const THROWAWAY = /\s*With\s+no\s+--server,\s+a\s+throwaway\s+local\s+ZooKeeper\s+is\s+started[^.]*\./g;

/** lock's sentence on the session timeout, which is the shell's. */
const SESSION_TIMEOUT = /\s*--session-timeout sets the session timeout\./g;

export function shellUsage(usage: string): string {
  const cut = usage.indexOf('\n\n');
  const head = cut < 0 ? usage : usage.slice(0, cut);
  // In the shell a command is typed without "zkwire" (reconfig's usage has two forms, each naming it).
  return (head.replace(/\bzkwire (?=[a-z0-9])/g, '') + (cut < 0 ? '' : usage.slice(cut)))
    .replace(SESSION_OPTIONS, '')
    .replace(THROWAWAY, '')
    .replace(SESSION_TIMEOUT, '')
    .replace(/every host of --server/g, "every host of the shell's connect string")
    .split('\n')
    .filter((line, i, lines) => !(line.trim() === '' && (lines[i - 1] ?? '').trim() === '' && i > 0))
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n');
}

/** The first paragraph of the shell's usage of a command: what a usage error shows under the problem. */
export function shellUsageLine(usage: string): string {
  return shellUsage(usage).split('\n\n', 1)[0]!;
}
