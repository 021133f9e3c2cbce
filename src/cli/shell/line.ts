/**
 * The shell's line parser: words as a POSIX shell splits them, without expansion. Whitespace separates words;
 * '…' is literal; "…" keeps whitespace and takes \" and \\ as escapes; outside quotes a backslash makes the next
 * character literal. So `set /app '{"v": 1}'` gives three words, the last one the JSON as typed.
 */

/** The words of `line`, or the reason it cannot be split (an open quote, a trailing backslash). */
export function splitLine(line: string): string[] | { error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { error: "unterminated ' quote" };
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return { error: 'unterminated " quote' };
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) i++;
        word += line[i]!;
        i++;
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return { error: 'a backslash ends the line' };
      word += line[i + 1]!;
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The word the cursor is in at the end of `line` (the text up to the cursor), as typed, and how many words come
 * before it. A word with a quote or backslash in it is not completed: `plain` is false then.
 */
export function wordAtEnd(line: string): { word: string; before: number; plain: boolean } {
  const start = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t')) + 1;
  const word = line.slice(start);
  const head = splitLine(line.slice(0, start));
  const before = Array.isArray(head) ? head.length : -1;
  return { word, before, plain: before >= 0 && !/['"\\]/.test(word) };
}
