#include "moreau/bench/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace moreau::bench::svg {

namespace {

constexpr double kCharW = 6.6;  // average glyph width of 11-12 px sans-serif [px]
const char* kFont = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Axis transform: the value that is linear on the page.
double forward(Scale s, double v) {
  switch (s) {
    case Scale::Log10:
      return std::log10(v);
    case Scale::Log2:
      return std::log2(v);
    default:
      return v;
  }
}
bool usable(Scale s, double v) {
  return std::isfinite(v) && (s == Scale::Linear || v > 0.0);
}

// The axis range [lo, hi] in transformed units.
struct Range {
  double lo = 0.0, hi = 1.0;
};

Range axis_range(const Axis& a, const std::vector<double>& data) {
  if (!a.categories.empty()) return {-0.5, double(a.categories.size()) - 0.5};
  double lo = INFINITY, hi = -INFINITY;
  for (double v : data)
    if (usable(a.scale, v)) {
      lo = std::min(lo, forward(a.scale, v));
      hi = std::max(hi, forward(a.scale, v));
    }
  if (!(lo <= hi)) {
    lo = 0.0;
    hi = 1.0;
  }
  if (a.scale == Scale::Linear) {
    const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(1.0, std::abs(lo) * 0.1);
    lo -= pad;
    hi += pad;
  } else {
    const double d_lo = lo, d_hi = hi;
    lo = std::floor(lo);  // whole decades (or octaves)
    hi = std::ceil(hi);
    if (hi <= lo) hi = lo + 1.0;
    const double pad = 0.03 * (hi - lo);  // keep markers on a decade off the frame
    if (d_lo - lo < pad) lo -= pad;
    if (hi - d_hi < pad) hi += pad;
  }
  if (usable(a.scale, a.lo)) lo = forward(a.scale, a.lo);
  if (usable(a.scale, a.hi)) hi = forward(a.scale, a.hi);
  if (hi <= lo) hi = lo + 1.0;
  return {lo, hi};
}

struct Tick {
  double t;           // transformed position
  std::string label;  // SVG text content (may hold a tspan); empty: minor tick
};

std::string plain(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::vector<Tick> ticks(const Axis& a, Range r) {
  std::vector<Tick> out;
  if (!a.categories.empty()) {
    for (size_t i = 0; i < a.categories.size(); ++i)
      out.push_back({double(i), escape(a.categories[i])});
    return out;
  }
  if (!a.ticks.empty()) {
    for (double v : a.ticks)
      if (usable(a.scale, v)) out.push_back({forward(a.scale, v), plain(v)});
    return out;
  }
  if (a.scale == Scale::Linear) {
    const double raw = (r.hi - r.lo) / 6.0;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
      if (m * mag >= raw) {
        step = m * mag;
        break;
      }
    for (double v = std::ceil(r.lo / step) * step; v <= r.hi + 1e-9 * step; v += step)
      out.push_back({v, plain(std::abs(v) < 1e-12 * step ? 0.0 : v)});
    return out;
  }
  const int k0 = int(std::ceil(r.lo - 1e-9)), k1 = int(std::floor(r.hi + 1e-9));
  const int every = std::max(1, (k1 - k0) / 10 + 1);
  for (int k = k0; k <= k1; ++k) {
    std::string label;
    if ((k - k0) % every == 0) {
      // Plain numbers when the whole axis is short of them, else powers for every label.
      if (a.scale == Scale::Log2)
        label = k0 >= 0 && k1 <= 16
                    ? plain(std::exp2(k))
                    : "2<tspan dy=\"-5\" font-size=\"9\">" + std::to_string(k) + "</tspan>";
      else
        label = k0 >= -2 && k1 <= 3
                    ? plain(std::pow(10.0, k))
                    : "10<tspan dy=\"-5\" font-size=\"9\">" + std::to_string(k) + "</tspan>";
    }
    out.push_back({double(k), label});
    if (a.scale == Scale::Log10 && k1 - k0 <= 4 && k < k1)  // minor ticks 2..9
      for (int m = 2; m <= 9; ++m) out.push_back({k + std::log10(double(m)), ""});
  }
  return out;
}

// Page frame of the plotting area.
struct Frame {
  double x0, y0, x1, y1;  // left, top, right, bottom [px]
  Range rx, ry;
  Scale sx, sy;
  double px(double v) const { return x0 + (forward(sx, v) - rx.lo) / (rx.hi - rx.lo) * (x1 - x0); }
  double py(double v) const { return y1 - (forward(sy, v) - ry.lo) / (ry.hi - ry.lo) * (y1 - y0); }
  bool ok(double x, double y) const { return usable(sx, x) && usable(sy, y); }
};

// `style` fills the closed shapes; the cross is stroked in `col`.
void marker(std::string& o, int shape, double x, double y, double r, const std::string& style,
            const std::string& col) {
  switch (shape % 5) {
    case 4:
      o += "<path d=\"M" + num(x - r) + " " + num(y - r) + "L" + num(x + r) + " " + num(y + r) +
           "M" + num(x - r) + " " + num(y + r) + "L" + num(x + r) + " " + num(y - r) +
           "\" fill=\"none\" stroke=\"" + col + "\" stroke-width=\"1.5\"/>\n";
      break;
    case 1:
      o += "<rect x=\"" + num(x - r) + "\" y=\"" + num(y - r) + "\" width=\"" + num(2 * r) +
           "\" height=\"" + num(2 * r) + "\" " + style + "/>\n";
      break;
    case 2:
      o += "<path d=\"M" + num(x) + " " + num(y - 1.2 * r) + "L" + num(x + 1.1 * r) + " " +
           num(y + 0.8 * r) + "L" + num(x - 1.1 * r) + " " + num(y + 0.8 * r) + "Z\" " + style +
           "/>\n";
      break;
    case 3:
      o += "<path d=\"M" + num(x) + " " + num(y - 1.3 * r) + "L" + num(x + 1.3 * r) + " " + num(y) +
           "L" + num(x) + " " + num(y + 1.3 * r) + "L" + num(x - 1.3 * r) + " " + num(y) + "Z\" " +
           style + "/>\n";
      break;
    default:
      o += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"" + num(r) + "\" " + style +
           "/>\n";
  }
}

std::string stroke_style(const Series& s) {
  std::string st = "fill=\"none\" stroke=\"" + std::string(colour(s.colour)) +
                   "\" stroke-width=\"" + num(s.size) + "\"";
  if (dash_pattern(s.dash)[0] != '\0')
    st += " stroke-dasharray=\"" + std::string(dash_pattern(s.dash)) + "\"";
  if (s.opacity < 1.0) st += " stroke-opacity=\"" + num(s.opacity) + "\"";
  return st;
}

bool has_line(const Series& s) {
  return s.mark == Mark::Line || s.mark == Mark::Step || s.mark == Mark::LinePoints;
}

// Fill of a hatched bar: a cross-hatch pattern `id` in the series' colour.
std::string hatch_pattern(const std::string& id, const std::string& col) {
  return "<pattern id=\"" + id +
         "\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\"><path d=\"M0 0L6 6M6 0L0 "
         "6\" stroke=\"" +
         col + "\" stroke-width=\"0.8\"/></pattern>\n";
}

std::string bar_paint(const Series& s, const std::string& pattern_id) {
  const std::string col = colour(s.colour);
  if (s.hatch) return "fill=\"url(#" + pattern_id + ")\" stroke=\"" + col + "\" stroke-width=\"1\"";
  return "fill=\"" + col + "\"" +
         (s.opacity < 1.0 ? " fill-opacity=\"" + num(s.opacity) + "\"" : "");
}

// `pattern_id` names the series' hatch pattern (defined here when the series needs it).
void draw_series(std::string& o, const Frame& f, const Series& s, const std::string& pattern_id) {
  const size_t n = std::min(s.x.size(), s.y.size());
  if (s.mark == Mark::Bars && s.hatch) o += hatch_pattern(pattern_id, colour(s.colour));
  if (has_line(s)) {
    std::string d;
    bool pen_down = false;
    double last_y = 0.0;
    for (size_t i = 0; i < n; ++i) {
      if (!f.ok(s.x[i], s.y[i])) {
        pen_down = false;
        continue;
      }
      const double X = f.px(s.x[i]), Y = f.py(s.y[i]);
      if (!pen_down) {
        d += "M" + num(X) + " " + num(Y);
      } else if (s.mark == Mark::Step) {
        d += "H" + num(X);
        if (Y != last_y) d += "V" + num(Y);
      } else {
        d += "L" + num(X) + " " + num(Y);
      }
      pen_down = true;
      last_y = Y;
    }
    if (!d.empty())
      o += "<path d=\"" + d + "\" " + stroke_style(s) + " stroke-linejoin=\"round\"/>\n";
  }
  const std::string col = colour(s.colour);
  const std::string err_style =
      "stroke=\"" + col + "\" stroke-width=\"1.2\"" +
      (s.opacity < 1.0 ? " stroke-opacity=\"" + num(s.opacity) + "\"" : "");
  auto has = [&](const std::vector<double>& v, size_t i) { return v.size() > i; };
  for (size_t i = 0; i < n; ++i) {
    if (!f.ok(s.x[i], s.y[i])) continue;
    const double X = f.px(s.x[i]), Y = f.py(s.y[i]);
    if (has(s.y_lo, i) && has(s.y_hi, i) && f.ok(s.x[i], s.y_lo[i]) && f.ok(s.x[i], s.y_hi[i]))
      o += "<line x1=\"" + num(X) + "\" y1=\"" + num(f.py(s.y_lo[i])) + "\" x2=\"" + num(X) +
           "\" y2=\"" + num(f.py(s.y_hi[i])) + "\" " + err_style + "/>\n";
    if (has(s.x_lo, i) && has(s.x_hi, i) && f.ok(s.x_lo[i], s.y[i]) && f.ok(s.x_hi[i], s.y[i]))
      o += "<line x1=\"" + num(f.px(s.x_lo[i])) + "\" y1=\"" + num(Y) + "\" x2=\"" +
           num(f.px(s.x_hi[i])) + "\" y2=\"" + num(Y) + "\" " + err_style + "/>\n";
    if (s.mark == Mark::Points || s.mark == Mark::LinePoints) {
      std::string st = "fill=\"" + col + "\" stroke=\"white\" stroke-width=\"0.6\"";
      if (s.opacity < 1.0)
        st += " fill-opacity=\"" + num(s.opacity) + "\" stroke-opacity=\"" + num(s.opacity) + "\"";
      marker(o, s.shape, X, Y, s.mark == Mark::Points ? s.size : s.radius, st, col);
    } else if (s.mark == Mark::Bars) {
      const double xa = f.px(s.x[i] - s.size / 2), xb = f.px(s.x[i] + s.size / 2);
      const double top = std::min(Y, f.y1), bottom = f.y1;
      o += "<rect x=\"" + num(xa) + "\" y=\"" + num(top) + "\" width=\"" +
           num(std::max(0.5, xb - xa)) + "\" height=\"" + num(bottom - top) + "\" " +
           bar_paint(s, pattern_id) + "/>\n";
    }
  }
}

void legend_swatch(std::string& o, const Series& s, double x, double y,
                   const std::string& pattern_id) {
  const std::string col = colour(s.colour);
  if (has_line(s)) {
    Series t = s;
    t.opacity = 1.0;
    t.size = std::max(2.0, s.size);
    o += "<line x1=\"" + num(x) + "\" y1=\"" + num(y) + "\" x2=\"" + num(x + 26) + "\" y2=\"" +
         num(y) + "\" " + stroke_style(t) + "/>\n";
    if (s.mark == Mark::LinePoints)
      marker(o, s.shape, x + 13, y, s.radius, "fill=\"" + col + "\"", col);
  } else if (s.mark == Mark::Bars) {
    o += "<rect x=\"" + num(x + 6) + "\" y=\"" + num(y - 6) + "\" width=\"14\" height=\"12\" " +
         (s.hatch || s.opacity < 1.0 ? bar_paint(s, pattern_id) : "fill=\"" + col + "\"") + "/>\n";
  } else {
    marker(o, s.shape, x + 13, y, 5.0, "fill=\"" + col + "\"", col);
  }
}

std::string text(double x, double y, const std::string& content, const std::string& attrs) {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + attrs + ">" + content + "</text>\n";
}

size_t max_len(const std::vector<std::string>& v) {
  size_t m = 0;
  for (const std::string& s : v) m = std::max(m, s.size());
  return m;
}

std::string header(double w, double h) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(w) + "\" height=\"" + num(h) +
         "\" viewBox=\"0 0 " + num(w) + " " + num(h) + "\" " + kFont + ">\n<rect width=\"" +
         num(w) + "\" height=\"" + num(h) + "\" fill=\"white\"/>\n";
}

// Viridis-like sequential scale through five stops (perceptually ordered, colour-blind safe).
std::string sequential(double v, bool* dark) {
  static const double stops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  v = std::clamp(v, 0.0, 1.0) * 4.0;
  const int i = std::min(3, int(v));
  const double f = v - i;
  int c[3];
  for (int k = 0; k < 3; ++k)
    c[k] = int(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
  *dark = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] < 140.0;
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}

}  // namespace

