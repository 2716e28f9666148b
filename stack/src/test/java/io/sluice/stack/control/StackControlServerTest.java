package io.sluice.stack.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The control API over real HTTP on loopback, through {@link StackControlClient}. */
class StackControlServerTest {
  private final FakeStackController supervisor = new FakeStackController();
  private final StackControlServer server = StackControlServer.start("127.0.0.1", 0, supervisor);
  private final StackControlClient client = new StackControlClient(server.url() + "/");

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void statusListsEveryComponentInOrder() {
    List<ComponentStatus> all = client.status();

    assertThat(all).extracting(ComponentStatus::name).containsExactly("broker", "router");
    assertThat(all.get(1))
        .isEqualTo(
            new ComponentStatus(
                "router", ComponentStatus.RUNNING, 1001L, 1, null, "/data/logs/router.log"));
  }

  @Test
  void statusOfOneComponent() {
    assertThat(client.status("broker").pid()).isEqualTo(1000L);
  }

  @Test
  void killStopAndStartReachTheSupervisorWithTheirComponent() {
    ComponentStatus killed = client.kill("router");
    ComponentStatus started = client.start("router");
    ComponentStatus stopped = client.stop("broker");

    assertThat(supervisor.calls()).containsExactly("kill router", "start router", "stop broker");
    assertThat(killed.state()).isEqualTo(ComponentStatus.KILLED);
    assertThat(killed.exitCode()).isEqualTo(137);
    assertThat(killed.pid()).isNull();
    assertThat(started.state()).isEqualTo(ComponentStatus.RUNNING);
    assertThat(started.starts()).isEqualTo(2);
    assertThat(stopped.state()).isEqualTo(ComponentStatus.STOPPED);
  }

  @Test
  void crashAnswersEveryComponentRunningAgain() {
    List<Long> before = client.status().stream().map(ComponentStatus::pid).toList();

    List<ComponentStatus> after = client.crash();

    assertThat(supervisor.calls()).containsExactly("crash");
    assertThat(after).extracting(ComponentStatus::name).containsExactly("broker", "router");
    assertThat(after).allMatch(ComponentStatus::running).allMatch(c -> c.starts() == 2);
    assertThat(after).extracting(ComponentStatus::pid).doesNotContainAnyElementsOf(before);
  }

  @Test
  void anUnknownComponentIs404WithTheComponentsTheStackHas() {
    assertThatThrownBy(() -> client.kill("zookeeper"))
        .isInstanceOfSatisfying(
            StackController.ControlException.class, e -> assertThat(e.status()).isEqualTo(404))
        .hasMessage("no component zookeeper; the stack has [broker, router]");
    assertThatThrownBy(() -> client.status("zookeeper"))
        .isInstanceOfSatisfying(
            StackController.ControlException.class, e -> assertThat(e.status()).isEqualTo(404))
        .hasMessage("no component zookeeper; the stack has [broker, router]");
  }

  @Test
  void anUnknownPathOrActionIs404() throws Exception {
    assertThat(send("GET", "/stack")).startsWith("404 ").contains("no such path /stack");
    assertThat(send("POST", "/components/router/restart"))
        .startsWith("404 ")
        .contains("no action restart of router");
  }

  @Test
  void theWrongMethodIs405() throws Exception {
    assertThat(send("GET", "/stack/crash"))
        .startsWith("405 ")
        .contains("GET /stack/crash is not served; use POST");
    assertThat(send("POST", "/components"))
        .startsWith("405 ")
        .contains("POST /components is not served; use GET");
    assertThat(send("GET", "/components/router/kill")).startsWith("405 ");
    assertThat(supervisor.calls()).as("no action ran").isEmpty();
  }

  @Test
  void aRefusalOfTheSupervisorIs409WithItsMessage() {
    assertThatThrownBy(() -> client.start("router"))
        .isInstanceOfSatisfying(
            StackController.ControlException.class, e -> assertThat(e.status()).isEqualTo(409))
        .hasMessage("router runs already (pid 1001)");
  }

  @Test
  void anUnexpectedExceptionIs500NamingIt() {
    supervisor.failNext(new IllegalStateException("mariadbd is gone"));

    assertThatThrownBy(client::crash)
        .isInstanceOfSatisfying(
            StackController.ControlException.class, e -> assertThat(e.status()).isEqualTo(500))
        .hasMessage("IllegalStateException: mariadbd is gone");
    assertThat(client.status()).as("the server still answers").hasSize(2);
  }

  @Test
  void anUnreachableSupervisorNamesTheUrl() {
    String url = server.url();
    server.close();

    assertThatThrownBy(() -> new StackControlClient(url).status())
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessage("the stack's control API at " + url + " does not answer (is the stack up?)");
  }

  /** A raw request: {@code "<status> <body>"}. */
  private String send(String method, String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                    .method(method, HttpRequest.BodyPublishers.noBody())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }
}
