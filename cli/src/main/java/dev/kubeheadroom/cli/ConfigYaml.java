package dev.kubeheadroom.cli;

import java.util.IdentityHashMap;
import java.util.Map;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * A {@code --config} file's YAML as a node graph (the same parser fabric8's {@code Serialization}
 * uses), checked before it is bound: an alias inside the node it names ({@code a: &a [*a]}) makes a
 * cycle that binding would follow until the stack ran out, so it is refused with its line.
 */
final class ConfigYaml {
  private ConfigYaml() {}

  /**
   * The document's root node, or null when it is empty.
   *
   * @throws IllegalArgumentException naming the line of a recursive alias or of a YAML error
   */
  static Node compose(String text) {
    Node root;
    try {
      root = new Compose(LoadSettings.builder().build()).composeString(text).orElse(null);
    } catch (YamlEngineException e) {
      throw new IllegalArgumentException(e.getMessage().lines().findFirst().orElse("not YAML"));
    }
    if (root != null) {
      refuseCycles(root, new IdentityHashMap<>(), new IdentityHashMap<>());
    }
    return root;
  }

  /** 1-based line of a node, 0 when unknown. */
  static int line(Node node) {
    return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
  }

  /**
   * Depth first; {@code open} holds the nodes on the current path (a cycle returns to one of them),
   * {@code done} those already walked (an alias used many times is walked once).
   */
  private static void refuseCycles(Node node, Map<Node, Boolean> open, Map<Node, Boolean> done) {
    if (done.containsKey(node)) {
      return;
    }
    if (open.containsKey(node)) {
      String anchor = node.getAnchor().map(a -> " (*" + a.getValue() + ")").orElse("");
      throw new IllegalArgumentException("line " + line(node) + ": recursive YAML alias" + anchor
          + ": a node may not contain itself");
    }
    open.put(node, Boolean.TRUE);
    if (node instanceof MappingNode map) {
      for (NodeTuple t : map.getValue()) {
        refuseCycles(t.getKeyNode(), open, done);
        refuseCycles(t.getValueNode(), open, done);
      }
    } else if (node instanceof SequenceNode seq) {
      for (Node child : seq.getValue()) {
        refuseCycles(child, open, done);
      }
    }
    open.remove(node);
    done.put(node, Boolean.TRUE);
  }
}
