/**
 * A small XML well-formedness checker for the bench SVG tests (no dependencies): one root element, properly
 * nested and matching tags, quoted attributes without duplicates, only the predefined or numeric entities, no
 * raw `<` or `&` in text or attribute values, nothing but whitespace, comments and the declaration outside the
 * root. Returns the problems found (empty when well-formed) and the element names seen.
 */

const NAME = /^[A-Za-z_:][-A-Za-z0-9_.:]*/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);/;

function checkText(s: string, where: string, problems: string[]): void {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '<') problems.push(`raw < in ${where}`);
    if (s[i] === '&' && !ENTITY.test(s.slice(i))) problems.push(`bad entity in ${where}: ${s.slice(i, i + 10)}`);
  }
}

export function checkXml(xml: string): { problems: string[]; elements: string[] } {
  const problems: string[] = [];
  const elements: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  let i = 0;
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) return { problems: ['unterminated XML declaration'], elements };
    i = end + 2;
  }
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (stack.length === 0 && text.trim() !== '') problems.push(`text outside the root: ${text.trim().slice(0, 20)}`);
    checkText(text, 'text', problems);
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) {
        problems.push('unterminated comment');
        break;
      }
      i = end + 3;
      continue;
    }
    const gt = xml.indexOf('>', lt);
    if (gt < 0) {
      problems.push('unterminated tag');
      break;
    }
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = NAME.exec(body)?.[0];
    if (name === undefined) {
      problems.push(`bad tag <${tag.slice(0, 20)}>`);
      continue;
    }
    let rest = body.slice(name.length);
    const seen = new Set<string>();
    for (;;) {
      rest = rest.replace(/^\s+/, '');
      if (rest === '') break;
      const m = /^([A-Za-z_:][-A-Za-z0-9_.:]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(rest);
      if (m === null) {
        problems.push(`bad attribute in <${name}>: ${rest.slice(0, 20)}`);
        break;
      }
      if (seen.has(m[1]!)) problems.push(`duplicate attribute ${m[1]} in <${name}>`);
      seen.add(m[1]!);
      checkText(m[3] ?? m[4] ?? '', `attribute ${m[1]}`, problems);
      rest = rest.slice(m[0].length);
    }
    if (stack.length === 0) roots++;
    elements.push(name);
    if (!selfClosing) stack.push(name);
  }
  if (stack.length > 0) problems.push(`unclosed <${stack.join('> <')}>`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return { problems, elements };
}
