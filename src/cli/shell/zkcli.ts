/**
 * zkCli.sh's habits in the shell: its command names (`delete`, `deleteall`, `getAcl`, `setAcl`, `addWatch`, `lsr`)
 * and its one-letter options (`create -e -s -c -t`, `ls -R -s`, `get -s`, `set -v`, `delete -v`) rewritten as the
 * zkwire commands that do the same. Pure: a line's words in, the command lines to run out (`ls -s` is `ls` then
 * `stat`), or the reason it cannot be done. The zkwire spellings (`create P --mode ephemeral`) are left alone:
 * only a zkCli-only name or a zkCli-only option turns the rewriting on.
 */

/** zkCli.sh command names with no zkwire command of the same name, and what they become. */
export const ZKCLI_NAMES = ['delete', 'deleteall', 'rmr', 'getAcl', 'setAcl', 'addWatch', 'ls2'] as const;

/** What each zkCli.sh name runs as, for "help NAME". */
export const ZKCLI_HELP: Readonly<Record<(typeof ZKCLI_NAMES)[number], string>> = {
  delete: 'delete [-v VERSION] PATH: runs as rm PATH [--version VERSION]',
  deleteall: 'deleteall PATH: runs as rm -r PATH',
  rmr: 'rmr PATH (zkCli.sh 3.4): runs as rm -r PATH',
  getAcl: 'getAcl [-s] PATH: runs as getacl PATH (then stat PATH with -s)',
  setAcl: 'setAcl [-s] [-v VERSION] PATH ACL: runs as setacl PATH ACL [--version VERSION]',
  addWatch: 'addWatch [-m persistent|persistentRecursive] PATH: runs as watch PATH [--recursive], in the background',
  ls2: 'ls2 PATH (zkCli.sh 3.4): runs as ls PATH, then stat PATH',
};

/** The one-letter options of zkCli.sh commands that zkwire's commands of the same name do not take. */
const ZKCLI_OPTIONS: Readonly<Record<string, { flags: readonly string[]; valued: readonly string[] }>> = {
  ls: { flags: ['-s', '-R', '-w'], valued: [] },
  get: { flags: ['-s', '-w'], valued: [] },
  set: { flags: ['-s'], valued: ['-v'] },
  create: { flags: ['-s', '-e', '-c'], valued: ['-t'] },
  stat: { flags: ['-w'], valued: [] },
  delete: { flags: [], valued: ['-v'] },
  deleteall: { flags: [], valued: ['-b'] },
  rmr: { flags: [], valued: [] },
  getAcl: { flags: ['-s'], valued: [] },
  setAcl: { flags: ['-s', '-R'], valued: ['-v'] },
  addWatch: { flags: [], valued: ['-m'] },
  ls2: { flags: [], valued: [] },
};

/** The shell's lines for one zkCli.sh line: each a command's words, run in order. */
export type Rewritten = { readonly lines: readonly (readonly string[])[] } | { readonly error: string };

interface ZkCliArgs {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  readonly positionals: readonly string[];
}

/** zkCli's options (commons-cli, before and between positionals), or the reason they do not parse. */
function parseZkCli(name: string, args: readonly string[]): ZkCliArgs | string {
  const known = ZKCLI_OPTIONS[name]!;
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (/^-[A-Za-z]$/.test(a) && positionals.length < 2) {
      if (known.flags.includes(a)) flags.add(a);
      else if (known.valued.includes(a)) {
        const v = args[++i];
        if (v === undefined) return `${a} needs a value`;
        values.set(a, v);
      } else return `unknown option ${a} (zkCli.sh's ${name} takes ${[...known.flags, ...known.valued].join(' ') || 'none'})`;
    } else positionals.push(a);
  }
  return { flags, values, positionals };
}

