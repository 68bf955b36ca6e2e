#pragma once
// A small SVG plot writer for the benchmark report: line, step, scatter and bar series on linear,
// log10 or log2 axes (or a categorical x axis), with ticks, axis labels, a title and a legend
// column; and a heat-map table. Self-written, no dependencies; output is deterministic.
#include <limits>
#include <string>
#include <vector>

namespace moreau::bench::svg {

enum class Scale { Linear, Log10, Log2 };

struct Axis {
  std::string label;  // with its unit, "solve time [s]"
  Scale scale = Scale::Linear;
  double lo = std::numeric_limits<double>::quiet_NaN();  // NaN: from the data
  double hi = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> categories;  // non-empty: categorical axis, category i at x = i
};

enum class Mark { Line, Step, Points, Bars };

struct Series {
  std::string label;  // empty: not in the legend
  Mark mark = Mark::Line;
  std::vector<double> x, y;  // non-finite points (and <= 0 on a log axis) are skipped
  std::vector<double> x_lo, x_hi, y_lo, y_hi;  // optional error bars, same length as x
  int colour = 0;                              // palette index
  int dash = 0;                                // dash pattern index, 0 solid (Line, Step)
  int shape = 0;  // marker: 0 circle, 1 square, 2 triangle, 3 diamond (Points)
  double opacity = 1.0;
  double size = 2.0;  // line width or marker radius [px]; bar width [x data units]
};

struct Plot {
  std::string title, subtitle;
  Axis x, y;
  std::vector<Series> series;
  double width = 960.0, height = 560.0;  // [px]; grows to fit the legend
  std::vector<std::string> notes;        // small lines of text under the plot
};

std::string render(const Plot& p);

// Table of coloured cells, value in [0, 1] (NaN: blank cell), with a text per cell.
struct HeatMap {
  std::string title, subtitle;
  std::string row_label, col_label;
  std::vector<std::string> rows, cols;
  std::vector<std::vector<double>> value;      // [row][col]
  std::vector<std::vector<std::string>> text;  // [row][col], may be empty
};

std::string render(const HeatMap& h);

const char* colour(int i);                    // 20 distinct colours, cycling
const char* dash_pattern(int i);              // "" for 0
std::string escape(const std::string& text);  // XML text and attribute escaping

}  // namespace moreau::bench::svg
