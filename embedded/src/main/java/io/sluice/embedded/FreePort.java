package io.sluice.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Collection;

/** A loopback TCP port that was free a moment ago. */
public final class FreePort {
  private FreePort() {}

  /** Binds port 0 on 127.0.0.1, reads the port the kernel chose, and releases it. */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("could not find a free port on 127.0.0.1", e);
    }
  }

  /**
   * A free port that is none of {@code taken}: the kernel may hand out a port again that it gave a
   * moment ago, which would give two servers of one stack the same port.
   */
  public static int pickOtherThan(Collection<Integer> taken) {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = pick();
      if (!taken.contains(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port on 127.0.0.1 other than " + taken);
  }
}
