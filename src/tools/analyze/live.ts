/**
 * The analysis kept up to date while the tracing proxy forwards (`zkwire trace --analyze`): the proxy's capture
 * events go into the same Analyzer `zkwire analyze` uses on a file. It only reads what the proxy hands out after
 * forwarding, so it cannot change or delay a byte.
 */

import type { CaptureEvent } from '../capture/events.js';
import { Analyzer, type AnalyzeOptions } from './analyzer.js';
import type { AnalysisReport } from './report.js';

export class LiveAnalysis {
  readonly #analyzer: Analyzer;
  #openConnections = 0;

  constructor(opts: AnalyzeOptions = {}) {
    this.#analyzer = new Analyzer(opts);
  }

  event(ev: CaptureEvent): void {
    if (ev.type === 'open') this.#openConnections++;
    else if (ev.type === 'close') this.#openConnections--;
    this.#analyzer.add(ev);
  }

  /** Connections open right now. */
  get connections(): number {
    return this.#openConnections;
  }

  /** The report so far, leaving open what only the end can settle. */
  snapshot(): AnalysisReport {
    return this.#analyzer.report(false);
  }

  /** The final report, once the proxy has stopped. */
  final(): AnalysisReport {
    return this.#analyzer.report(true);
  }
}
