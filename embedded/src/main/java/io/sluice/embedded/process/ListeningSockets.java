package io.sluice.embedded.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc}: its file descriptors name
 * socket inodes, and {@code /proc/net/tcp} and {@code tcp6} give each inode's local address and
 * state. For tests that prove a component binds to loopback only (Linux only).
 */
public final class ListeningSockets {
  private static final String LISTEN = "0A";

  /** A listening socket: its local address as the kernel prints it and its port. */
  public record Socket(String address, int port) {
    /** 127.0.0.1 (IPv4) or ::1 / ::ffff:127.0.0.1 (IPv6). */
    public boolean loopback() {
      return address.equals("0100007F")
          || address.equals("00000000000000000000000001000000")
          || address.equals("0000000000000000FFFF00000100007F");
    }
  }

  private ListeningSockets() {}

  /** Every socket {@code pid} listens on. */
  public static List<Socket> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    List<Socket> sockets = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals(LISTEN) && inodes.contains(f[9])) {
          String[] local = f[1].split(":");
          sockets.add(new Socket(local[0], Integer.parseInt(local[1], 16)));
        }
      }
    }
    return sockets;
  }
}
