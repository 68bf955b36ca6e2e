#pragma once
// A small SVG plot writer for the benchmark report and the experiments' figures: line, step,
// scatter and bar series on linear, log10 or log2 axes (or a categorical x axis), with ticks, axis
// labels, a title, a legend column, reference lines and text labels; panels of plots in a grid
// under common title lines; and a heat-map table. Self-written, no dependencies; output is
// deterministic.
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
  std::vector<double> ticks;            // non-empty: these major ticks only, labelled "%g"
};

enum class Mark { Line, Step, Points, Bars, LinePoints };  // LinePoints: a line with markers

struct Series {
  std::string label;  // empty: not in the legend
  Mark mark = Mark::Line;
  std::vector<double> x, y;  // non-finite points (and <= 0 on a log axis) are skipped
  std::vector<double> x_lo, x_hi, y_lo, y_hi;  // optional error bars, same length as x
  int colour = 0;                              // palette index
  int dash = 0;                                // dash pattern index, 0 solid (Line, Step)
  int shape = 0;  // marker: 0 circle, 1 square, 2 triangle, 3 diamond, 4 cross (Points)
  double opacity = 1.0;
  double size = 2.0;    // line width or marker radius [px]; bar width [x data units]
  double radius = 3.0;  // marker radius of LinePoints [px]
  bool hatch = false;   // Bars: outlined and cross-hatched instead of filled
};

// A horizontal line across the plotting area at y (included in the y range).
struct Rule {
  double y = 0.0;
  int colour = 9;  // palette index (grey)
  double size = 1.0;
};

// Text at a data point, its baseline at y; colour -1 is black.
struct Label {
  double x = 0.0, y = 0.0;
  std::string text;
  int colour = -1;
};

struct Plot {
  std::string title, subtitle;
  Axis x, y;
  std::vector<Series> series;
  double width = 960.0, height = 560.0;  // [px]; grows to fit the legend
  std::vector<std::string> notes;        // small lines of text under the plot
  std::vector<Rule> rules;
  std::vector<Label> labels;
  bool legend = true;         // false: no legend column, even for labelled series
  bool widen_legend = false;  // true: `width` excludes the legend column, which is added to it
  double title_size = 17.0;   // [px]
};

std::string render(const Plot& p);

// Plots in a grid, row-major, `columns` to a row, under title lines (the first bold) and above
// notes. Each column is as wide as its widest panel, each row as tall as its tallest.
struct Figure {
  std::vector<std::string> title;
  int columns = 1;
  std::vector<Plot> panels;
  std::vector<std::string> notes;
};

std::string render(const Figure& f);

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
