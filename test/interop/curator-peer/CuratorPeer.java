// A real Apache Curator client for zkwire's interop tests, driven one command per line on stdin.
// Every command gets exactly one reply line on stdout, in order; lines starting with "event " are unsolicited
// (revocation requests) and never count as replies. Lock calls run on the main thread, because Curator keys
// re-entrancy and release by thread: one peer process behaves like one Java thread holding Curator locks.
// Lock objects are cached per kind and path, so a second acquire of the same lock re-enters as in Curator.
//
//   mutex-acquire <path> <timeoutMs>             acquired id=<n> node=<full path> | timeout
//   mutex-acquire-revocable <path> <timeoutMs>   same; later "event revoke-requested id=<n>" when asked to release
//   semaphore-mutex-acquire <path> <timeoutMs>   acquired id=<n> node=<lease path> | timeout
//   read-acquire <path> <timeoutMs>              acquired id=<n> node=<full path> | timeout
//   write-acquire <path> <timeoutMs>             acquired id=<n> node=<full path> | timeout
//   semaphore-acquire <path> <maxLeases> <timeoutMs>   acquired id=<n> node=<lease path> | timeout
//   release <id>                                 released id=<n>
//   participants <path>                          participants <comma-separated full paths, lock order>
//   revoke <nodePath>                            revoked
//   latch-start <path> <participantId>           latch n=<n>   (a started LeaderLatch; later "event latch n=<n> isLeader|notLeader")
//   latch-has <n>                                leader true|false
//   latch-await <n> <timeoutMs>                  leader true|false
//   latch-path <n>                               path <our node path, or "-">
//   latch-participants <n>                       participants <id>:<isLeader>,... (election order)
//   latch-close <n> <SILENT|NOTIFY_LEADER>       closed n=<n>
//   count-start <path> <seed>                    count n=<n>   (a started SharedCount; later "event count n=<n> value=<v>")
//   count-get <n>                                count value=<v> version=<version>
//   count-set <n> <value>                        ok
//   count-try <n> <newValue> <expectedVersion> <expectedValue>   set true|false   (trySetCount(VersionedValue, int))
//   count-close <n>                              closed n=<n>
//   dbarrier-enter <path> <memberQty> <timeoutMs>   entered true|false   (a DistributedDoubleBarrier per path; blocks)
//   dbarrier-leave <path> <timeoutMs>            left true|false
//   cache-start <path>                           cache n=<n>   (a started CuratorCache; later "event cache n=<n> initialized")
//   cache-dump <n>                               cache <path>=<czxid>/<mzxid>/<data hex>;...   (every cached node)
//   cache-close <n>                              closed n=<n>
//   sd-...                                       curator-x-discovery commands: see DiscoveryPeer.java
//   ns-...                                       namespaces and compression: see NamespacePeer.java
//   sq-..., q-...                                Curator's queues: see QueuePeer.java
//   exit                                         bye (then the process exits, closing its session)
// Any failure replies "error <ExceptionClass> <message on one line>".
//
// Usage: java -cp <jars> CuratorPeer <connectString> [sessionTimeoutMs]

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.framework.recipes.shared.SharedCount;
import org.apache.curator.framework.recipes.shared.SharedCountListener;
import org.apache.curator.framework.recipes.shared.SharedCountReader;
import org.apache.curator.framework.recipes.shared.VersionedValue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.framework.recipes.locks.Revoker;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorPeer {
    /** Curator hides the node a lock holds behind a protected getter; these subclasses only make it readable. */
    static final class VisibleMutex extends InterProcessMutex {
        VisibleMutex(CuratorFramework client, String path) {
            super(client, path);
        }

        String node() {
            return getLockPath();
        }
    }

    static final class VisibleWrite extends InterProcessReadWriteLock.WriteLock {
        VisibleWrite(CuratorFramework client, String path) {
            super(client, path, null);
        }

        String node() {
            return getLockPath();
        }
    }

    static final class VisibleRead extends InterProcessReadWriteLock.ReadLock {
        VisibleRead(CuratorFramework client, String path, InterProcessReadWriteLock.WriteLock writer) {
            super(client, path, null, writer);
        }

        String node() {
            return getLockPath();
        }
    }

    /** Something a "release <id>" undoes. */
    interface Held {
        void release() throws Exception;
    }

    private final CuratorFramework client;
    private final PrintStream out;
    private final Map<String, VisibleMutex> mutexes = new HashMap<>();
    private final Map<String, VisibleWrite> writers = new HashMap<>();
    private final Map<String, VisibleRead> readers = new HashMap<>();
    private final Map<String, InterProcessSemaphoreMutex> semaphoreMutexes = new HashMap<>();
    private final Map<Integer, Held> held = new HashMap<>();
    private final Map<Integer, LeaderLatch> latches = new HashMap<>();
    private final Map<Integer, SharedCount> counts = new HashMap<>();
    private final Map<String, DistributedDoubleBarrier> doubleBarriers = new HashMap<>();
    private final Map<Integer, CuratorCache> caches = new HashMap<>();
    private final DiscoveryPeer discovery;
    private final NamespacePeer namespaces;
    private final QueuePeer queues;
    private int nextId = 1;

    private CuratorPeer(CuratorFramework client, PrintStream out) {
        this.client = client;
        this.out = out;
        this.discovery = new DiscoveryPeer(client, this::event);
        this.namespaces = new NamespacePeer(client);
        this.queues = new QueuePeer(client, this::event);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: CuratorPeer <connectString> [sessionTimeoutMs]");
            System.exit(64);
        }
        int sessionTimeoutMs = args.length > 1 ? Integer.parseInt(args[1]) : 6000;
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        CuratorFramework client = CuratorFrameworkFactory.builder()
            .connectString(args[0])
            .sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(10000)
            .retryPolicy(new RetryNTimes(20, 250))
            .build();
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            out.println("error Connect could not connect to " + args[0]);
            System.exit(2);
        }
        out.println("ready session=0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()));
        CuratorPeer peer = new CuratorPeer(client, out);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = in.readLine()) != null) {
                line = line.trim();
                if (line.isEmpty()) continue;
                if (line.equals("exit")) break;
                String reply;
                try {
                    reply = peer.run(line.split("\\s+"));
                } catch (Exception e) {
                    reply = "error " + e.getClass().getSimpleName() + " " + String.valueOf(e.getMessage()).replace('\n', ' ');
                }
                synchronized (out) {
                    out.println(reply);
                }
            }
        } finally {
            client.close();
        }
        out.println("bye");
    }

    private String run(String[] cmd) throws Exception {
        switch (cmd[0]) {
            case "mutex-acquire":
                return mutexAcquire(cmd[1], Long.parseLong(cmd[2]), false);
            case "mutex-acquire-revocable":
                return mutexAcquire(cmd[1], Long.parseLong(cmd[2]), true);
            case "semaphore-mutex-acquire":
                return semaphoreMutexAcquire(cmd[1], Long.parseLong(cmd[2]));
            case "read-acquire": {
                VisibleRead lock = readers.computeIfAbsent(cmd[1], p -> new VisibleRead(client, p, writer(p)));
                if (!lock.acquire(Long.parseLong(cmd[2]), TimeUnit.MILLISECONDS)) return "timeout";
                return acquired(lock::release, lock.node());
            }
            case "write-acquire": {
                VisibleWrite lock = writer(cmd[1]);
                if (!lock.acquire(Long.parseLong(cmd[2]), TimeUnit.MILLISECONDS)) return "timeout";
                return acquired(lock::release, lock.node());
            }
            case "semaphore-acquire": {
                InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, cmd[1], Integer.parseInt(cmd[2]));
                Lease lease = semaphore.acquire(Long.parseLong(cmd[3]), TimeUnit.MILLISECONDS);
                if (lease == null) return "timeout";
                return acquired(lease::close, cmd[1] + "/leases/" + lease.getNodeName());
            }
            case "release": {
                int id = Integer.parseInt(cmd[1]);
                Held h = held.get(id);
                if (h == null) return "error NoSuchLease id=" + id;
                h.release();
                held.remove(id);
                return "released id=" + id;
            }
            case "participants":
                return "participants " + String.join(",", new VisibleMutex(client, cmd[1]).getParticipantNodes());
            case "revoke":
                Revoker.attemptRevoke(client, cmd[1]);
                return "revoked";
            case "latch-start": {
                LeaderLatch latch = new LeaderLatch(client, cmd[1], cmd.length > 2 ? cmd[2] : "");
                final int n = nextId++;
                latch.addListener(new LeaderLatchListener() {
                    @Override
                    public void isLeader() {
                        event("latch n=" + n + " isLeader");
                    }

                    @Override
                    public void notLeader() {
                        event("latch n=" + n + " notLeader");
                    }
                });
                latches.put(n, latch);
                latch.start();
                return "latch n=" + n;
            }
            case "latch-has":
                return "leader " + latch(cmd[1]).hasLeadership();
            case "latch-await":
                return "leader " + latch(cmd[1]).await(Long.parseLong(cmd[2]), TimeUnit.MILLISECONDS);
            case "latch-path": {
                String ours = latch(cmd[1]).getOurPath();
                return "path " + (ours == null ? "-" : ours);
            }
            case "latch-participants": {
                List<String> parts = new ArrayList<>();
                for (Participant p : latch(cmd[1]).getParticipants()) parts.add(p.getId() + ":" + p.isLeader());
                return "participants " + String.join(",", parts);
            }
            case "latch-close": {
                LeaderLatch latch = latches.remove(Integer.parseInt(cmd[1]));
                if (latch == null) return "error NoSuchLatch n=" + cmd[1];
                latch.close(LeaderLatch.CloseMode.valueOf(cmd[2]));
                return "closed n=" + cmd[1];
            }
            case "count-start": {
                SharedCount count = new SharedCount(client, cmd[1], Integer.parseInt(cmd[2]));
                final int n = nextId++;
                count.addListener(new SharedCountListener() {
                    @Override
                    public void countHasChanged(SharedCountReader reader, int newCount) {
                        event("count n=" + n + " value=" + newCount);
                    }

                    @Override
                    public void stateChanged(CuratorFramework c, ConnectionState newState) {}
                });
                count.start();
                counts.put(n, count);
                return "count n=" + n;
            }
            case "count-get": {
                VersionedValue<Integer> v = count(cmd[1]).getVersionedValue();
                return "count value=" + v.getValue() + " version=" + v.getVersion();
            }
            case "count-set":
                count(cmd[1]).setCount(Integer.parseInt(cmd[2]));
                return "ok";
            case "count-try": {
                // VersionedValue's constructor is package-private; the test names the exact version it expects
                java.lang.reflect.Constructor<?> make = VersionedValue.class.getDeclaredConstructor(int.class, Object.class);
                make.setAccessible(true);
                @SuppressWarnings("unchecked")
                VersionedValue<Integer> previous = (VersionedValue<Integer>) make.newInstance(Integer.parseInt(cmd[3]), Integer.parseInt(cmd[4]));
                return "set " + count(cmd[1]).trySetCount(previous, Integer.parseInt(cmd[2]));
            }
            case "count-close": {
                SharedCount count = counts.remove(Integer.parseInt(cmd[1]));
                if (count == null) return "error NoSuchCount n=" + cmd[1];
                count.close();
                return "closed n=" + cmd[1];
            }
            case "dbarrier-enter": {
                DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(client, cmd[1], Integer.parseInt(cmd[2]));
                doubleBarriers.put(cmd[1], barrier);
                return "entered " + barrier.enter(Long.parseLong(cmd[3]), TimeUnit.MILLISECONDS);
            }
            case "dbarrier-leave": {
                DistributedDoubleBarrier barrier = doubleBarriers.get(cmd[1]);
                if (barrier == null) return "error NoSuchBarrier " + cmd[1];
                boolean left = barrier.leave(Long.parseLong(cmd[2]), TimeUnit.MILLISECONDS);
                if (left) doubleBarriers.remove(cmd[1]);
                return "left " + left;
            }
            case "cache-start": {
                CuratorCache cache = CuratorCache.build(client, cmd[1]);
                final int n = nextId++;
                cache.listenable().addListener(CuratorCacheListener.builder().forInitialized(() -> event("cache n=" + n + " initialized")).build());
                caches.put(n, cache);
                cache.start();
                return "cache n=" + n;
            }
            case "cache-dump": {
                CuratorCache cache = caches.get(Integer.parseInt(cmd[1]));
                if (cache == null) return "error NoSuchCache n=" + cmd[1];
                List<String> nodes = new ArrayList<>();
                cache.stream().forEach(d -> nodes.add(d.getPath() + "=" + d.getStat().getCzxid() + "/" + d.getStat().getMzxid() + "/" + hex(d.getData())));
                java.util.Collections.sort(nodes);
                return "cache " + String.join(";", nodes);
            }
            case "cache-close": {
                CuratorCache cache = caches.remove(Integer.parseInt(cmd[1]));
                if (cache == null) return "error NoSuchCache n=" + cmd[1];
                cache.close();
                return "closed n=" + cmd[1];
            }
            default:
                if (cmd[0].startsWith("sd-")) return discovery.run(cmd);
                if (cmd[0].startsWith("ns-")) return namespaces.run(cmd);
                if (cmd[0].startsWith("sq-") || cmd[0].startsWith("q-")) return queues.run(cmd);
                return "error UnknownCommand " + cmd[0];
        }
    }

    private LeaderLatch latch(String n) {
        LeaderLatch latch = latches.get(Integer.parseInt(n));
        if (latch == null) throw new IllegalArgumentException("no latch n=" + n);
        return latch;
    }

    private SharedCount count(String n) {
        SharedCount count = counts.get(Integer.parseInt(n));
        if (count == null) throw new IllegalArgumentException("no count n=" + n);
        return count;
    }

    private static String hex(byte[] data) {
        StringBuilder sb = new StringBuilder();
        if (data != null) for (byte b : data) sb.append(String.format("%02x", b & 0xff));
        return sb.toString();
    }

    /** Unsolicited lines from Curator's threads, never interleaved with a reply line. */
    private void event(String text) {
        synchronized (out) {
            out.println("event " + text);
        }
    }

    private VisibleWrite writer(String path) {
        return writers.computeIfAbsent(path, p -> new VisibleWrite(client, p));
    }

    private String mutexAcquire(String path, long timeoutMs, boolean revocable) throws Exception {
        VisibleMutex lock = mutexes.computeIfAbsent(path, p -> new VisibleMutex(client, p));
        final int id = nextId;
        if (revocable) {
            // Called on Curator's event thread; it only reports, the test decides when to release.
            lock.makeRevocable(m -> {
                synchronized (out) {
                    out.println("event revoke-requested id=" + id);
                }
            });
        }
        if (!lock.acquire(timeoutMs, TimeUnit.MILLISECONDS)) return "timeout";
        return acquired(lock::release, lock.node());
    }

    private String semaphoreMutexAcquire(String path, long timeoutMs) throws Exception {
        InterProcessSemaphoreMutex lock = semaphoreMutexes.computeIfAbsent(path, p -> new InterProcessSemaphoreMutex(client, p));
        if (!lock.acquire(timeoutMs, TimeUnit.MILLISECONDS)) return "timeout";
        // The lease is private in Curator; reading it is the only way to report which node we hold.
        Field field = InterProcessSemaphoreMutex.class.getDeclaredField("lease");
        field.setAccessible(true);
        Lease lease = (Lease) field.get(lock);
        return acquired(lock::release, path + "/leases/" + lease.getNodeName());
    }

    private String acquired(Held release, String node) {
        int id = nextId++;
        held.put(id, release);
        return "acquired id=" + id + " node=" + node;
    }
}
