import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runChaos } from './engine.js';
import { ALL_FAULTS } from './faults.js';
import { renderReport } from './report.js';

/**
 * The short chaos run inside `npm test`: the same engine as `npm run chaos`, with a fixed seed and 25 s of faults.
 * Alongside the lock slots run three LeaderLatch candidates, two CuratorCaches of the whole chaos tree, three
 * GroupMembers, and a worker process (member, candidate, cache and mutex loop on the built package) that the
 * expiry lane pauses past its session timeout. Each fault lane tours all of its kinds first, so even this short
 * run injects every kind. What must hold: exclusion and the semaphore limit under every fault, nothing left on the
 * server, every promise settled, no session hung, no untyped error, every cache and member right at quiescence;
 * and the run must have done real work (locks taken, sessions renewed, the paused process renewed its session).
 */
describe('chaos: locks on 16 sessions, leader election, caches and a group while the ensemble, the links and the sessions fail', () => {
  it('keeps exclusion, leaves nothing behind, settles everything and never hangs (seed 20240601)', async () => {
    const report = await runChaos({ seed: 20240601, durationMs: 25_000, networkGapMs: [200, 800], serverGapMs: [500, 1500], expiryGapMs: [500, 1500] });
    const summary = renderReport(report);
    // CHAOS_SUMMARY=file keeps the printed report of a passing run too
    const keep = process.env['CHAOS_SUMMARY'];
    if (keep !== undefined && keep !== '') writeFileSync(keep, `${summary}\n${JSON.stringify(report.faultTimeline, null, 1)}\n`);

    expect(report.mustBeZero, summary).toEqual({
      mutualExclusionViolations: 0,
      semaphoreOverAdmissions: 0,
      lockNodesLeftByOpenSessions: 0,
      watchesLeftByOpenSessions: 0,
      lockNodesLeftAfterClose: 0,
      watchesLeftAfterClose: 0,
      unsettledPromises: 0,
      hungSessions: 0,
      untypedErrors: 0,
      workersNotStopped: 0,
      twoLeadersAtOnce: 0,
      leaderlessPastSessionTimeout: 0,
      cachesDivergedAtQuiescence: 0,
      memberMissingAtQuiescence: 0,
    });
    for (const kind of ALL_FAULTS) expect(report.faults[kind], `${kind} injected\n${summary}`).toBeGreaterThan(0);
    for (const op of ['acquire mutex', 'acquire read', 'acquire write', 'acquire semaphore', 'release']) {
      expect(report.operations[op]?.completed ?? 0, `${op} completed\n${summary}`).toBeGreaterThan(0);
    }
    // A partition of every link longer than the session timeout expires sessions: their clients must have renewed
    // them, and no slot needed a new client.
    expect(report.sessionsRenewed, summary).toBeGreaterThan(0);
    expect(report.clientsOpened, summary).toBe(report.slots);
    expect(report.resource.maxSemaphoreHolders, summary).toBeGreaterThan(1);
    // leader election and caches ran alongside: leadership changed hands, and caches were there to compare
    expect(report.election.leaderships, summary).toBeGreaterThan(3);
    expect(report.election.cachesCompared, summary).toBeGreaterThan(0);
    // three member slots and the worker process's member were checked at quiescence
    expect(report.group.membersChecked, summary).toBe(4);
    // the paused process carried on: a new session after its pause, and locks taken
    expect(report.workerProcess.renewals, summary).toBeGreaterThan(0);
    expect(report.workerProcess.locks, summary).toBeGreaterThan(0);
  }, 150_000);
});
