package engram.testserver;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;

/**
 * Neo4j Community, embedded, with its Bolt connector on 127.0.0.1:&lt;port&gt;: the server Engram's
 * live tests run against. Usage: {@code java -cp ... engram.testserver.Neo4jTestServer <port> [<parent dir>]},
 * with the password of user {@code neo4j} in the environment variable NEO4J_TEST_PASSWORD (at
 * least 8 characters; not an argument, so it does not show in the process list).
 *
 * <p>The store lives in a fresh temporary directory (under the parent directory when given, e.g. a
 * tmpfs such as /dev/shm, where commits need no disk flush), deleted on shutdown; or in the
 * directory NEO4J_TEST_HOME names, kept on shutdown (the fault tests restart on the same data). Auth is on, as a user
 * would run it. Stdout carries exactly one line, once Bolt accepts connections:
 * {@code NEO4J_TEST_SERVER_READY bolt://127.0.0.1:<port> version=<v> edition=<e>}; everything else
 * goes to stderr or to the server's own log files. The server stops on SIGTERM/SIGINT and when
 * its standard input closes, so a test runner that dies never leaves it behind.
 */
public final class Neo4jTestServer {
  private static final String READY = "NEO4J_TEST_SERVER_READY";

  private Neo4jTestServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2 || !args[0].matches("\\d{1,5}")) {
      fail("usage: Neo4jTestServer <port> [<parent directory of the data>]   (password in NEO4J_TEST_PASSWORD)");
    }
    int port = Integer.parseInt(args[0]);
    String password = System.getenv("NEO4J_TEST_PASSWORD");
    if (password == null || password.length() < 8) {
      fail("NEO4J_TEST_PASSWORD must hold the password of user neo4j, at least 8 characters");
    }

    // NEO4J_TEST_HOME names a store directory that outlives the process (created when missing, kept
    // on shutdown), so the fault tests can kill the server and start it again on the same data.
    String keptHome = System.getenv("NEO4J_TEST_HOME");
    boolean keep = keptHome != null && !keptHome.isEmpty();
    Path home = keep
        ? Files.createDirectories(Path.of(keptHome))
        : args.length == 2 ? Files.createTempDirectory(Path.of(args[1]), "engram-neo4j-") : Files.createTempDirectory("engram-neo4j-");
    AtomicBoolean stopped = new AtomicBoolean(false);
    DatabaseManagementService[] holder = new DatabaseManagementService[1];
    Runnable stop = () -> {
      if (!stopped.compareAndSet(false, true)) return;
      try {
        if (holder[0] != null) holder[0].shutdown();
      } catch (RuntimeException error) {
        System.err.println("neo4j-test-server: shutdown failed: " + error);
      } finally {
        if (!keep) deleteTree(home);
      }
    };
    // A kept store started again already has its password (and Neo4j refuses to set the same one).
    boolean fresh = !Files.exists(home.resolve("data"));
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "neo4j-test-server-shutdown"));

    try {
      holder[0] = new DatabaseManagementServiceBuilder(home)
          .setConfig(BoltConnector.enabled, true)
          .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
          .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
          .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
          .setConfig(GraphDatabaseSettings.auth_enabled, true)
          // Small and quick to start: a test graph fits in a small page cache, and the transaction
          // log need not be kept or preallocated for a throw-away store.
          .setConfig(GraphDatabaseSettings.pagecache_memory, 512L * 1024 * 1024)
          .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
          .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
          .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(2))
          .build();

      GraphDatabaseService system = holder[0].database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
      // The initial password of the built-in admin user, set as neo4j-admin would, and not
      // required to change: the tests log in with it as any client would.
      if (fresh) {
        system.executeTransactionally(
            "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
      }
      // Asked of the default database, as a client would (the system database takes only bare CALLs).
      String[] component = holder[0].database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME).executeTransactionally(
          "CALL dbms.components() YIELD name, versions, edition WHERE name = 'Neo4j Kernel' RETURN versions, edition",
          Map.of(),
          result -> {
            Map<String, Object> row = result.next();
            @SuppressWarnings("unchecked")
            List<String> versions = (List<String>) row.get("versions");
            return new String[] {versions.get(0), String.valueOf(row.get("edition"))};
          });

      System.out.println(READY + " bolt://127.0.0.1:" + port + " version=" + component[0] + " edition=" + component[1]);
      System.out.flush();
    } catch (Throwable error) {
      System.err.println("neo4j-test-server: start failed: " + error);
      error.printStackTrace();
      stop.run();
      System.exit(1);
    }

    watchStdin();
  }

  /** Returns when stdin reaches end of file (the parent closed it or died), then stops the JVM. */
  private static void watchStdin() {
    InputStream in = System.in;
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) >= 0) {
        // Input is ignored: only its end matters.
      }
    } catch (IOException ignored) {
      // A broken stdin is a closed stdin.
    }
    System.exit(0);
  }

  private static void deleteTree(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException error) throws IOException {
          Files.deleteIfExists(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException error) {
      System.err.println("neo4j-test-server: could not delete " + root + ": " + error);
    }
  }

  private static void fail(String message) {
    System.err.println("neo4j-test-server: " + message);
    System.exit(2);
  }
}
