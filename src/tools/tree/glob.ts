/** Shell-style name patterns for `zkwire find --name`: `*` any run of characters, `?` one, `[abc]`/`[a-z]` a set. */

/** The pattern as an anchored RegExp matching a whole node name, or the reason it is not a pattern. */
export function globToRegExp(glob: string): RegExp | string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) return `unclosed [ in ${JSON.stringify(glob)}`;
      let set = glob.slice(i + 1, end);
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      out += `[${set.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`^${out}$`, 'su');
  } catch (e) {
    return `bad pattern ${JSON.stringify(glob)}: ${e instanceof Error ? e.message : String(e)}`;
  }
}
