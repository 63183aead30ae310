package dev.kubeheadroom.kafka.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The broker and controller ports; an ephemeral pair is probed free together, then released
 * (public for testkit's several-node cluster).
 */
public record BrokerPorts(int broker, int controller) {

  public static BrokerPorts choose(int brokerPort) {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket controller = bind(loopback, 0)) {
      if (brokerPort != EmbeddedKafkaConfig.EPHEMERAL_PORT) {
        try (ServerSocket broker = bind(loopback, brokerPort)) {
          return new BrokerPorts(broker.getLocalPort(), controller.getLocalPort());
        } catch (IOException e) {
          throw new EmbeddedKafkaException(
              "port " + brokerPort + " on 127.0.0.1 is already in use; choose another", e);
        }
      }
      try (ServerSocket broker = bind(loopback, 0)) {
        return new BrokerPorts(broker.getLocalPort(), controller.getLocalPort());
      }
    } catch (IOException e) {
      throw new EmbeddedKafkaException("cannot find a free port on 127.0.0.1: " + e, e);
    }
  }

  private static ServerSocket bind(InetAddress address, int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    try {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(address, port));
      return socket;
    } catch (IOException e) {
      socket.close();
      throw e;
    }
  }
}
