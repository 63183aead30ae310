package dev.kubeheadroom.launcher;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Options as name → value, with {@code --x=v} split into {@code --x v}. Names without a value
 * (flags) stay as they are. Order is kept; set/replace change values in place.
 */
final class Args {
  private final List<String> tokens = new ArrayList<>();
  private final CommandLine.Model.CommandSpec spec;

  Args(List<String> args) {
    this(args, null);
  }

  Args(List<String> args, CommandLine.Model.CommandSpec spec) {
    this.spec = spec;
    for (String a : args) {
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        tokens.add(a.substring(0, eq));
        tokens.add(a.substring(eq + 1));
      } else {
        tokens.add(a);
      }
    }
  }

  String value(String name) {
    int i = tokens.indexOf(name);
    return i >= 0 && i + 1 < tokens.size() ? tokens.get(i + 1) : null;
  }

  /** Replaces the value, or appends the option. */
  void set(String name, String value) {
    if (!replace(name, value)) {
      tokens.add(name);
      tokens.add(value);
    }
  }

  /** Replaces the value if the option is given; says whether it was. */
  boolean replace(String name, String value) {
    int i = tokens.indexOf(name);
    if (i < 0) {
      return false;
    }
    tokens.set(i + 1, value);
    return true;
  }

  /** Replaces the value, or appends the option when the command has it. */
  void replaceOrAddIfKnown(String name, String value) {
    if (!replace(name, value) && spec != null && spec.findOption(name) != null) {
      tokens.add(name);
      tokens.add(value);
    }
  }

  boolean remove(String name) {
    int i = tokens.indexOf(name);
    if (i < 0 || i + 1 >= tokens.size()) {
      return false;
    }
    tokens.remove(i + 1);
    tokens.remove(i);
    return true;
  }

  void removeAll(String name) {
    while (remove(name)) {
      // every occurrence (repeatable options)
    }
  }

  List<String> list() {
    return List.copyOf(tokens);
  }
}
