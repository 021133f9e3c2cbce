// A payload class with Spring Cloud Zookeeper's name and shape (id, name, metadata), compiled into the Curator
// peer so that Jackson writes and reads the same "@class" a Spring Cloud service does. Written for the tests; not
// Spring's code.
package org.springframework.cloud.zookeeper.discovery;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

public class ZookeeperInstance {
    private String id;
    private String name;
    private Map<String, String> metadata = new LinkedHashMap<>();

    private ZookeeperInstance() {}

    public ZookeeperInstance(String id, String name, Map<String, String> metadata) {
        this.id = id;
        this.name = name;
        this.metadata = metadata;
    }

    public String getId() { return id; }
    public void setId(String id) { this.id = id; }
    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Map<String, String> getMetadata() { return metadata; }
    public void setMetadata(Map<String, String> metadata) { this.metadata = metadata; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ZookeeperInstance)) return false;
        ZookeeperInstance that = (ZookeeperInstance) o;
        return Objects.equals(id, that.id) && Objects.equals(name, that.name) && Objects.equals(metadata, that.metadata);
    }

    @Override
    public int hashCode() { return Objects.hash(id, name, metadata); }
}
