/**
 * The analysis kept up to date while the tracing proxy forwards (`zkwire trace --analyze`): each proxy record
 * becomes capture events for the same Analyzer `zkwire analyze` uses on a file. It only reads the records the
 * proxy hands out after forwarding, so it cannot change or delay a byte.
 */

import type { TraceRecord } from '../trace/records.js';
import { TraceEventAdapter } from '../trace/capture-events.js';
import { Analyzer, type AnalyzeOptions } from './analyzer.js';
import type { AnalysisReport } from './report.js';

export class LiveAnalysis {
  private readonly analyzer: Analyzer;
  private readonly adapter: TraceEventAdapter;
  private openConnections = 0;

  /** `nowUs`: wall-clock µs, read as each record arrives. */
  constructor(nowUs: () => number, opts: AnalyzeOptions = {}) {
    this.analyzer = new Analyzer(opts);
    this.adapter = new TraceEventAdapter(nowUs);
  }

  record(rec: TraceRecord): void {
    if (rec.type === 'open') this.openConnections++;
    else if (rec.type === 'close') this.openConnections--;
    for (const ev of this.adapter.events(rec)) this.analyzer.add(ev);
  }

  /** Connections open right now. */
  get connections(): number {
    return this.openConnections;
  }

  /** The report so far, leaving open what only the end can settle. */
  snapshot(): AnalysisReport {
    return this.analyzer.report(false);
  }

  /** The final report, once the proxy has stopped. */
  final(): AnalysisReport {
    return this.analyzer.report(true);
  }
}
