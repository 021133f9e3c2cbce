/**
 * Tab completion for the shell, as readline's completer wants it: `[candidates, the text they replace]`. The first
 * word completes to a command name; a word starting with `-` to that command's options; a word starting with `/`
 * to a node path, from the server (the children of the partial path's parent), with a `/` after a node that has
 * children (as zkCli.sh and a file shell do for directories), so the next Tab goes on into it. Pure apart from
 * `children` and `hasChildren`, which the shell backs with getChildren and exists.
 */

import { wordAtEnd } from './line.js';

/** What completion knows of one command. */
export interface CompletableCommand {
  readonly name: string;
  /** Every option it takes, e.g. `--hex`, `-r`. */
  readonly options: readonly string[];
}

/** The children's names of a node, or none when they cannot be had (no such node, not connected). */
export type ChildrenOf = (path: string) => Promise<readonly string[]>;

/** Whether a node has children (false when it cannot be known). */
export type HasChildren = (path: string) => Promise<boolean>;

/**
 * Candidates checked for children: each costs a round trip (pipelined), so a parent with thousands of matching
 * children is listed without the `/`s rather than asked about each.
 */
export const MAX_CHECKED_CANDIDATES = 64;

/** `/a/b/pa` → the parent `/a/b` and the partial name `pa`; `/pa` → `/` and `pa`. */
export function splitPartialPath(partial: string): { parent: string; prefix: string } {
  const slash = partial.lastIndexOf('/');
  return { parent: slash <= 0 ? '/' : partial.slice(0, slash), prefix: partial.slice(slash + 1) };
}

/** The completions of `line` (the text up to the cursor), sorted, and the text they replace. */
export async function completeLine(
  line: string,
  commands: readonly CompletableCommand[],
  children: ChildrenOf,
  hasChildren: HasChildren = () => Promise.resolve(false),
): Promise<[string[], string]> {
  const { word, before, plain } = wordAtEnd(line);
  if (!plain) return [[], word];
  const startsWith = (candidates: Iterable<string>): string[] => [...new Set(candidates)].filter((c) => c.startsWith(word)).sort();
  if (before === 0) return [startsWith(commands.map((c) => c.name)), word];
  if (word.startsWith('-')) {
    const name = line.trimStart().split(/\s+/, 1)[0];
    const command = commands.find((c) => c.name === name);
    return [startsWith(command?.options ?? []), word];
  }
  if (word.startsWith('/')) {
    const { parent, prefix } = splitPartialPath(word);
    const names = await children(parent);
    const base = parent === '/' ? '' : parent;
    const paths = startsWith(names.filter((n) => n.startsWith(prefix)).map((n) => `${base}/${n}`));
    if (paths.length > MAX_CHECKED_CANDIDATES) return [paths, word];
    const withSlash = await Promise.all(paths.map(async (p) => ((await hasChildren(p)) ? `${p}/` : p)));
    return [withSlash, word];
  }
  return [[], word];
}
