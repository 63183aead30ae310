package dev.kubeheadroom.cli.html;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * One SVG chart over a time window: a value axis from 0 to {@code yMax}, a time axis from
 * {@code from} to {@code to} (UTC), and what a page draws on it, in its coordinates.
 */
final class Chart {
  static final int WIDTH = 960;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 10;
  private static final int BOTTOM = 24;
  private static final int TICKS = 6;

  private final Instant from;
  private final Instant to;
  private final double yMax;
  private final int height;
  private final DoubleFunction<String> yLabel;
  private final StringBuilder drawn = new StringBuilder();

  Chart(Instant from, Instant to, double yMax, int height, DoubleFunction<String> yLabel) {
    this.from = from;
    this.to = to.isAfter(from) ? to : from.plusSeconds(1);
    this.yMax = yMax > 0 ? yMax : 1;
    this.height = height;
    this.yLabel = yLabel;
  }

  /** The least round value (1, 2, 2.5 or 5 × 10ⁿ, times 4) at or above {@code v}: four grid steps of round size. */
  static double niceMax(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double step = Math.pow(10, Math.floor(Math.log10(v / 4)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (4 * step * m >= v) {
        return 4 * step * m;
      }
    }
    return 40 * step;
  }

  double x(Instant t) {
    double span = Duration.between(from, to).toMillis();
    double at = Math.max(0, Math.min(span, Duration.between(from, t).toMillis()));
    return LEFT + (WIDTH - LEFT - RIGHT) * at / span;
  }

  double y(double value) {
    double v = Math.max(0, Math.min(yMax, value));
    return TOP + (height - TOP - BOTTOM) * (1 - v / yMax);
  }

  double bottom() {
    return height - BOTTOM;
  }

  double top() {
    return TOP;
  }

  /** A step line of class {@code cssClass}: each value holds from its time to the next, the last until {@code end}. */
  Chart step(String cssClass, List<Instant> times, List<Double> values, Instant end) {
    if (times.isEmpty()) {
      return this;
    }
    StringBuilder d = new StringBuilder("M").append(f(x(times.get(0)))).append(' ').append(f(y(values.get(0))));
    for (int i = 1; i < times.size(); i++) {
      d.append(" H").append(f(x(times.get(i)))).append(" V").append(f(y(values.get(i))));
    }
    d.append(" H").append(f(x(end)));
    drawn.append("<path class=\"").append(cssClass).append("\" d=\"").append(d)
        .append("\"/>\n");
    return this;
  }

  /** Raw SVG drawn on top (markers), built with {@link #x}, {@link #y} and escaped text. */
  Chart draw(String svg) {
    drawn.append(svg).append('\n');
    return this;
  }

  String svg(String label) {
    StringBuilder s = new StringBuilder();
    s.append("<svg width=\"").append(WIDTH).append("\" height=\"").append(height)
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\" role=\"img\" aria-label=\"")
        .append(Html.escape(label)).append("\">\n");
    for (int i = 0; i <= 4; i++) {
      double v = yMax * i / 4;
      s.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
          .append(f(y(v))).append("\" y2=\"").append(f(y(v))).append("\"/><text x=\"").append(LEFT - 6)
          .append("\" y=\"").append(f(y(v) + 4)).append("\" text-anchor=\"end\">").append(Html.escape(yLabel.apply(v)))
          .append("</text>\n");
    }
    DateTimeFormatter format = DateTimeFormatter.ofPattern(
        Duration.between(from, to).toHours() >= 24 ? "MM-dd HH:mm" : "HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);
    for (int i = 0; i <= TICKS; i++) {
      Instant t = from.plusMillis(Duration.between(from, to).toMillis() * i / TICKS);
      s.append("<text x=\"").append(f(x(t))).append("\" y=\"").append(height - 6).append("\" text-anchor=\"")
          .append(i == 0 ? "start" : i == TICKS ? "end" : "middle").append("\">").append(format.format(t))
          .append("</text>\n");
    }
    s.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
        .append(f(bottom())).append("\" y2=\"").append(f(bottom())).append("\"/>\n");
    s.append(drawn).append("</svg>\n");
    return s.toString();
  }

  /** A coordinate: one decimal, no locale. */
  static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
