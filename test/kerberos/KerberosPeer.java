import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;

/**
 * ZooKeeper's own Java client logged in with Kerberos (JAAS Client section from the system properties): prints the
 * identity the server gave it and creates `path` readable only by that identity, so the test can check that zkwire,
 * logged in as the same principal, is the same identity. Args: connectString path aclId.
 */
public class KerberosPeer {
  public static void main(String[] args) throws Exception {
    CountDownLatch authenticated = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(args[0], 10000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SaslAuthenticated) authenticated.countDown();
      if (event.getState() == Watcher.Event.KeeperState.AuthFailed) {
        System.out.println("authfailed");
        System.exit(2);
      }
    });
    if (!authenticated.await(30, TimeUnit.SECONDS)) {
      System.out.println("timeout");
      System.exit(3);
    }
    for (ClientInfo info : zk.whoAmI()) System.out.println("identity " + info.getAuthScheme() + " " + info.getUser());
    ACL acl = new ACL(ZooDefs.Perms.ALL, new Id("sasl", args[2]));
    zk.create(args[1], "from-java".getBytes(StandardCharsets.UTF_8), Collections.singletonList(acl), CreateMode.PERSISTENT);
    System.out.println("created");
    zk.close();
  }
}
