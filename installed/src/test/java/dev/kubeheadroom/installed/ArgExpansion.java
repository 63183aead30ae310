package dev.kubeheadroom.installed;

import java.util.Map;

/**
 * The kubelet's {@code $(VAR)} expansion of a container's command and args from its environment
 * (pkg/kubelet/container/helpers.go {@code ExpandContainerCommandAndArgs}, the syntax of
 * third_party/forked/golang/expansion/expand.go): {@code $(NAME)} becomes NAME's value when the
 * container defines NAME and stays as written when it does not; {@code $$} is an escaped
 * {@code $}; any other {@code $} is kept. The chart relies on it for
 * {@code --group-instance-id=$(HEADROOM_POD_NAME)}.
 */
final class ArgExpansion {
  private ArgExpansion() {}

  static String expand(String input, Map<String, String> env) {
    StringBuilder out = new StringBuilder(input.length());
    int i = 0;
    while (i < input.length()) {
      char c = input.charAt(i);
      if (c != '$' || i + 1 >= input.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = input.charAt(i + 1);
      if (next == '$') {
        out.append('$'); // escaped: "$$(X)" is the literal "$(X)"
        i += 2;
      } else if (next == '(') {
        int close = input.indexOf(')', i + 2);
        if (close < 0) {
          out.append(input, i, input.length()); // unclosed: kept as written
          break;
        }
        String name = input.substring(i + 2, close);
        String value = env.get(name);
        out.append(value != null ? value : "$(" + name + ")");
        i = close + 1;
      } else {
        out.append(c); // a lone '$' stays
        i++;
      }
    }
    return out.toString();
  }
}
