/**
 * The `zkwire/tools` entry (Node only): the tracing proxy behind `zkwire trace`, for programs and test suites that
 * want to watch what a ZooKeeper client sends, and the printers the CLI uses for its events and summary.
 *
 * @module zkwire/tools
 */

export { DEFAULT_TRACE_MAX_FRAME_SIZE, startTraceProxy, type HostPort, type TraceProxy, type TraceProxyOptions } from './tools/trace/proxy.js';
export type { TraceClock } from './tools/trace/connection.js';
export type { LatencySummary, OpSummary, TraceSummary } from './tools/trace/summary.js';
export type {
  BadLineEvent,
  CaptureConnection,
  CaptureEvent,
  ConnectionCloseEvent,
  ConnectionOpenEvent,
  FrameEvent,
  GapEvent,
  LineOrigin,
} from './tools/capture/events.js';
export { formatSummaryText } from './tools/trace/format.js';
export { CaptureEventPrinter, type CaptureEventPrinterOptions, type EventLine } from './tools/decode/printer.js';
