// write_report: results.csv, summary.json, plots/*.svg and report.md, each written atomically.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "moreau/bench/bench.hpp"
#include "moreau/bench/report_common.hpp"

namespace moreau::bench {

namespace fs = std::filesystem;

std::optional<Error> write_file_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return Error{path, 0, "report file", "a writable location", std::strerror(errno)};
    f.write(text.data(), std::streamsize(text.size()));
    f.close();
    if (!f) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return Error{path, 0, "report file", "all bytes written", "a write error"};
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp, ignore);
    return Error{path, 0, "report file", "rename from " + tmp, ec.message()};
  }
  return std::nullopt;
}

std::vector<std::string> report_solvers(const ReportInput& in) {
  if (!in.solvers.empty()) return in.solvers;
  std::vector<std::string> out;
  for (const RunResult& r : *in.runs)
    if (std::find(out.begin(), out.end(), r.solver) == out.end()) out.push_back(r.solver);
  return out;
}

std::vector<std::string> report_systems(const ReportInput& in) {
  std::vector<std::string> out = in.systems;
  for (const Sample& s : *in.samples)  // also systems met only as samples (fclib:<file>)
    if (std::find(out.begin(), out.end(), s.system) == out.end()) out.push_back(s.system);
  return out;
}

bool headline_warm(const std::vector<RunResult>& runs) {
  bool any = false;
  for (const RunResult& r : runs) {
    if (!r.warm) return false;
    any = true;
  }
  return any;
}

std::optional<Error> write_report(const ReportInput& in) {
  const fs::path dir(in.out_dir);
  if (in.samples == nullptr || in.runs == nullptr)
    return Error{in.out_dir, 0, "report input", "samples and runs", "a null pointer"};
  for (const RunResult& r : *in.runs)
    if (r.sample < 0 || r.sample >= int(in.samples->size()))
      return Error{(dir / "results.csv").string(), 0, "run of solver '" + r.solver + "'",
                   "a sample index below " + std::to_string(in.samples->size()),
                   std::to_string(r.sample)};
  std::error_code ec;
  fs::create_directories(dir / "plots", ec);
  if (ec)
    return Error{(dir / "plots").string(), 0, "plot directory", "a directory that can be created",
                 ec.message()};

  const std::vector<Aggregate> aggs = aggregate(*in.samples, *in.runs);
  if (auto e =
          write_file_atomic((dir / "results.csv").string(), results_csv(*in.samples, *in.runs)))
    return e;
  if (auto e = write_file_atomic((dir / "summary.json").string(), summary_json(in, aggs))) return e;
  const std::vector<PlotFile> plots = report_plots(in, aggs);
  for (const PlotFile& p : plots)
    if (auto e = write_file_atomic((dir / "plots" / p.name).string(), p.svg)) return e;
  return write_file_atomic((dir / "report.md").string(), report_markdown(in, aggs, plots));
}

}  // namespace moreau::bench
