/**
 * The order of sequential children, for every recipe (locks, semaphores, leader latches, participants): the one
 * place that reads ZooKeeper's sequence suffix.
 *
 * Curator orders children by the text after the last occurrence of the recipe's name (`lock-`, `__READ__`,
 * `__WRIT__`, `latch-`, `lease-`), which skips the `_c_<uuid>-` protection prefix
 * (StandardLockInternalsDriver.fixForSorting). For every sequence number ZooKeeper hands out before its counter
 * passes 2^31 - 1, that text is ten zero-padded digits and text order is numeric order, so we agree with Curator
 * exactly, byte for byte. Past that point ZooKeeper formats the counter (a signed 32-bit int, `%010d`) as a
 * negative number (`-2147483648`, then up to `-000000001`, then `0000000000` again), and text order would put the
 * newest node first, letting two clients hold one mutex or two latches lead. We instead order by the counter as an
 * unsigned 32-bit value read on a circle, starting after the widest gap between live sequence numbers: while every
 * live child of one parent was created within 2^31 creations of the others (always, in practice), that is the true
 * creation order, and it is identical to Curator's order whenever the counter has not wrapped. Names without a
 * sequence keep Curator's text order among themselves and come after every sequenced child.
 */

const UINT32 = 2 ** 32;

/**
 * Curator's sort key: the text after the last occurrence of each lock name in turn (a read/write lock strips
 * `__READ__` and then `__WRIT__`). A name that contains none of them is its own key.
 */
export function sortKey(name: string, lockNames: readonly string[]): string {
  let key = name;
  for (const lockName of lockNames) {
    const at = key.lastIndexOf(lockName);
    if (at >= 0) key = key.slice(at + lockName.length);
  }
  return key;
}

/**
 * ZooKeeper's sequence suffix, as written by `%010d` of a signed 32-bit counter: ten digits for 0 ..
 * 2147483647, a minus sign and nine digits for -1 .. -999999999, a minus sign and ten digits below that.
 * Returns undefined for anything else (so a stray child is never mistaken for a lock node).
 */
export function parseSequence(suffix: string): number | undefined {
  if (/^\d{10}$/.test(suffix)) {
    const value = Number(suffix);
    return value <= 0x7fffffff ? value : undefined;
  }
  if (/^-\d{9,10}$/.test(suffix)) {
    const value = Number(suffix);
    // `-000000000` is not something ZooKeeper writes (zero is positive); below -2^31 is not an int.
    if (value === 0 || Object.is(value, -0) || value < -0x80000000) return undefined;
    // ten digits after the sign only when nine would not do, as %010d pads to ten characters in all
    if (suffix.length === 11 && value > -1_000_000_000) return undefined;
    return value;
  }
  return undefined;
}

/** The sequence number of a lock child, or undefined when its name does not end in one after a lock name. */
export function lockSequence(name: string, lockNames: readonly string[]): number | undefined {
  if (!lockNames.some((lockName) => name.includes(lockName))) return undefined;
  return parseSequence(sortKey(name, lockNames));
}

/**
 * Children in lock order (see the file comment). Names without a sequence keep Curator's text order among
 * themselves and come after every sequenced node: they are not lock participants and must not block one.
 */
export function sortLockChildren(children: readonly string[], lockNames: readonly string[]): string[] {
  const sequenced: { name: string; u: number }[] = [];
  const others: { name: string; key: string }[] = [];
  for (const name of children) {
    const seq = lockSequence(name, lockNames);
    if (seq === undefined) others.push({ name, key: sortKey(name, lockNames) });
    else sequenced.push({ name, u: seq >>> 0 });
  }
  sequenced.sort((a, b) => a.u - b.u);
  const start = startAfterWidestGap(sequenced.map((s) => s.u));
  others.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return [
    ...sequenced.slice(start).map((s) => s.name),
    ...sequenced.slice(0, start).map((s) => s.name),
    ...others.map((o) => o.name),
  ];
}

/**
 * Index (into ascending unsigned values) of the oldest node on the counter's circle: the one right after the
 * widest gap. Ties keep index 0, so without a wrap the order is plain ascending.
 */
function startAfterWidestGap(ascending: readonly number[]): number {
  const n = ascending.length;
  if (n < 2) return 0;
  let widest = (ascending[0] as number) + UINT32 - (ascending[n - 1] as number);
  let start = 0;
  for (let i = 1; i < n; i++) {
    const gap = (ascending[i] as number) - (ascending[i - 1] as number);
    if (gap > widest) {
      widest = gap;
      start = i;
    }
  }
  return start;
}


/** Children in creation order for one recipe name (`latch-`, `lock-`, …): sortLockChildren with that name. */
export function sortSequential(children: readonly string[], name: string): string[] {
  return sortLockChildren(children, [name]);
}
