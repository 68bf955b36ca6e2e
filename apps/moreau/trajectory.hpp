#pragma once
// Trajectory files of `moreau simulate`: one sample per recorded step with the time, per body
// the CoM position, the quaternion (w, x, y, z) and the twist [v; w], and the constraint
// violation. CSV (header row, one row per sample) or JSON; numbers in shortest round-trip form,
// so equal runs give byte-identical files. The JSON also carries the scene itself (the native
// format, docs/scene-format.md) under "scene_definition", so that `moreau view` needs nothing
// else, and with contacts on, each sample's contacts (point and force, docs/viewer.md).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "moreau/io/scene.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::cli {

enum class TrajectoryFormat { Csv, Json };

class TrajectoryWriter {
 public:
  // Writes the header (CSV column names, or the JSON metadata) to f, which stays owned by the
  // caller.
  TrajectoryWriter(std::FILE* f, TrajectoryFormat format, const Scene& scene,
                   const SimSettings& settings, int every, bool contacts = false);
  // One sample; `sim` (the simulator that took the step, null for the initial state) gives the
  // contacts when they are recorded.
  void sample(int64_t step, const State& s, double violation, const Simulator* sim = nullptr);
  // Closes the JSON document (no-op for CSV).
  void finish();

 private:
  void number(double x);
  void integer(int64_t n);
  void flush_line();

  std::FILE* f_;
  TrajectoryFormat format_;
  int64_t samples_ = 0;
  bool contacts_ = false;
  std::vector<Vec3> force_;  // reused contact forces
  std::string line_;         // reused buffer for one row / sample
};

}  // namespace moreau::cli
