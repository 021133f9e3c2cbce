/**
 * The analysis as one self-contained HTML page: inline CSS and SVG, no script, no external anything (a
 * Content-Security-Policy that forbids loading anything makes sure of it). Written for someone who has never read
 * the ZooKeeper protocol: every section says in plain words what it shows and what a finding means. Every string
 * that came from the capture (paths, node names, addresses) is escaped: capture contents are attacker-controlled.
 */

import { withoutProtection } from '../../recipes/locks/naming.js';
import { esc, histogramSvg, leaderTimelineSvg, lockTimelineSvg, sessionTimelineSvg } from './html-charts.js';
import type { AnalysisReport, GuardrailKind, LatencySummary, LeaderReport, LockReport, OpRow, TransactionsReport } from './report.js';
import { fmtAt, fmtMs, sessionCells, TXN_CHANGE_HEAD, txnChangeCells } from './render-text.js';

export interface HtmlOptions {
  /** What was analysed (a file name), shown in the title. */
  title?: string;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2a44;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}header p{margin:0;opacity:.85}
main{padding:10px 28px 40px;max-width:1200px}
section{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:14px 18px;margin:16px 0;overflow-x:auto}
h2{font-size:18px;margin:0 0 6px}h3{font-size:15px;margin:14px 0 6px}
p.explain{color:#4a5263;margin:0 0 10px;max-width:900px}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border-bottom:1px solid #e6e9ef;padding:3px 7px;text-align:right;white-space:nowrap}
th{background:#f0f2f6;font-weight:600}td.l,th.l{text-align:left}td.w{white-space:normal;overflow-wrap:anywhere;min-width:260px}td.path{max-width:520px;overflow:hidden;text-overflow:ellipsis}
ul.findings{padding-left:0;list-style:none}ul.findings li{margin:6px 0;padding:8px 12px;border-radius:6px;border-left:5px solid}
li.bad{background:#fdecec;border-color:#c62828}li.warn{background:#fff6e0;border-color:#e0a100}li.ok{background:#eaf6ec;border-color:#2e7d32}
li b{display:block}
svg text{font-size:11px;fill:#333}svg .label{text-anchor:end}svg .dir{font-weight:600}svg .tick{text-anchor:middle;fill:#555}
svg .axis{stroke:#777}svg .note{fill:#777;font-style:italic}svg .who{fill:#555}svg .conn{fill:#5b8ad6}svg .conn.resumed{fill:#8e6bd1}svg .silence{fill:#f0a020}
svg .closed{stroke:#333;stroke-width:2;fill:none}svg .expired{stroke:#c62828;stroke-width:3;fill:none}
svg .gap{fill:#e8b4b4}svg .hold{fill:#3f9d63}svg .hold.read{fill:#76b7e0}svg .hold.write{fill:#c77c2a}svg .violation{fill:rgba(200,30,30,.35);stroke:#c62828}
svg .txn{fill:#4a78b5;stroke:#fff;stroke-width:1}svg .txn.created{fill:#2e7d32}svg .txn.deleted,svg .txn.deleted-with-session{fill:#c62828}svg .bar{fill:#4a78b5}.hists{display:flex;flex-wrap:wrap;gap:8px}.hists svg{width:480px;height:auto}.none{color:#777;font-style:italic}.legend span{display:inline-block;margin-right:14px}
.sw{display:inline-block;width:12px;height:10px;margin-right:4px;vertical-align:middle}
`;

const GUARDRAIL_MEANING: Record<GuardrailKind, string> = {
  'near-max-buffer': 'A request or reply close to the server’s size limit (jute.maxbuffer). Past it the server drops the connection. Keep node data small; store large values elsewhere.',
  'huge-children': 'A node with a very long list of children. Listing it is slow and the reply can exceed the size limit. Spread children over more parents.',
  'reply-out-of-order': 'The server answers a connection’s requests in the order they were sent. A reply out of order points at a broken server, proxy or capture.',
  'request-after-close': 'The client kept sending after it asked to close its session. Those requests fail; the client has a shutdown bug.',
  unanswered: 'A request that never got its reply in this capture: the connection dropped, the server stalled, or the capture stopped first.',
  'slow-reply': 'A reply slower than the threshold you chose. Look at the server’s load, disk (fsync) and network.',
  gap: 'Bytes missing from the capture; decoding skipped ahead. Findings near a gap may be incomplete.',
  undecodable: 'A frame that could not be decoded: not ZooKeeper, corrupted, or a protocol feature this tool does not know.',
  'unmatched-reply': 'A reply whose request is not in the capture (the capture started after it was sent).',
};

function latencyCells(l: LatencySummary | null): string {
  return l === null ? '<td>-</td><td>-</td><td>-</td><td>-</td>' : [l.p50, l.p90, l.p99, l.max].map((v) => `<td>${esc(fmtMs(v))}</td>`).join('');
}

function opsTable(keyName: string, rows: readonly OpRow[], limit = 50): string {
  if (rows.length === 0) return '<p class="none">No requests.</p>';
  const body = rows
    .slice(0, limit)
    .map((r) => {
      const errs = Object.entries(r.errors).map(([k, n]) => `${k}×${n}`).join(' ');
      return `<tr><td class="l path">${esc(r.key)}</td><td>${r.requests}</td><td>${r.replies}</td><td class="l">${esc(errs)}</td>${latencyCells(r.latencyMs)}</tr>`;
    })
    .join('');
  const more = rows.length > limit ? `<p class="none">${rows.length - limit} more rows (see --json).</p>` : '';
  return `<table><thead><tr><th class="l">${esc(keyName)}</th><th>requests</th><th>replies</th><th class="l">errors</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>${body}</tbody></table>${more}`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[], left = 1): string {
  const th = head.map((h, i) => `<th${i < left ? ' class="l"' : ''}>${esc(h)}</th>`).join('');
  // Long cells (paths) wrap; short ones (ids, times) never do.
  const cls = (c: string, i: number): string => [i < left ? 'l' : '', c.length > 40 ? 'w' : ''].filter((x) => x !== '').join(' ');
  const tr = rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(c, i) === '' ? '' : ` class="${cls(c, i)}"`}>${esc(c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`;
}

const short = (path: string): string => withoutProtection(path.slice(path.lastIndexOf('/') + 1));

interface Finding {
  level: 'bad' | 'warn' | 'ok';
  title: string;
  text: string;
}

function findings(r: AnalysisReport): Finding[] {
  const out: Finding[] = [];
  for (const l of r.locks) {
    for (const v of l.violations) {
      out.push({
        level: 'bad',
        title: `Two holders at once on lock ${l.dir}`,
        text: `${v.a.session} (${short(v.a.node)}) and ${v.b.session} (${short(v.b.node)}) both held it from ${fmtAt(v.fromMs)} to ${fmtAt(v.toMs)}. A lock exists to prevent exactly this: the work they protect may have run twice at once. Usually the first holder lost its node (session expired or node deleted) without noticing; clients must treat a lost connection as a lost lock.`,
      });
    }
    for (const o of l.orphans) {
      out.push({ level: 'warn', title: `Orphaned lock node ${short(o.node)} in ${l.dir}`, text: `Owned by ${o.session}: ${o.why}. Until it goes away, everyone queued behind it waits.` });
    }
  }
  // A mutex's overlaps are its lock violations above; a latch's are reported here.
  for (const l of r.leaders.filter((x) => x.basis === 'latch')) {
    for (const v of l.overlaps) {
      out.push({ level: 'bad', title: `Two leaders at once on ${l.path}`, text: `${v.a.session} (${short(v.a.node)}) and ${v.b.session} (${short(v.b.node)}) both led from ${fmtAt(v.fromMs)} to ${fmtAt(v.toMs)}. Usually the first lost its node (session expired or node deleted) without noticing.` });
    }
  }
  for (const s of r.sessions) {
    if (s.end.kind === 'expired') {
      out.push({ level: 'bad', title: `Session ${s.id} expired`, text: `${s.end.how}. The server ended the session because it heard nothing for longer than its timeout (${fmtMs(s.timeoutMs)}); its ephemeral nodes and watches are gone and its locks were released.` });
    }
    if (s.silences.length > 0) {
      const worst = Math.max(...s.silences.map((x) => x.ms));
      out.push({ level: 'warn', title: `Session ${s.id} went quiet ${s.silences.length} time(s)`, text: `The longest silence was ${fmtMs(worst)}; a healthy client pings every third of its ${fmtMs(s.timeoutMs)} timeout. Long pauses (garbage collection, a blocked event loop, a slow network) bring a session close to expiry.` });
    }
  }
  if (r.watches.notRestored.length > 0) {
    out.push({ level: 'bad', title: `${r.watches.notRestored.length} watch(es) not re-registered after a reconnect`, text: 'After reconnecting, a client must send its watches again (setWatches); these it did not, so it will never hear about those changes.' });
  }
  for (const h of r.watches.herds) {
    out.push({ level: 'warn', title: `Herd: one change woke ${h.sessions} sessions`, text: `${h.event} on ${h.path} notified ${h.sessions} sessions within ${fmtMs(h.spreadMs)}. Each of them then typically reads the same node at once; recipes avoid this by having each waiter watch only its predecessor.` });
  }
  for (const [k, n] of Object.entries(r.guardrails.counts)) {
    out.push({ level: k === 'slow-reply' || k === 'unanswered' || k === 'gap' ? 'warn' : 'bad', title: `${n} × ${k}`, text: GUARDRAIL_MEANING[k as GuardrailKind] });
  }
  if (out.length === 0) out.push({ level: 'ok', title: 'Nothing alarming', text: 'No lock violation, expiry, lost watch, herd or guardrail finding in this capture.' });
  return out;
}

function lockSection(l: LockReport): string {
  const parts: string[] = [`<div class="lock" data-lock="${esc(l.dir)}"><h3>${esc(l.dir)} <small>— ${esc(l.recipe)}, ${l.contenders} contender node(s)</small></h3>`];
  if (l.handoffMs !== null) parts.push(`<p>Hand-off (holder releases → next holder learns it holds): p50 ${esc(fmtMs(l.handoffMs.p50))}, p99 ${esc(fmtMs(l.handoffMs.p99))}, max ${esc(fmtMs(l.handoffMs.max))}.</p>`);
  parts.push(
    l.holders.length === 0
      ? '<p class="none">Nobody held this lock in the capture.</p>'
      : table(
          ['holder node', 'session', 'mode', 'from', 'to', 'hand-off', 'ended by'],
          l.holders.slice(0, 300).map((h) => [short(h.node), h.session, h.mode, fmtAt(h.fromMs), fmtAt(h.toMs), fmtMs(h.handoffMs), h.how ?? 'still held at the end']),
          3,
        ) + (l.holders.length > 300 ? `<p class="none">${l.holders.length - 300} more holders (see --json).</p>` : ''),
  );
  if (l.waits.length > 0) parts.push('<h3>Wait chain</h3>' + table(['waiting node', 'session', 'watched', 'at'], l.waits.slice(0, 200).map((w) => [short(w.waiter), w.waiterSession, short(w.watched), fmtAt(w.atMs)]), 3));
  if (l.orphans.length > 0) parts.push('<h3>Orphaned nodes</h3>' + table(['node', 'session', 'why'], l.orphans.map((o) => [short(o.node), o.session, o.why]), 3));
  if (l.violations.length > 0) parts.push('<h3>Violations</h3>' + table(['first', 'second', 'from', 'to'], l.violations.map((v) => [`${short(v.a.node)} (${v.a.session})`, `${short(v.b.node)} (${v.b.session})`, fmtAt(v.fromMs), fmtAt(v.toMs)]), 2));
  parts.push('</div>');
  return parts.join('');
}

function leaderSection(l: LeaderReport): string {
  const parts: string[] = [`<div class="leader" data-leader="${esc(l.path)}"><h3>${esc(l.path)} <small>— ${esc(l.recipe)}, ${l.candidates} candidate node(s)</small></h3>`];
  parts.push(
    l.terms.length === 0
      ? '<p class="none">Nobody led in the capture.</p>'
      : table(['leader node', 'session', 'client', 'from', 'to', 'ended by'], l.terms.slice(0, 300).map((t) => [short(t.node), t.session, t.client ?? '?', fmtAt(t.fromMs), fmtAt(t.toMs), t.ended ?? 'still leading at the end']), 3) +
          (l.terms.length > 300 ? `<p class="none">${l.terms.length - 300} more terms (see --json).</p>` : ''),
  );
  if (l.gaps.length > 0) parts.push('<h3>Without a leader</h3>' + table(['from', 'to', 'for', 'after', 'until'], l.gaps.slice(0, 300).map((g) => [fmtAt(g.fromMs), fmtAt(g.toMs), g.toMs === null ? '-' : fmtMs(g.toMs - g.fromMs), g.after, g.before ?? '-']), 2));
  if (l.overlaps.length > 0) parts.push('<h3>Two leaders at once</h3>' + table(['first', 'second', 'from', 'to'], l.overlaps.map((v) => [`${short(v.a.node)} (${v.a.session})`, `${short(v.b.node)} (${v.b.session})`, fmtAt(v.fromMs), fmtAt(v.toMs)]), 2));
  parts.push('</div>');
  return parts.join('');
}

function transactionsSection(t: TransactionsReport): string {
  const what = t.path === null ? 'every change the capture’s sessions made' : `every change of ${esc(t.path)} and below, by any session`;
  const rows = t.changes.slice(0, 300).map(txnChangeCells);
  const more = t.changes.length + t.omitted - rows.length;
  return `<section id="transactions"><h2>Who changed what</h2><p class="explain">From the server’s transaction log (${esc(t.source)}: ${t.scanned} transactions, ${t.fromCapture} of them by sessions seen in this capture): ${what}, with the client address the session used at the time. The log is the server’s own record of every change; the capture tells which client each session was.</p>
${rows.length === 0 ? '<p class="none">No change.</p>' : table(TXN_CHANGE_HEAD, rows, 7)}${more > 0 ? `<p class="none">${more} more changes (see --json).</p>` : ''}
</section>`;
}

/** The whole page. */
export function renderReportHtml(r: AnalysisReport, opts: HtmlOptions = {}): string {
  const title = `ZooKeeper conversation${opts.title === undefined ? '' : `: ${opts.title}`}`;
  const start = r.startUs > 0 ? `, starting ${new Date(r.startUs / 1000).toISOString()}` : '';
  const w = r.watches;
  const sessionsRows = r.sessions.map(sessionCells);
  const ephemerals = r.sessions.flatMap((s) => s.ephemerals.map((e) => [e.path, s.id, fmtAt(e.atMs), e.deletedAtMs === null ? 'still there' : fmtAt(e.deletedAtMs)]));
  const watchRows = w.list.slice(0, 300).map((x) => [x.path, x.kind, x.session, fmtAt(x.setMs), x.fired === null ? (x.dropped ?? 'still armed') : `${x.fired.event} at ${fmtAt(x.fired.atMs)}`, x.fired === null ? '-' : fmtMs(x.fired.latencyMs)]);
  const body = `
<header><h1>${esc(title)}</h1><p>${r.connections} connection(s), ${r.sessions.length} session(s), ${r.frames} frame(s) over ${esc(fmtMs(r.durationMs))}${esc(start)}.</p></header>
<main>
<section id="findings"><h2>Findings</h2><p class="explain">What deserves a look, most serious first. Red: something went wrong. Amber: a risk. Each says what it means.</p>
<ul class="findings">${findings(r)
    .sort((a, b) => (a.level === b.level ? 0 : a.level === 'bad' ? -1 : b.level === 'bad' ? 1 : a.level === 'warn' ? -1 : 1))
    .map((f) => `<li class="${f.level}"><b>${esc(f.title)}</b>${esc(f.text)}</li>`)
    .join('')}</ul></section>
<section id="sessions"><h2>Sessions</h2><p class="explain">A session is a client’s identity on the server; it outlives a single TCP connection (a client that reconnects in time resumes it) and ends when the client closes it or the server expires it after hearing nothing for the timeout. Its ephemeral nodes and watches live and die with it. Each bar is one connection; purple bars resumed the session after a reconnect; amber marks silences longer than a third of the timeout; ✕ marks the end (red: expired).${r.transactions === undefined ? '' : ' Diamonds are the session’s transactions from the server’s log (green created, blue changed, red deleted): hover for the zxid, operation and path.'}</p>
<p class="legend"><span><i class="sw" style="background:#5b8ad6"></i>connection</span><span><i class="sw" style="background:#8e6bd1"></i>resumed connection</span><span><i class="sw" style="background:#f0a020"></i>silence</span></p>
${sessionTimelineSvg(r.sessions, r.durationMs, r.transactions?.changes)}
${table(['session', 'timeout', 'connections', 'reconnects', 'disconnects', 'ping p50 / p99', 'silences', 'ephemerals', 'requests', 'end'], sessionsRows)}
</section>
<section id="locks"><h2>Locks</h2><p class="explain">Locks recognised by the names their libraries give to nodes (Curator, kazoo, zkwire). Each contender creates a numbered node; the lowest number holds the lock (for read/write locks, readers ahead of the first writer share it) and every other contender watches the one just ahead of it. The drawing is zoomed to the time the locks were in use. A bar is one holder, from when it learned it held the lock to when it let go. Hand-off is how long the next contender took to notice. Two bars overlapping on one exclusive lock is a violation.</p>
<p class="legend"><span><i class="sw" style="background:#3f9d63"></i>exclusive</span><span><i class="sw" style="background:#76b7e0"></i>read</span><span><i class="sw" style="background:#c77c2a"></i>write</span><span><i class="sw" style="background:rgba(200,30,30,.35)"></i>two holders at once</span></p>
${lockTimelineSvg(r.locks, r.durationMs)}
${r.locks.length === 0 ? '<p class="none">No lock recognised.</p>' : r.locks.map(lockSection).join('')}
</section>
<section id="leaders"><h2>Leaders</h2><p class="explain">Leader elections recognised by their node names. A LeaderLatch (Curator’s or zkwire’s, <code>latch-</code> nodes) is certainly one: the candidate with the lowest number leads. Curator’s LeaderSelector and kazoo’s Election are a mutex underneath, with the same nodes as one, so every mutex is listed here as a possible election: if it is one, its lock holders are its leaders. A bar is one leader, from when it learned it led to what ended it (its node deleted when the candidate closed or let go, or its session closed or expired); pink rows are stretches with no leader.</p>
<p class="legend"><span><i class="sw" style="background:#3f9d63"></i>leader</span><span><i class="sw" style="background:#e8b4b4"></i>no leader</span><span><i class="sw" style="background:rgba(200,30,30,.35)"></i>two leaders at once</span></p>
${leaderTimelineSvg(r.leaders, r.durationMs)}
${r.leaders.length === 0 ? '<p class="none">No election recognised.</p>' : r.leaders.map(leaderSection).join('')}
</section>
<section id="watches"><h2>Watches</h2><p class="explain">A watch asks the server for one notification when a node changes. ${w.set} watch(es) were set, ${w.fired} fired, ${w.armedAtEnd} were still waiting at the end.${w.fireLatencyMs === null ? '' : ` Time from setting a watch to its notification: p50 ${esc(fmtMs(w.fireLatencyMs.p50))}, max ${esc(fmtMs(w.fireLatencyMs.max))}.`} A watch that was armed when its client reconnected must be sent again or it is silently lost; a herd is one change that woke many sessions at once.</p>
${watchRows.length === 0 ? '<p class="none">No watch set.</p>' : table(['path', 'kind', 'session', 'set', 'fired by', 'set → fire'], watchRows, 3)}
${w.notRestored.length === 0 ? '' : `<h3>Not re-registered after a reconnect</h3>${table(['path', 'kind', 'session', 'reconnect'], w.notRestored.map((l) => [l.path, l.kind, l.session, fmtAt(l.reconnectMs)]), 3)}`}
${w.herds.length === 0 ? '' : `<h3>Herds</h3>${table(['path', 'event', 'sessions', 'at', 'spread'], w.herds.map((h) => [h.path, h.event, String(h.sessions), fmtAt(h.atMs), fmtMs(h.spreadMs)]), 2)}`}
</section>
<section id="ephemerals"><h2>Ephemeral nodes</h2><p class="explain">Nodes that exist only as long as the session that made them: the server removes them when the session is closed or expires. Lock contenders are ephemeral nodes too.</p>
${ephemerals.length === 0 ? '<p class="none">No ephemeral node created.</p>' : table(['node', 'session', 'created', 'removed'], ephemerals.slice(0, 300), 2)}
</section>
<section id="latency"><h2>Requests and latency</h2><p class="explain">Every request and how long the server took to answer it (time from request to reply as seen on the wire), overall and for the busiest operations; the axis is logarithmic, so a second hump far to the right is a group of slow replies. p50 is the typical reply, p99 the slowest one in a hundred. Errors are ZooKeeper’s own result codes: NONODE and NODEEXISTS are often normal (a recipe checking), SESSIONEXPIRED and CONNECTIONLOSS are not.</p>
${histogramSvg(r.ops.histogram, 'reply latency, all requests')}
<div class="hists">${[...r.ops.byOp]
    .filter((o) => o.key !== 'connect' && (o.histogram?.length ?? 0) > 0)
    .sort((a, b) => b.replies - a.replies)
    .slice(0, 4)
    .map((o) => `<div>${histogramSvg(o.histogram ?? [], `${o.key} latency`)}</div>`)
    .join('')}</div>
<h3>By operation</h3>${opsTable('op', r.ops.byOp)}
<h3>By path (first ${r.ops.depth} segment(s))</h3>${opsTable('path', r.ops.byPath)}
<h3>By session</h3>${opsTable('session', r.ops.bySession)}
<h3>By client</h3>${opsTable('client', r.ops.byClient)}
</section>
${r.transactions === undefined ? '' : transactionsSection(r.transactions)}
<section id="guardrails"><h2>Guardrails</h2><p class="explain">Things that are not errors yet but fail in production.</p>
${
  r.guardrails.findings.length === 0
    ? '<p class="none">Nothing to report.</p>'
    : table(['at', 'kind', 'connection', 'session', 'op', 'path', 'detail'], r.guardrails.findings.slice(0, 300).map((f) => [fmtAt(f.atMs), f.kind, f.conn, f.session ?? '-', f.op ?? '-', f.path ?? '-', f.detail]), 7)
}
</section>
</main>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}
