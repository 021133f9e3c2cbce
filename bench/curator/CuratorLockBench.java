// The Curator side of bench/peers.ts: one lock workload through Apache Curator 5.4, the same work bench/peers.ts
// gives zkwire, printed as one JSON line on stdout. Compiled at run time against Debian's Curator jars.
//
//   java CuratorLockBench <connectString> <workload> <seconds> <lockPath>
//
// workloads: uncontended (1 session, mutex), contended (4 sessions, mutex), read-write (3 reader sessions and
// 1 writer session), semaphore (4 sessions, InterProcessSemaphoreV2 with 3 leases). Each session is its own
// CuratorFramework (its own ZooKeeper session) driven by its own thread, looping acquire -> release.

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /** Latency samples in microseconds. */
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
            return String.format("{\"count\":%d,\"p50\":%.1f,\"p99\":%.1f}", n, rank(sorted, 50), rank(sorted, 99));
        }

        private static double rank(double[] sorted, double p) {
            if (sorted.length == 0) return 0;
            int r = (int) Math.ceil(p / 100.0 * sorted.length);
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

    public static void main(String[] args) throws Exception {
        String connect = args[0];
        String workload = args[1];
        double seconds = Double.parseDouble(args[2]);
        String path = args[3];
        int sessions = workload.equals("uncontended") ? 1 : 4;
        List<CuratorFramework> clients = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            CuratorFramework c = CuratorFrameworkFactory.newClient(connect, 30000, 15000, new ExponentialBackoffRetry(100, 3));
            c.start();
            c.blockUntilConnected();
            clients.add(c);
        }
        List<Lock> locks = new ArrayList<>();
        for (int i = 0; i < sessions; i++) locks.add(lockFor(workload, clients.get(i), path, i));
        // one untimed cycle each: creates the lock's parents and warms the code paths
        for (Lock l : locks) {
            l.acquire();
            l.release();
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < sessions; i++) {
            final int me = i;
            final Lock lock = locks.get(i);
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
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
        System.out.println(String.format(
                "{\"acquisitions\":%d,\"elapsedMs\":%.1f,\"acquire\":%s,\"cycle\":%s,\"handoff\":%s}",
                acquisitions, elapsedMs, acquire.json(), cycle.json(), handoff.json()));
        for (CuratorFramework c : clients) c.close();
    }

    static Lock lockFor(String workload, CuratorFramework client, String path, int index) {
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
                InterProcessMutex half = index == 3 ? rw.writeLock() : rw.readLock();
                return new Lock() {
                    public void acquire() throws Exception { half.acquire(); }
                    public void release() throws Exception { half.release(); }
                };
            }
            case "semaphore": {
                InterProcessSemaphoreV2 s = new InterProcessSemaphoreV2(client, path, 3);
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
