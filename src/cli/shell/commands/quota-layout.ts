/**
 * ZooKeeper's quota nodes, as zkCli.sh's setquota/listquota/delquota keep them and the server reads them: for a
 * node P, `/zookeeper/quota` + P holds `zookeeper_limits` (the limits) and `zookeeper_stats` (the usage, kept up to
 * date by the server). Both hold StatsTrack text: `count=N,bytes=B`, then, when there are other fields (the hard
 * limits of 3.7+), one more `=` and `;key=value` pairs sorted by key: an old server's parser reads the first two and
 * takes the rest as part of bytes' value it ignores. -1 means "no limit".
 */

export const QUOTA_ROOT = '/zookeeper/quota';
export const LIMIT_NODE = 'zookeeper_limits';
export const STATS_NODE = 'zookeeper_stats';

/** The fields zkCli.sh's options set: -n, -b (soft: logged when passed) and -N, -B (hard: writes refused, 3.7+). */
export const QUOTA_FIELDS = { '-n': 'count', '-b': 'bytes', '-N': 'countHardLimit', '-B': 'byteHardLimit' } as const;
export type QuotaOption = keyof typeof QUOTA_FIELDS;

/** The quota directory of `path`: `/zookeeper/quota/app` for `/app`. */
export function quotaDir(path: string): string {
  return path === '/' ? QUOTA_ROOT : `${QUOTA_ROOT}${path}`;
}

/** StatsTrack text as its fields; a value that is no number (or missing) is -1, as ZooKeeper reads it. */
export function parseStatsTrack(text: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const pair of text.split(/[,;]+/)) {
    if (pair === '') continue;
    const [key, value] = pair.split('=') as [string, string | undefined];
    out.set(key, value !== undefined && /^-?\d+$/.test(value) ? BigInt(value) : -1n);
  }
  return out;
}

/** The fields as StatsTrack text, byte for byte as ZooKeeper's StatsTrack.toString writes it. */
export function formatStatsTrack(fields: ReadonlyMap<string, bigint>): string {
  const value = (k: string): bigint => fields.get(k) ?? -1n;
  const others = [...fields.keys()].filter((k) => k !== 'count' && k !== 'bytes').sort();
  const head = `count=${value('count')},bytes=${value('bytes')}`;
  return others.length === 0 ? head : `${head}=${others.map((k) => `;${k}=${value(k)}`).join('')}`;
}

/** The ancestors of `path`, nearest last: `/a/b/c` → `/a`, `/a/b`. */
export function ancestors(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}