/** True when `words` are a zkCli.sh habit the shell rewrites (a zkCli name, or a zkCli-only option). */
export function isZkCliLine(words: readonly string[]): boolean {
  const [name, ...args] = words;
  if (name === undefined) return false;
  if ((ZKCLI_NAMES as readonly string[]).includes(name)) return true;
  const known = ZKCLI_OPTIONS[name];
  return known !== undefined && args.some((a) => known.flags.includes(a) || known.valued.includes(a));
}

const WATCH_HINT = 'the shell watches with "watch PATH" (persistent, printed in the background) instead of -w';

/** The zkwire lines for a zkCli.sh line (call only when isZkCliLine). */
export function rewriteZkCli(words: readonly string[]): Rewritten {
  const [name, ...rest] = words as [string, ...string[]];
  const parsed = parseZkCli(name, rest);
  if (typeof parsed === 'string') return { error: parsed };
  const { flags, values, positionals } = parsed;
  const path = positionals[0];
  if (path === undefined) return { error: 'give PATH' };
  if (flags.has('-w')) return { error: WATCH_HINT };
  const withStat = (line: readonly string[]): Rewritten => ({ lines: flags.has('-s') ? [line, ['stat', path]] : [line] });
  const version = values.has('-v') ? ['--version', values.get('-v')!] : [];
  switch (name) {
    case 'ls':
    case 'ls2':
      if (flags.has('-R')) return { lines: [['lsr', path]] };
      return name === 'ls2' ? { lines: [['ls', path], ['stat', path]] } : withStat(['ls', path]);
    case 'get':
      return withStat(['get', path]);
    case 'stat':
      return { lines: [['stat', path]] };
    case 'set':
      if (positionals.length < 2) return { error: 'give PATH DATA' };
      return { lines: [['set', path, ...version, '--', positionals[1]!]] };
    case 'delete':
      return { lines: [['rm', path, ...version]] };
    case 'deleteall':
    case 'rmr':
      return { lines: [['rm', '-r', path]] };
    case 'getAcl':
      return withStat(['getacl', path]);
    case 'setAcl':
      if (positionals.length < 2) return { error: 'give PATH ACL' };
      return withStat(['setacl', path, positionals[1]!, ...version, ...(flags.has('-R') ? ['-R'] : [])]);
    case 'addWatch': {
      const mode = values.get('-m') ?? 'persistentRecursive';
      if (mode !== 'persistent' && mode !== 'persistentRecursive') return { error: '-m must be persistent or persistentRecursive' };
      return { lines: [['watch', path, ...(mode === 'persistentRecursive' ? ['--recursive'] : [])]] };
    }
    case 'create':
      return rewriteCreate(flags, values, positionals);
    default:
      return { error: `no zkCli.sh command ${name}` };
  }
}

/** zkCli.sh's `create [-s] [-e] [-c] [-t ttl] path [data] [acl]` as `create PATH [DATA] --mode M [--ttl MS]`. */
function rewriteCreate(flags: ReadonlySet<string>, values: ReadonlyMap<string, string>, positionals: readonly string[]): Rewritten {
  const [path, data, acl] = positionals as [string, string | undefined, string | undefined];
  if (acl !== undefined) return { error: `create takes no ACL here: create ${path}, then setacl ${path} ${acl}` };
  if (positionals.length > 3) return { error: `unexpected argument ${positionals[3]!}` };
  const sequential = flags.has('-s');
  const ttl = values.get('-t');
  if (flags.has('-c') && (sequential || flags.has('-e') || ttl !== undefined)) return { error: '-c (a container) cannot be combined with -s, -e or -t' };
  if (ttl !== undefined && flags.has('-e')) return { error: '-t (a TTL node) cannot be combined with -e: TTL nodes are persistent' };
  const base = flags.has('-c') ? 'container' : ttl !== undefined ? 'ttl' : flags.has('-e') ? 'ephemeral' : 'persistent';
  const mode = sequential ? `${base}-sequential` : base;
  return { lines: [['create', path, '--mode', mode, ...(ttl === undefined ? [] : ['--ttl', ttl]), ...(data === undefined ? [] : ['--', data])]] };
}
