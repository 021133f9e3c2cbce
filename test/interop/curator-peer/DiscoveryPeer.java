// The curator-x-discovery half of the Curator peer (CuratorPeer hands it every "sd-" command). Instances travel as
// base64 JSON "specs" so that a test can name every field; what Curator reads back is described field by field
// (after Curator's own JsonInstanceSerializer has deserialised it), so a test compares values, not bytes.
//
//   sd-start <basePath>                    sd n=<n>            (a started ServiceDiscovery<ZookeeperInstance>)
//   sd-register <n> <spec>                 ok
//   sd-update <n> <spec>                   ok
//   sd-unregister <n> <spec>               ok
//   sd-names <n>                           names <b64 JSON array>
//   sd-query <n> <name>                    instances <b64 JSON array of descriptions>
//   sd-query-one <n> <name> <id>           instance <b64 JSON description or null>
//   sd-serialize <spec>                    bytes <b64 of JsonInstanceSerializer.serialize (compatible mode)>
//   sd-deserialize <b64 bytes>             instance <b64 JSON description>
//   sd-cache-start <n> <name>              scache n=<m>        (later "event scache n=<m> changed")
//   sd-cache-dump <m>                      instances <b64 JSON array of descriptions>
//   sd-cache-close <m>                     closed n=<m>
//   sd-close <n>                           closed n=<n>
//
// spec: {"name","id","address"?,"port"?,"sslPort"?,"payload"?: null | {"id","name","metadata"},
//        "registrationTimeUTC","serviceType","uriSpec"?: "<raw spec>","enabled"?}

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.discovery.ServiceCache;
import org.apache.curator.x.discovery.ServiceDiscovery;
import org.apache.curator.x.discovery.ServiceDiscoveryBuilder;
import org.apache.curator.x.discovery.ServiceInstance;
import org.apache.curator.x.discovery.ServiceInstanceBuilder;
import org.apache.curator.x.discovery.ServiceType;
import org.apache.curator.x.discovery.UriSpec;
import org.apache.curator.x.discovery.details.JsonInstanceSerializer;
import org.apache.curator.x.discovery.details.ServiceCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.springframework.cloud.zookeeper.discovery.ZookeeperInstance;

