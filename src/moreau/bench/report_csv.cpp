// results.csv: one row per run, the sample's structure (Sec. VII-C) and metrics (eq. 173-176).
#include <cmath>
#include <cstdio>

#include "moreau/bench/report_common.hpp"

namespace moreau::bench {

namespace {

// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
std::string csv_field(const std::string& s, bool always_quote = false) {
  if (!always_quote && s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

}  // namespace

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string results_csv(const std::vector<Sample>& samples, const std::vector<RunResult>& runs) {
  std::string o =
      "sample,system,step,time,reason,category,bodies,contacts,nl,d_J,d_C,d_JC,rank_J,cond_D,"
      "mass_ratio,solver,start,status,converged,success,iterations,solve_time_s,r_pen,r_dual,"
      "r_compl,r_natmap,r_primal,message,fallbacks\n";
  const auto n = format_number;
  for (const RunResult& r : runs) {
    const Sample& s = samples.at(size_t(r.sample));
    const SampleInfo& i = s.info;
    const Metrics& m = r.metrics;
    const std::vector<std::string> fields = {std::to_string(r.sample),
                                             csv_field(s.system),
                                             std::to_string(s.step),
                                             n(s.time),
                                             csv_field(s.reason),
                                             category_name(i.category),
                                             std::to_string(i.bodies),
                                             std::to_string(i.contacts),
                                             std::to_string(i.nl),
                                             n(i.d_J),
                                             n(i.d_C),
                                             n(i.d_JC),
                                             std::to_string(i.rank_J),
                                             n(i.cond_D),
                                             n(i.mass_ratio),
                                             csv_field(r.solver),
                                             r.warm ? "warm" : "cold",
                                             status_name(r.status),
                                             r.status == SolveStatus::Converged ? "1" : "0",
                                             r.success ? "1" : "0",
                                             std::to_string(r.iterations),
                                             n(r.solve_time_s),
                                             n(m.r_pen),
                                             n(m.r_dual),
                                             n(m.r_compl),
                                             n(m.r_natmap),
                                             n(m.r_primal),
                                             csv_field(r.message, true),
                                             std::to_string(r.fallbacks)};
    for (size_t k = 0; k < fields.size(); ++k) o += (k ? "," : "") + fields[k];
    o += "\n";
  }
  return o;
}

}  // namespace moreau::bench
