// A MongoDB wire-protocol server (mongo-java-server, in-memory backend) on
// 127.0.0.1:<port> until SIGTERM. Not MongoDB: enough of the protocol for the
// read-store and data-key vault contract suites. Compiled by .ci/services.sh.
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;

public final class MongoServerMain {
  /**
   * The Node driver (7.x) refuses servers below wire version 9 (MongoDB 4.4) at
   * the handshake; mongo-java-server's newest preset answers 8. It speaks the
   * commands the adapters use, so it announces 4.4; what it lacks the suites
   * skip by name.
   */
  private static final MongoVersion ANNOUNCED = new MongoVersion() {
    @Override
    public List<Integer> getVersionArray() {
      return List.of(4, 4, 0);
    }

    @Override
    public int getWireVersion() {
      return 9;
    }
  };

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args.length > 0 ? args[0] : "27018");
    MongoServer server = new MongoServer(new MemoryBackend().version(ANNOUNCED));
    server.bind("127.0.0.1", port);
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown));
    System.out.println("mongo-java-server listening on 127.0.0.1:" + port);
    Thread.currentThread().join();
  }
}
