// Curator's queue family for the interop tests (CuratorPeer hands it every "sq-" and "q-" command). Items travel
// as base64 (an empty item is "-"); Curator's queues here carry raw bytes (an identity QueueSerializer), so the
// bytes a zkwire serializer wrote are the bytes Curator hands its consumer and the other way round.
//
//   sq-offer <path> <b64>                          ok          (SimpleDistributedQueue.offer)
//   sq-poll <path> <timeoutMs>                     data <b64> | empty   (SimpleDistributedQueue.poll(timeout))
//   q-start <plain|id|priority|delay> <path> <lockPath|-> <consume|produce>   queue n=<n>
//                                                  (a started queue; consume: later "event queue n=<n> item=<b64>"
//                                                  per item consumed, in the order Curator's consumer saw them)
//   q-put <n> <b64,b64,...> [id|priority|epochMs]  ok   (one item: put; several: putMulti; in the foreground)
//   q-remove <n> <id>                              removed <count>   (DistributedIdQueue.remove)
//   q-close <n>                                    closed n=<n>

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.queue.DistributedDelayQueue;
import org.apache.curator.framework.recipes.queue.DistributedIdQueue;
import org.apache.curator.framework.recipes.queue.DistributedPriorityQueue;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.MultiItem;
import org.apache.curator.framework.recipes.queue.QueueBase;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.recipes.queue.SimpleDistributedQueue;
import org.apache.curator.framework.state.ConnectionState;

final class QueuePeer {
    private static final QueueSerializer<byte[]> BYTES = new QueueSerializer<byte[]>() {
        @Override
        public byte[] serialize(byte[] item) {
            return item;
        }

        @Override
        public byte[] deserialize(byte[] bytes) {
            return bytes;
        }
    };

    private final CuratorFramework client;
    private final Consumer<String> events;
    private final Map<Integer, QueueBase<byte[]>> queues = new HashMap<>();
    private int next = 1;

    QueuePeer(CuratorFramework client, Consumer<String> events) {
        this.client = client;
        this.events = events;
    }

    String run(String[] cmd) throws Exception {
        switch (cmd[0]) {
            case "sq-offer":
                new SimpleDistributedQueue(client, cmd[1]).offer(decode(cmd[2]));
                return "ok";
            case "sq-poll": {
                byte[] data = new SimpleDistributedQueue(client, cmd[1]).poll(Long.parseLong(cmd[2]), TimeUnit.MILLISECONDS);
                return data == null ? "empty" : "data " + encode(data);
            }
            case "q-start": {
                int n = next++;
                QueueConsumer<byte[]> consumer = cmd[4].equals("consume") ? new QueueConsumer<byte[]>() {
                    @Override
                    public void consumeMessage(byte[] message) {
                        events.accept("queue n=" + n + " item=" + encode(message));
                    }

                    @Override
                    public void stateChanged(CuratorFramework c, ConnectionState state) {}
                } : null;
                QueueBuilder<byte[]> builder = QueueBuilder.builder(client, consumer, BYTES, cmd[2]).putInBackground(false);
                if (!cmd[3].equals("-")) builder = builder.lockPath(cmd[3]);
                QueueBase<byte[]> queue;
                switch (cmd[1]) {
                    case "plain": queue = builder.buildQueue(); break;
                    case "id": queue = builder.buildIdQueue(); break;
                    case "priority": queue = builder.buildPriorityQueue(0); break;
                    case "delay": queue = builder.buildDelayQueue(); break;
                    default: return "error UnknownQueueKind " + cmd[1];
                }
                queue.start();
                queues.put(n, queue);
                return "queue n=" + n;
            }
            case "q-put": {
                QueueBase<byte[]> queue = queue(cmd[1]);
                List<byte[]> items = new ArrayList<>();
                for (String b : cmd[2].split(",")) items.add(decode(b));
                if (queue instanceof DistributedIdQueue) ((DistributedIdQueue<byte[]>) queue).put(items.get(0), cmd[3]);
                else if (queue instanceof DistributedPriorityQueue) {
                    DistributedPriorityQueue<byte[]> q = (DistributedPriorityQueue<byte[]>) queue;
                    if (items.size() == 1) q.put(items.get(0), Integer.parseInt(cmd[3]));
                    else q.putMulti(multi(items), Integer.parseInt(cmd[3]));
                } else if (queue instanceof DistributedDelayQueue) {
                    DistributedDelayQueue<byte[]> q = (DistributedDelayQueue<byte[]>) queue;
                    if (items.size() == 1) q.put(items.get(0), Long.parseLong(cmd[3]));
                    else q.putMulti(multi(items), Long.parseLong(cmd[3]));
                } else {
                    DistributedQueue<byte[]> q = (DistributedQueue<byte[]>) queue;
                    if (items.size() == 1) q.put(items.get(0));
                    else q.putMulti(multi(items));
                }
                return "ok";
            }
            case "q-remove":
                return "removed " + ((DistributedIdQueue<byte[]>) queue(cmd[1])).remove(cmd[2]);
            case "q-close": {
                QueueBase<byte[]> queue = queues.remove(Integer.parseInt(cmd[1]));
                if (queue == null) return "error NoSuchQueue n=" + cmd[1];
                queue.close();
                return "closed n=" + cmd[1];
            }
            default:
                return "error UnknownCommand " + cmd[0];
        }
    }

    private QueueBase<byte[]> queue(String n) {
        QueueBase<byte[]> queue = queues.get(Integer.parseInt(n));
        if (queue == null) throw new IllegalArgumentException("no queue n=" + n);
        return queue;
    }

    private static MultiItem<byte[]> multi(List<byte[]> items) {
        Iterator<byte[]> it = items.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }

    private static byte[] decode(String b) {
        return b.equals("-") ? new byte[0] : Base64.getDecoder().decode(b);
    }

    private static String encode(byte[] data) {
        return data.length == 0 ? "-" : Base64.getEncoder().encodeToString(data);
    }
}
