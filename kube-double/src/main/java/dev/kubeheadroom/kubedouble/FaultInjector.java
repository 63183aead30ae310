package dev.kubeheadroom.kubedouble;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Programmed answers for tests. Rules are tried in the order they were added; the first that
 * matches a request and has uses left answers it. Requests from the seed client are never
 * faulted.
 */
public final class FaultInjector {
  private final List<Rule> rules = new CopyOnWriteArrayList<>();

  /** A programmed answer; {@link #remove()} withdraws it. */
  public final class Rule {
    private final RequestMatcher matcher;
    private final Fault fault;
    private final AtomicInteger usesLeft;

    private Rule(RequestMatcher matcher, Fault fault, int uses) {
      this.matcher = matcher;
      this.fault = fault;
      this.usesLeft = new AtomicInteger(uses);
    }

    public void remove() {
      rules.remove(this);
    }

    /** How many more requests this rule will answer ({@link Integer#MAX_VALUE}: until removed). */
    public int usesLeft() {
      return usesLeft.get();
    }
  }

  /** Answers every matching request with {@code fault} until removed. */
  public Rule always(RequestMatcher matcher, Fault fault) {
    return add(new Rule(matcher, fault, Integer.MAX_VALUE));
  }

  /** Answers the next {@code count} matching requests with {@code fault}. */
  public Rule next(int count, RequestMatcher matcher, Fault fault) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be positive, got " + count);
    }
    return add(new Rule(matcher, fault, count));
  }

  public void clear() {
    rules.clear();
  }

  private Rule add(Rule rule) {
    rules.add(rule);
    return rule;
  }

  Optional<Fault> take(ApiRequest request) {
    for (Rule rule : rules) {
      if (rule.matcher.test(request)) {
        int left = rule.usesLeft.getAndUpdate(n -> n == Integer.MAX_VALUE || n == 0 ? n : n - 1);
        if (left == 0) {
          continue;
        }
        if (left == 1) {
          rules.remove(rule);
        }
        return Optional.of(rule.fault);
      }
    }
    return Optional.empty();
  }
}