final class DiscoveryPeer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final CuratorFramework client;
    private final Consumer<String> event;
    private final JsonInstanceSerializer<ZookeeperInstance> serializer = new JsonInstanceSerializer<>(ZookeeperInstance.class);
    private final Map<Integer, ServiceDiscovery<ZookeeperInstance>> discoveries = new LinkedHashMap<>();
    private final Map<Integer, ServiceCache<ZookeeperInstance>> caches = new LinkedHashMap<>();
    private int nextId = 1000;

    DiscoveryPeer(CuratorFramework client, Consumer<String> event) {
        this.client = client;
        this.event = event;
    }

    String run(String[] cmd) throws Exception {
        switch (cmd[0]) {
            case "sd-start": {
                ServiceDiscovery<ZookeeperInstance> sd = ServiceDiscoveryBuilder.builder(ZookeeperInstance.class)
                    .client(client).basePath(cmd[1]).serializer(serializer).build();
                sd.start();
                int n = nextId++;
                discoveries.put(n, sd);
                return "sd n=" + n;
            }
            case "sd-register":
                discovery(cmd[1]).registerService(instance(cmd[2]));
                return "ok";
            case "sd-update":
                discovery(cmd[1]).updateService(instance(cmd[2]));
                return "ok";
            case "sd-unregister":
                discovery(cmd[1]).unregisterService(instance(cmd[2]));
                return "ok";
            case "sd-names":
                return "names " + b64(JSON.writeValueAsBytes(new ArrayList<>(discovery(cmd[1]).queryForNames())));
            case "sd-query":
                return "instances " + b64(JSON.writeValueAsBytes(describeAll(discovery(cmd[1]).queryForInstances(cmd[2]))));
            case "sd-query-one": {
                ServiceInstance<ZookeeperInstance> one = discovery(cmd[1]).queryForInstance(cmd[2], cmd[3]);
                return "instance " + b64(JSON.writeValueAsBytes(one == null ? null : describe(one)));
            }
            case "sd-serialize":
                return "bytes " + b64(serializer.serialize(instance(cmd[1])));
            case "sd-deserialize":
                return "instance " + b64(JSON.writeValueAsBytes(describe(serializer.deserialize(Base64.getDecoder().decode(cmd[1])))));
            case "sd-cache-start": {
                ServiceCache<ZookeeperInstance> cache = discovery(cmd[1]).serviceCacheBuilder().name(cmd[2]).build();
                final int m = nextId++;
                cache.addListener(new ServiceCacheListener() {
                    @Override
                    public void cacheChanged() {
                        event.accept("scache n=" + m + " changed");
                    }

                    @Override
                    public void stateChanged(CuratorFramework c, ConnectionState s) {}
                });
                cache.start();
                caches.put(m, cache);
                return "scache n=" + m;
            }
            case "sd-cache-dump": {
                ServiceCache<ZookeeperInstance> cache = caches.get(Integer.parseInt(cmd[1]));
                if (cache == null) return "error NoSuchCache n=" + cmd[1];
                return "instances " + b64(JSON.writeValueAsBytes(describeAll(cache.getInstances())));
            }
            case "sd-cache-close": {
                ServiceCache<ZookeeperInstance> cache = caches.remove(Integer.parseInt(cmd[1]));
                if (cache == null) return "error NoSuchCache n=" + cmd[1];
                cache.close();
                return "closed n=" + cmd[1];
            }
            case "sd-close": {
                ServiceDiscovery<ZookeeperInstance> sd = discoveries.remove(Integer.parseInt(cmd[1]));
                if (sd == null) return "error NoSuchDiscovery n=" + cmd[1];
                sd.close();
                return "closed n=" + cmd[1];
            }
            default:
                return "error UnknownCommand " + cmd[0];
        }
    }

    private ServiceDiscovery<ZookeeperInstance> discovery(String n) {
        ServiceDiscovery<ZookeeperInstance> sd = discoveries.get(Integer.parseInt(n));
        if (sd == null) throw new IllegalArgumentException("no discovery n=" + n);
        return sd;
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** A ServiceInstance built with Curator's builder from a spec. */
    private static ServiceInstance<ZookeeperInstance> instance(String spec) throws Exception {
        JsonNode s = JSON.readTree(Base64.getDecoder().decode(spec));
        ServiceInstanceBuilder<ZookeeperInstance> b = ServiceInstance.<ZookeeperInstance>builder()
            .name(s.get("name").asText())
            .id(s.get("id").asText())
            .registrationTimeUTC(s.get("registrationTimeUTC").asLong())
            .serviceType(ServiceType.valueOf(s.get("serviceType").asText()));
        b.address(s.hasNonNull("address") ? s.get("address").asText() : null);
        if (s.hasNonNull("port")) b.port(s.get("port").asInt());
        if (s.hasNonNull("sslPort")) b.sslPort(s.get("sslPort").asInt());
        if (s.hasNonNull("uriSpec")) b.uriSpec(new UriSpec(s.get("uriSpec").asText()));
        if (s.has("enabled")) b.enabled(s.get("enabled").asBoolean());
        JsonNode p = s.get("payload");
        if (p != null && !p.isNull()) {
            Map<String, String> metadata = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = p.get("metadata").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                metadata.put(f.getKey(), f.getValue().asText());
            }
            b.payload(new ZookeeperInstance(p.get("id").asText(), p.get("name").asText(), metadata));
        }
        return b.build();
    }

    private static List<Object> describeAll(Iterable<ServiceInstance<ZookeeperInstance>> instances) {
        List<Object> list = new ArrayList<>();
        for (ServiceInstance<ZookeeperInstance> i : instances) list.add(describe(i));
        return list;
    }

    /** Every field as Curator holds it after deserialising, plus buildUriSpec(). */
    private static Map<String, Object> describe(ServiceInstance<ZookeeperInstance> i) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", i.getName());
        d.put("id", i.getId());
        d.put("address", i.getAddress());
        d.put("port", i.getPort());
        d.put("sslPort", i.getSslPort());
        Object payload = i.getPayload();
        if (payload == null) d.put("payload", null);
        else {
            ZookeeperInstance z = (ZookeeperInstance) payload;
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("class", payload.getClass().getName());
            p.put("id", z.getId());
            p.put("name", z.getName());
            p.put("metadata", z.getMetadata());
            d.put("payload", p);
        }
        d.put("registrationTimeUTC", i.getRegistrationTimeUTC());
        d.put("serviceType", i.getServiceType() == null ? null : i.getServiceType().name());
        if (i.getUriSpec() == null) d.put("uriSpec", null);
        else {
            List<Object> parts = new ArrayList<>();
            for (UriSpec.Part part : i.getUriSpec()) parts.add(List.of(part.getValue(), part.isVariable()));
            d.put("uriSpec", parts);
        }
        d.put("enabled", i.isEnabled());
        d.put("uri", i.buildUriSpec());
        return d;
    }
}
