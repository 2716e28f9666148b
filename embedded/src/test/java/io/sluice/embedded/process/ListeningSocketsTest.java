package io.sluice.embedded.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class ListeningSocketsTest {
  private static final long SELF = ProcessHandle.current().pid();

  @Test
  void aSocketOnLoopbackIsListedAsLoopback() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertThat(ListeningSockets.of(SELF))
          .filteredOn(s -> s.port() == socket.getLocalPort())
          .singleElement()
          .matches(ListeningSockets.Socket::loopback);
    }
  }

  @Test
  void aSocketOnEveryInterfaceIsNotLoopback() throws Exception {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(0));
      assertThat(ListeningSockets.of(SELF))
          .filteredOn(s -> s.port() == socket.getLocalPort())
          .isNotEmpty()
          .noneMatch(ListeningSockets.Socket::loopback);
    }
  }

  @Test
  void aClosedSocketIsNotListed() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = socket.getLocalPort();
    }
    assertThat(ListeningSockets.of(SELF)).noneMatch(s -> s.port() == port);
  }
}
