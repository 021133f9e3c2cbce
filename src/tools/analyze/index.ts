/** `zkwire analyze`: what happened in a ZooKeeper conversation, from any stream of capture events. */

export { Analyzer, analyzeEvents, type AnalyzeOptions } from './analyzer.js';
export { leaderReports } from './leaders.js';
export { recogniseLockNode, type LockNodeName } from './lock-names.js';
export { renderReportText } from './render-text.js';
export type * from './report.js';
export { clientAt, linkTransactions, MAX_TXN_CHANGES, TxnLinker, type TxnLinkOptions } from './transactions.js';
