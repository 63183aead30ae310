package dev.kubeheadroom.cli.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one place that reads {@code HEADROOM_LOG_LEVEL} and {@code HEADROOM_LOG_FORMAT} (chart
 * values {@code logging.level}, {@code logging.format}). A value it does not know is not fatal: a
 * process must not crash-loop over a typo in its log settings; the default is used and {@link
 * #problems} says why (logged as a warning once logging is up).
 *
 * @param level the level of Headroom's own loggers ({@code dev.kubeheadroom}); libraries log
 *     at WARN, or at this level when it is coarser
 * @param format text lines or one JSON object per line
 * @param problems what was wrong with the environment, empty when nothing
 */
public record LogSettings(Level level, Format format, List<String> problems) {
  public static final String LEVEL_ENV = "HEADROOM_LOG_LEVEL";
  public static final String FORMAT_ENV = "HEADROOM_LOG_FORMAT";
  public static final LogSettings DEFAULTS = new LogSettings(Level.INFO, Format.TEXT, List.of());

  /** Levels, finest first. */
  public enum Level { TRACE, DEBUG, INFO, WARN, ERROR }

  public enum Format { TEXT, JSON }

  public LogSettings {
    problems = List.copyOf(problems);
  }

  /** From the process environment. */
  public static LogSettings fromEnvironment() {
    return from(System.getenv());
  }

  /** From {@code env}; unset or blank variables take the defaults (info, text). */
  public static LogSettings from(Map<String, String> env) {
    List<String> problems = new ArrayList<>();
    Level level = parse(Level.class, env.get(LEVEL_ENV), DEFAULTS.level(), LEVEL_ENV, problems);
    Format format = parse(Format.class, env.get(FORMAT_ENV), DEFAULTS.format(), FORMAT_ENV, problems);
    return new LogSettings(level, format, problems);
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String raw, E fallback, String name,
      List<String> problems) {
    if (raw == null || raw.isBlank()) {
      return fallback;
    }
    String value = raw.strip().toUpperCase(Locale.ROOT);
    if (value.equals("WARNING")) {
      value = "WARN";
    }
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(value)) {
        return constant;
      }
    }
    problems.add(name + "=" + raw + " is not one of " + names(type) + "; using "
        + fallback.name().toLowerCase(Locale.ROOT));
    return fallback;
  }

  private static <E extends Enum<E>> String names(Class<E> type) {
    List<String> names = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      names.add(constant.name().toLowerCase(Locale.ROOT));
    }
    return String.join("|", names);
  }
}
