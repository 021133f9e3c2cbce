/** The subtree tools' logic (walk, export format, import planning and batching), below the CLI commands. */

export { applyPlan, readCurrent, type ApplyOptions, type ApplyResult } from './apply.js';
export * from './export-format.js';
export { globToRegExp } from './glob.js';
export * from './import-plan.js';
export { kindOf, looksSequential, type KindOf, type NodeKind } from './node-kind.js';
export { walkTree, type TreeNode, type WalkOptions } from './walk.js';