const char* colour(int i) {
  static const char* kColours[20] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                     "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
                                     "#393b79", "#ad494a", "#637939", "#e6550d", "#7b4173",
                                     "#3182bd", "#31a354", "#843c39", "#d6616b", "#6b6ecf"};
  return kColours[((i % 20) + 20) % 20];
}

const char* dash_pattern(int i) {
  static const char* kDash[4] = {"", "7 4", "2 3", "9 3 2 3"};
  return kDash[((i % 4) + 4) % 4];
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

namespace {

// The plot's elements, without the <svg> element around them; `id` keeps the clip path's and the
// patterns' ids apart between the panels of a figure. Sets the plot's size [px].
std::string plot_body(const Plot& p, const std::string& id, double* out_width, double* out_height) {
  // Layout: title block, plotting area, legend column on the right, tick labels below.
  std::vector<std::string> labels;
  for (const Series& s : p.series)
    if (!s.label.empty() && p.legend) labels.push_back(s.label);
  const double legend_w = labels.empty() ? 20.0 : 56.0 + kCharW * double(max_len(labels));
  const bool rotate_x = !p.x.categories.empty() &&
                        kCharW * double(max_len(p.x.categories)) >
                            0.9 * (p.width - 90.0 - legend_w) / double(p.x.categories.size());
  const double bottom = 56.0 + (rotate_x ? 0.62 * kCharW * double(max_len(p.x.categories)) : 0.0) +
                        14.0 * double(p.notes.size());
  const double top = p.subtitle.empty() ? 44.0 : 62.0;
  const double height = std::max(p.height, top + 20.0 * double(labels.size()) + 30.0 + bottom);
  const double width = p.width + (p.widen_legend ? legend_w - 20.0 : 0.0);
  *out_width = width;
  *out_height = height;
  Frame f{84.0, top, width - legend_w, height - bottom, {}, {}, p.x.scale, p.y.scale};
  if (!p.x.categories.empty()) f.sx = Scale::Linear;

  std::vector<double> xs, ys;
  for (const Series& s : p.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    xs.insert(xs.end(), s.x_lo.begin(), s.x_lo.end());
    xs.insert(xs.end(), s.x_hi.begin(), s.x_hi.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    ys.insert(ys.end(), s.y_lo.begin(), s.y_lo.end());
    ys.insert(ys.end(), s.y_hi.begin(), s.y_hi.end());
  }
  for (const Rule& r : p.rules) ys.push_back(r.y);
  f.rx = axis_range(p.x, xs);
  f.ry = axis_range(p.y, ys);

  std::string o;
  o += text(f.x0, 24, escape(p.title),
            "font-size=\"" + plain(p.title_size) + "\" font-weight=\"bold\"");
  if (!p.subtitle.empty())
    o += text(f.x0, 44, escape(p.subtitle), "font-size=\"12\" fill=\"#444\"");

  // Alternate bands behind the categories of a categorical x axis.
  for (size_t i = 1; i < p.x.categories.size(); i += 2) {
    const double xa = f.px(double(i) - 0.5), xb = f.px(double(i) + 0.5);
    o += "<rect x=\"" + num(xa) + "\" y=\"" + num(f.y0) + "\" width=\"" + num(xb - xa) +
         "\" height=\"" + num(f.y1 - f.y0) + "\" fill=\"#f5f5f5\"/>\n";
  }
  // Grid and ticks.
  const std::string grid = "stroke=\"#e4e4e4\" stroke-width=\"1\"";
  for (const Tick& t : ticks(p.y, f.ry)) {
    const double Y = f.y1 - (t.t - f.ry.lo) / (f.ry.hi - f.ry.lo) * (f.y1 - f.y0);
    if (Y < f.y0 - 0.5 || Y > f.y1 + 0.5) continue;
    const bool major = !t.label.empty();
    o += "<line x1=\"" + num(f.x0 - (major ? 5 : 3)) + "\" y1=\"" + num(Y) + "\" x2=\"" +
         num(f.x1) + "\" y2=\"" + num(Y) + "\" " +
         (major ? grid : "stroke=\"#f3f3f3\" stroke-width=\"1\"") + "/>\n";
    if (major) o += text(f.x0 - 8, Y + 4, t.label, "font-size=\"11\" text-anchor=\"end\"");
  }
  for (const Tick& t : ticks(p.x, f.rx)) {
    const double X = f.x0 + (t.t - f.rx.lo) / (f.rx.hi - f.rx.lo) * (f.x1 - f.x0);
    if (X < f.x0 - 0.5 || X > f.x1 + 0.5) continue;
    const bool major = !t.label.empty();
    o += "<line x1=\"" + num(X) + "\" y1=\"" + num(f.y0) + "\" x2=\"" + num(X) + "\" y2=\"" +
         num(f.y1 + (major ? 5 : 3)) + "\" " +
         (major ? grid : "stroke=\"#f3f3f3\" stroke-width=\"1\"") + "/>\n";
    if (!major) continue;
    if (rotate_x)
      o += "<text transform=\"translate(" + num(X + 4) + "," + num(f.y1 + 14) +
           ") rotate(-35)\" font-size=\"11\" text-anchor=\"end\">" + t.label + "</text>\n";
    else
      o += text(X, f.y1 + 19, t.label, "font-size=\"11\" text-anchor=\"middle\"");
  }
  o += "<rect x=\"" + num(f.x0) + "\" y=\"" + num(f.y0) + "\" width=\"" + num(f.x1 - f.x0) +
       "\" height=\"" + num(f.y1 - f.y0) +
       "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n";

  // Axis labels.
  const double xlabel_y =
      f.y1 + (rotate_x ? 0.62 * kCharW * double(max_len(p.x.categories)) + 30 : 40);
  o += text((f.x0 + f.x1) / 2, xlabel_y, escape(p.x.label),
            "font-size=\"13\" text-anchor=\"middle\"");
  o += "<text transform=\"translate(22," + num((f.y0 + f.y1) / 2) +
       ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">" + escape(p.y.label) + "</text>\n";
  for (size_t i = 0; i < p.notes.size(); ++i)
    o += text(f.x0, height - 8.0 - 14.0 * double(p.notes.size() - 1 - i), escape(p.notes[i]),
              "font-size=\"10.5\" fill=\"#555\"");

  // Series, clipped to the plotting area.
  o += "<clipPath id=\"area" + id + "\"><rect x=\"" + num(f.x0) + "\" y=\"" + num(f.y0) +
       "\" width=\"" + num(f.x1 - f.x0) + "\" height=\"" + num(f.y1 - f.y0) +
       "\"/></clipPath>\n<g clip-path=\"url(#area" + id + ")\">\n";
  const auto pattern_id = [&](size_t k) { return "hatch" + id + "-" + std::to_string(k); };
  for (size_t k = 0; k < p.series.size(); ++k) draw_series(o, f, p.series[k], pattern_id(k));
  for (const Rule& r : p.rules)
    if (usable(f.sy, r.y))
      o += "<line x1=\"" + num(f.x0) + "\" y1=\"" + num(f.py(r.y)) + "\" x2=\"" + num(f.x1) +
           "\" y2=\"" + num(f.py(r.y)) + "\" stroke=\"" + colour(r.colour) + "\" stroke-width=\"" +
           num(r.size) + "\"/>\n";
  o += "</g>\n";
  for (const Label& l : p.labels)
    if (f.ok(l.x, l.y))
      o += text(f.px(l.x), f.py(l.y) - 2.0, escape(l.text),
                std::string("font-size=\"10.5\" fill=\"") +
                    (l.colour < 0 ? "black" : colour(l.colour)) + "\"");

  // Legend column.
  double ly = f.y0 + 8.0;
  for (size_t k = 0; k < p.series.size() && p.legend; ++k) {
    const Series& s = p.series[k];
    if (s.label.empty()) continue;
    legend_swatch(o, s, f.x1 + 14, ly, pattern_id(k));
    o += text(f.x1 + 46, ly + 4, escape(s.label), "font-size=\"12\"");
    ly += 20.0;
  }
  return o;
}

}  // namespace

std::string render(const Plot& p) {
  double width = 0.0, height = 0.0;
  const std::string body = plot_body(p, "", &width, &height);
  return header(width, height) + body + "</svg>\n";
}

std::string render(const Figure& fig) {
  const int columns = std::max(1, fig.columns);
  const size_t n = fig.panels.size();
  const size_t rows = (n + size_t(columns) - 1) / size_t(columns);
  std::vector<std::string> bodies(n);
  std::vector<double> col_w(size_t(columns), 0.0), row_h(rows, 0.0);
  for (size_t i = 0; i < n; ++i) {
    double w = 0.0, h = 0.0;
    bodies[i] = plot_body(fig.panels[i], "-" + std::to_string(i), &w, &h);
    col_w[i % size_t(columns)] = std::max(col_w[i % size_t(columns)], w);
    row_h[i / size_t(columns)] = std::max(row_h[i / size_t(columns)], h);
  }
  const double top = 14.0 + 22.0 * double(fig.title.size());
  double width = 0.0, height = top + 14.0 * double(fig.notes.size()) + 8.0;
  for (double w : col_w) width += w;
  for (double h : row_h) height += h;
  std::string o = header(width, height);
  for (size_t i = 0; i < fig.title.size(); ++i)
    o += text(width / 2, 28.0 + 22.0 * double(i), escape(fig.title[i]),
              std::string("font-size=\"15\" text-anchor=\"middle\"") +
                  (i == 0 ? " font-weight=\"bold\"" : ""));
  double y = top;
  for (size_t r = 0; r < rows; ++r) {
    double x = 0.0;
    for (size_t c = 0; c < size_t(columns) && r * size_t(columns) + c < n; ++c) {
      o += "<g transform=\"translate(" + num(x) + "," + num(y) + ")\">\n" +
           bodies[r * size_t(columns) + c] + "</g>\n";
      x += col_w[c];
    }
    y += row_h[r];
  }
  for (size_t i = 0; i < fig.notes.size(); ++i)
    o += text(14.0, y + 14.0 * double(i + 1), escape(fig.notes[i]),
              "font-size=\"10.5\" fill=\"#555\"");
  o += "</svg>\n";
  return o;
}

std::string render(const HeatMap& h) {
  const double cell_w = std::max(64.0, kCharW * 7.0), cell_h = 22.0;
  const double left = 24.0 + kCharW * double(max_len(h.rows)) + 10.0;
  const double top =
      (h.subtitle.empty() ? 50.0 : 66.0) + 0.62 * kCharW * double(max_len(h.cols)) + 22.0;
  const double text_w =
      24.0 + std::max({10.5 * double(h.title.size()), 7.0 * double(h.subtitle.size()),
                       7.0 * double(h.col_label.size()) + left});
  const double width = std::max({left + cell_w * double(h.cols.size()) + 30.0, 420.0, text_w});
  const double height = top + cell_h * double(h.rows.size()) + 40.0;
  std::string o = header(width, height);
  o += text(12, 24, escape(h.title), "font-size=\"17\" font-weight=\"bold\"");
  if (!h.subtitle.empty()) o += text(12, 44, escape(h.subtitle), "font-size=\"12\" fill=\"#444\"");
  for (size_t c = 0; c < h.cols.size(); ++c) {
    const double X = left + cell_w * (double(c) + 0.5);
    o += "<text transform=\"translate(" + num(X) + "," + num(top - 6) +
         ") rotate(-35)\" font-size=\"11\">" + escape(h.cols[c]) + "</text>\n";
  }
  for (size_t r = 0; r < h.rows.size(); ++r) {
    const double Y = top + cell_h * double(r);
    o += text(left - 8, Y + cell_h / 2 + 4, escape(h.rows[r]),
              "font-size=\"12\" text-anchor=\"end\"");
    for (size_t c = 0; c < h.cols.size(); ++c) {
      const double X = left + cell_w * double(c);
      const double v = r < h.value.size() && c < h.value[r].size() ? h.value[r][c] : NAN;
      bool dark = false;
      const std::string fill = std::isfinite(v) ? sequential(v, &dark) : "#f4f4f4";
      o += "<rect x=\"" + num(X) + "\" y=\"" + num(Y) + "\" width=\"" + num(cell_w) +
           "\" height=\"" + num(cell_h) + "\" fill=\"" + fill +
           "\" stroke=\"white\" stroke-width=\"1.5\"/>\n";
      const std::string t = r < h.text.size() && c < h.text[r].size() ? h.text[r][c] : "";
      if (!t.empty())
        o += text(X + cell_w / 2, Y + cell_h / 2 + 4, escape(t),
                  std::string("font-size=\"11\" text-anchor=\"middle\" fill=\"") +
                      (dark ? "white" : "black") + "\"");
    }
  }
  const double bottom_y = top + cell_h * double(h.rows.size());
  if (!h.col_label.empty())
    o += text(left, bottom_y + 20, escape(h.col_label), "font-size=\"12\" fill=\"#444\"");
  if (!h.row_label.empty())
    o += text(12, top - 6, escape(h.row_label), "font-size=\"12\" font-weight=\"bold\"");
  o += "</svg>\n";
  return o;
}

}  // namespace moreau::bench::svg
