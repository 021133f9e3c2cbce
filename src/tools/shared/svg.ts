/**
 * What every SVG the tools draw is made of (the lock bench's figure, the analyze report's charts): escaped text
 * and coordinates with one decimal. Inline, self-contained SVG: no script, font, style sheet or link.
 */

/**
 * Escapes text for XML and HTML character data and attribute values. `'` becomes `&#39;`, which HTML 4 knows as
 * well as XML (`&apos;` is XML and HTML 5 only), so one escaper serves a standalone SVG and an HTML page.
 */
export function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A coordinate with one decimal, as short as it goes (12, 12.5). */
export function n1(v: number): string {
  return (Math.round(v * 10) / 10).toString();
}

/** A `<text>` element at (x, y) with `attrs` (already escaped) and the escaped text `s`. */
export function svgText(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${n1(x)}" y="${n1(y)}"${attrs === '' ? '' : ' ' + attrs}>${xmlEscape(s)}</text>`;
}
