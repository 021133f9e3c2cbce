/** The tracing proxy behind `zkwire trace` (Node only): forwarding, live decoding, capture and summary. */

export type { TraceClock } from './connection.js';
export { clockTime, formatSummaryText } from './format.js';
export { DEFAULT_TRACE_MAX_FRAME_SIZE, startTraceProxy, type HostPort, type TraceProxy, type TraceProxyOptions } from './proxy.js';
export { TraceSummarizer, type LatencySummary, type OpSummary, type TraceSummary } from './summary.js';
