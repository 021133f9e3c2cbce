/**
 * Runs an import plan against a server: reads what the target paths hold now, then writes the plan's batches, one
 * multi each (atomic: a batch is all written or not at all), after the ACL updates. Stops between batches when the
 * signal aborts, and says how far it got, so a rerun of the same import picks up from there.
 */

import type { ZooKeeperClient } from '../../client.js';
import { Op, type WriteOp } from '../../client/multi.js';
import { isCode } from '../../errors.js';
import { aclFromJson, dataFromExport, type ExportNode } from './export-format.js';
import { batches, writeSteps, type CurrentNode, type PlanStep } from './import-plan.js';
import { kindOf } from './node-kind.js';

/** How many reads are on the wire at once while the current state is read. */
const READ_WINDOW = 256;

/** What the server holds now at each of `paths` (absent paths are not in the map). */
export async function readCurrent(client: ZooKeeperClient, paths: readonly string[], signal?: AbortSignal): Promise<Map<string, CurrentNode>> {
  const out = new Map<string, CurrentNode>();
  const call = signal === undefined ? {} : { signal };
  for (let i = 0; i < paths.length; i += READ_WINDOW) {
    const window = paths.slice(i, i + READ_WINDOW);
    // All issued before the first await, so they share the wire.
    const reads = window.map((path) => Promise.all([client.getData(path, call), client.getACL(path, call)]).catch((e: unknown) => (isCode(e, 'NONODE') ? null : Promise.reject(e))));
    const results = await Promise.all(reads);
    results.forEach((r, j) => {
      if (r !== null) out.set(window[j]!, { data: r[0].data, acl: r[1].acl, kind: kindOf(r[0].stat.ephemeralOwner).kind });
    });
  }
  return out;
}

function writeOp(step: PlanStep & { action: 'create' | 'update' }): WriteOp {
  const data = dataFromExport(step.node);
  if (step.action === 'update') return Op.setData(step.path, data);
  return Op.create(step.path, data, createOptions(step.node));
}

function createOptions(node: ExportNode): { mode: 'persistent' | 'container' | 'ttl'; acl: ReturnType<typeof aclFromJson>; ttl?: number } {
  const acl = aclFromJson(node.acl);
  if (node.kind === 'container') return { mode: 'container', acl };
  if (node.kind === 'ttl') return { mode: 'ttl', acl, ttl: node.ttl ?? 0 };
  return { mode: 'persistent', acl };
}

/** How far a run got. */
export interface ApplyResult {
  /** The steps written (creates and updates), in order. */
  readonly written: readonly PlanStep[];
  readonly batches: number;
  readonly batchesTotal: number;
  /** Set when the signal stopped the run between batches. */
  readonly interrupted: boolean;
}

export interface ApplyOptions {
  readonly signal?: AbortSignal;
  readonly batchBytes?: number;
  /** Told after each batch is written. */
  readonly onBatch?: (done: number, total: number) => void;
}

/**
 * Writes the plan. The signal is checked between batches and not passed to a batch in flight: a multi cut off
 * after it was sent might still be applied, and the report must not say otherwise.
 */
export async function applyPlan(client: ZooKeeperClient, plan: readonly PlanStep[], opts: ApplyOptions = {}): Promise<ApplyResult> {
  // An update whose data is the same (only the ACL differs) has nothing to write in a batch.
  const groups = batches(
    writeSteps(plan).filter((s) => s.action === 'create' || s.differs.includes('data')),
    opts.batchBytes,
  );
  const written: PlanStep[] = [];
  let done = 0;
  // ACLs first: a node whose present ACL withholds write (the reason it differs, often) takes its data only after.
  for (const step of plan) {
    if (step.action !== 'update' || !step.differs.includes('acl')) continue;
    if (opts.signal?.aborted === true) return { written, batches: done, batchesTotal: groups.length, interrupted: true };
    await client.setACL(step.path, aclFromJson(step.node.acl));
    if (!step.differs.includes('data')) written.push(step);
  }
  for (const group of groups) {
    if (opts.signal?.aborted === true) return { written, batches: done, batchesTotal: groups.length, interrupted: true };
    if (group.length === 1) {
      // One op alone (a large node) goes as itself: a multi's headers must not tip it over the frame limit.
      const step = group[0]!;
      if (step.action === 'create') await client.create(step.path, dataFromExport(step.node), createOptions(step.node));
      else await client.setData(step.path, dataFromExport(step.node));
    } else await client.multi(group.map(writeOp));
    written.push(...group);
    done++;
    opts.onBatch?.(done, groups.length);
  }
  return { written, batches: done, batchesTotal: groups.length, interrupted: false };
}
