// Curator's namespaces and compression for the interop tests (CuratorPeer hands it every "ns-" command). Data
// travels as base64 so any bytes go through the line protocol; an empty payload is an empty field.
//
//   ns-write <namespace|-> <path> <b64|-> <plain|gzip>   ok     (create, parents made, or setData if it exists;
//                                                               gzip: Curator's .compressed())
//   ns-read <namespace|-> <path> <plain|gzip>            data <b64>   (gzip: .decompressed())

import java.util.Base64;
import org.apache.curator.framework.CuratorFramework;

final class NamespacePeer {
    private final CuratorFramework client;

    NamespacePeer(CuratorFramework client) {
        this.client = client;
    }

    String run(String[] cmd) throws Exception {
        CuratorFramework c = cmd[1].equals("-") ? client : client.usingNamespace(cmd[1]);
        switch (cmd[0]) {
            case "ns-write": {
                byte[] data = cmd[3].equals("-") ? new byte[0] : Base64.getDecoder().decode(cmd[3]);
                boolean gzip = cmd[4].equals("gzip");
                if (c.checkExists().forPath(cmd[2]) != null) {
                    if (gzip) c.setData().compressed().forPath(cmd[2], data);
                    else c.setData().forPath(cmd[2], data);
                } else if (gzip) c.create().compressed().creatingParentsIfNeeded().forPath(cmd[2], data);
                else c.create().creatingParentsIfNeeded().forPath(cmd[2], data);
                return "ok";
            }
            case "ns-read": {
                byte[] data = cmd[3].equals("gzip") ? c.getData().decompressed().forPath(cmd[2]) : c.getData().forPath(cmd[2]);
                return "data " + (data.length == 0 ? "-" : Base64.getEncoder().encodeToString(data));
            }
            default:
                return "error UnknownCommand " + cmd[0];
        }
    }
}
