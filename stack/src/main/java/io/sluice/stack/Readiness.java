package io.sluice.stack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until every component of the stack answers a request a client would make, within one
 * bounded wait. A component that never answers is named in the error, with what was asked.
 */
final class Readiness {
  private static final Logger log = LoggerFactory.getLogger(Readiness.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  /**
   * One component's check: true when it answered as expected. It throws {@link StackStartException}
   * when waiting longer cannot help (the wait ends at once), any other exception counts as "not
   * yet".
   */
  interface Probe {
    boolean answers() throws Exception;
  }

  private record Check(String component, String request, Probe probe) {}

  private final List<Check> checks = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();

  Readiness kafka(String bootstrapServers, Admin admin) {
    checks.add(
        new Check(
            "Kafka broker",
            "describeCluster on " + bootstrapServers,
            () ->
                !admin
                    .describeCluster()
                    .nodes()
                    .get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .isEmpty()));
    return this;
  }

  Readiness http(String component, String url) {
    return check(component, "GET " + url + " with status 200", () -> status(url) == 200);
  }

  /** Any other check; {@code request} says what was asked, for the error. */
  Readiness check(String component, String request, Probe probe) {
    checks.add(new Check(component, request, probe));
    return this;
  }

  /** The checks of {@code more} after these. */
  Readiness then(Readiness more) {
    checks.addAll(more.checks);
    return this;
  }

  /**
   * Blocks until every check passed, in order.
   *
   * @throws StackStartException naming the first component that did not answer in time
   */
  void await(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Check check : checks) {
      Exception last = null;
      while (true) {
        try {
          if (check.probe().answers()) {
            log.info("{} answers ({})", check.component(), check.request());
            break;
          }
          last = null;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StackStartException("interrupted while waiting for " + check.component(), e);
        } catch (StackStartException e) {
          throw e; // the probe knows waiting cannot help
        } catch (Exception e) {
          last = e;
        }
        if (System.nanoTime() > deadline) {
          throw new StackStartException(
              String.format(
                  Locale.ROOT,
                  "%s did not answer in time (%s, waited %.1f s)%s",
                  check.component(),
                  check.request(),
                  timeout.toMillis() / 1000.0,
                  last == null ? "" : ": " + last),
              last);
        }
        pause();
      }
    }
  }

  private int status(String url) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).GET().build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackStartException("interrupted while waiting for the stack", e);
    }
  }
}
