/** Moved to src/tools/figures/table.ts (shared by the benchmarks, analyze and trace); kept so imports of this path still work. */
export * from '../figures/table.js';
