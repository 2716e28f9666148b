package io.sluice.stack;

import java.util.List;
import java.util.stream.IntStream;

/**
 * How many of the scalable components the process stack runs: router instances (one Kafka Streams
 * application; the main topic's partitions are shared among them), Connect workers (one distributed
 * cluster) and the tasks of each sink connector ({@code tasks.max}).
 *
 * @param routers router processes, named {@code router}, {@code router-2}, ...
 * @param connectWorkers Connect worker processes, named {@code connect}, {@code connect-2}, ...
 * @param sinkTasks {@code tasks.max} of both sinks
 */
public record ProcessScale(int routers, int connectWorkers, int sinkTasks) {
  /** One of each: the stack's default. */
  public static final ProcessScale SINGLE = new ProcessScale(1, 1, 1);

  /** The most instances of one component: more would only share 3 partitions further. */
  public static final int MAX_INSTANCES = 3;

  /** The most tasks of a sink: one per partition of the stack's 3-partition topics. */
  public static final int MAX_SINK_TASKS = 3;

  public ProcessScale {
    check("routers", routers, MAX_INSTANCES);
    check("Connect workers", connectWorkers, MAX_INSTANCES);
    check("sink tasks", sinkTasks, MAX_SINK_TASKS);
  }

  /** The component name of instance {@code n} (from 1) of {@code component}. */
  public static String instanceName(String component, int n) {
    return n == 1 ? component : component + "-" + n;
  }

  /** The router components' names, in start order. */
  public List<String> routerNames() {
    return names(ProcessStack.ROUTER, routers);
  }

  /** The Connect worker components' names, in start order. */
  public List<String> connectNames() {
    return names(ProcessStack.CONNECT, connectWorkers);
  }

  private static List<String> names(String component, int count) {
    return IntStream.rangeClosed(1, count).mapToObj(n -> instanceName(component, n)).toList();
  }

  private static void check(String what, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(
          "the process stack runs 1 to " + max + " " + what + ", not " + value);
    }
  }
}
