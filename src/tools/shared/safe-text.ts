/**
 * The one escaping of untrusted text in what the tools print: node paths, node names and capture bytes may hold
 * anything, terminal escape sequences included. Control characters (C0, DEL, C1) become `\xNN`, so a hostile path
 * can neither rewrite the screen nor hide in a message.
 */
export function safeText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
