/**
 * The Curator side of `zkwire bench lock --vs curator` (and `npm run bench:peers`), as Java source text: the CLI
 * ships in the npm package, so the program travels inside it and is compiled on the user's machine (compileJavaOnce)
 * against the Curator jars found there.
 *
 *   java CuratorLockBench <connectString> <workload> <seconds> <lockPath> <sessions> <leases>
 *
 * Workloads: uncontended (1 session, mutex), contended (`sessions` sessions, mutex), read-write (the last session
 * writes, the others read), semaphore (InterProcessSemaphoreV2 with `leases` leases). Each session is its own
 * CuratorFramework (its own ZooKeeper session) driven by its own thread, looping acquire → release with no hold,
 * the same loop and the same clocks as the zkwire side (vs-zkwire-round.ts). The figures go to stdout as one JSON
 * line. A line on stdin, or stdin closing, stops the loop early: the figures so far are printed and every session
 * is closed, so a parent that is interrupted (or dies) never leaves a Curator session holding a lock.
 */

/** The public class of CURATOR_LOCK_BENCH_SOURCE. */
export const CURATOR_LOCK_BENCH_CLASS = 'CuratorLockBench';

/** CuratorLockBench.java. */
export const CURATOR_LOCK_BENCH_SOURCE = String.raw`
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.ExponentialBackoffRetry;

public class CuratorLockBench {
    interface Lock {
        void acquire() throws Exception;
        void release() throws Exception;
    }

    /** Latency samples in microseconds; nearest-rank percentiles, as zkwire's LatencyRecorder. */
    static final class Samples {
        private double[] values = new double[1024];
        private int n;

        synchronized void add(double us) {
            if (n == values.length) values = Arrays.copyOf(values, n * 2);
            values[n++] = us;
        }

        synchronized String json() {
            double[] sorted = Arrays.copyOf(values, n);
            Arrays.sort(sorted);
            return String.format(java.util.Locale.ROOT, "{\"count\":%d,\"p50\":%.1f,\"p99\":%.1f}", n, rank(sorted, 50), rank(sorted, 99));
        }

        private static double rank(double[] sorted, double p) {
            if (sorted.length == 0) return 0;
            int r = (int) Math.ceil(p / 100.0 * sorted.length - 1e-9);
            return sorted[Math.max(0, Math.min(sorted.length - 1, r - 1))];
        }
    }

    static final Samples acquire = new Samples();
    static final Samples cycle = new Samples();
    static final Samples handoff = new Samples();
    static final Object releaseLock = new Object();
    static long lastReleaseAt = -1;
    static int lastReleaseBy = -1;
    static long acquisitions;
    static volatile boolean stopped;

    public static void main(String[] args) throws Exception {
        String connect = args[0];
        String workload = args[1];
        double seconds = Double.parseDouble(args[2]);
        String path = args[3];
        int sessions = workload.equals("uncontended") ? 1 : Integer.parseInt(args[4]);
        int leases = Integer.parseInt(args[5]);
        Thread stdin = new Thread(() -> {
            try {
                System.in.read();
            } catch (IOException e) {
                // a closed stdin stops the run like a line does
            }
            stopped = true;
        });
        stdin.setDaemon(true);
        stdin.start();
        List<CuratorFramework> clients = new ArrayList<>();
        try {
            for (int i = 0; i < sessions && !stopped; i++) {
                CuratorFramework c = CuratorFrameworkFactory.newClient(connect, 30000, 15000, new ExponentialBackoffRetry(100, 3));
                clients.add(c);
                c.start();
                c.blockUntilConnected();
            }
            List<Lock> locks = new ArrayList<>();
            for (int i = 0; i < clients.size(); i++) locks.add(lockFor(workload, clients.get(i), path, i, sessions, leases));
            // one untimed cycle each: creates the lock's parents and warms the code paths
            for (Lock l : locks) {
                if (stopped) break;
                l.acquire();
                l.release();
            }
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < locks.size() && !stopped; i++) {
                final int me = i;
                final Lock lock = locks.get(i);
                Thread t = new Thread(() -> {
                    try {
                        while (!stopped && System.nanoTime() < end) {
                            long t0 = System.nanoTime();
                            lock.acquire();
                            long t1 = System.nanoTime();
                            acquire.add((t1 - t0) / 1e3);
                            long t2;
                            synchronized (releaseLock) {
                                acquisitions++;
                                if (lastReleaseAt >= 0 && lastReleaseBy != me && t0 < lastReleaseAt) {
                                    handoff.add((t1 - lastReleaseAt) / 1e3);
                                    lastReleaseAt = -1;
                                }
                                t2 = System.nanoTime();
                                lastReleaseAt = t2;
                                lastReleaseBy = me;
                            }
                            lock.release();
                            long t3 = System.nanoTime();
                            cycle.add((t1 - t0 + t3 - t2) / 1e3);
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                        System.exit(2);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) t.join();
            double elapsedMs = (System.nanoTime() - start) / 1e6;
            System.out.println(String.format(java.util.Locale.ROOT,
                    "{\"acquisitions\":%d,\"elapsedMs\":%.1f,\"acquire\":%s,\"cycle\":%s,\"handoff\":%s}",
                    acquisitions, elapsedMs, acquire.json(), cycle.json(), handoff.json()));
            System.out.flush();
        } finally {
            for (CuratorFramework c : clients) c.close();
        }
    }

    static Lock lockFor(String workload, CuratorFramework client, String path, int index, int sessions, int leases) {
        switch (workload) {
            case "uncontended":
            case "contended": {
                InterProcessMutex m = new InterProcessMutex(client, path);
                return new Lock() {
                    public void acquire() throws Exception { m.acquire(); }
                    public void release() throws Exception { m.release(); }
                };
            }
            case "read-write": {
                InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path);
                InterProcessMutex half = index == sessions - 1 ? rw.writeLock() : rw.readLock();
                return new Lock() {
                    public void acquire() throws Exception { half.acquire(); }
                    public void release() throws Exception { half.release(); }
                };
            }
            case "semaphore": {
                InterProcessSemaphoreV2 s = new InterProcessSemaphoreV2(client, path, leases);
                return new Lock() {
                    private Lease lease;
                    public void acquire() throws Exception { lease = s.acquire(); }
                    public void release() throws Exception { s.returnLease(lease); }
                };
            }
            default:
                throw new IllegalArgumentException("unknown workload " + workload);
        }
    }
}
`;
