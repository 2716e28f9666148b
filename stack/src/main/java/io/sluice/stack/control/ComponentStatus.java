package io.sluice.stack.control;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One component of the process stack as its supervisor sees it: what {@code GET /components} of the
 * control API lists, the ready file's {@code components} object holds, and {@code sluice stack
 * status} prints.
 *
 * @param name the component ({@code broker}, {@code registry}, {@code mariadb}, {@code router},
 *     {@code connect}, {@code capture}, {@code monitor}, {@code prometheus})
 * @param state {@link #RUNNING}, {@link #STOPPED} (SIGTERM, on request), {@link #KILLED} (SIGKILL,
 *     on request) or {@link #EXITED} (it ended on its own)
 * @param pid its process id while it runs, else null
 * @param starts how often the supervisor started it (1 after the stack's start)
 * @param exitCode how it last ended (137 after a SIGKILL), null while it runs
 * @param log its log file
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ComponentStatus(
    String name, String state, Long pid, int starts, Integer exitCode, String log) {
  public static final String RUNNING = "RUNNING";
  public static final String STOPPED = "STOPPED";
  public static final String KILLED = "KILLED";
  public static final String EXITED = "EXITED";

  public boolean running() {
    return RUNNING.equals(state);
  }
}
