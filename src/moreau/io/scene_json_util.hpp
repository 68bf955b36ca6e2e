#pragma once
// Internal to the JSON scene reader: where a value sits (a label for messages and a path for line
// numbers) and typed getters that throw ErrorException naming file, line, element, expectation
// and what was found. parse_scene_json() turns the exception back into a Result at the edge.
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "moreau/math/types.hpp"
#include "moreau/model/error.hpp"

namespace moreau::scene_json {

using json = nlohmann::json;

// One step of a path from the root: an object key, or an array index (index >= 0).
struct PathStep {
  std::string key;
  int index = -1;
};

// A value's location: label "bodies[2] 'arm'.mass" for messages, path for the line number.
struct Loc {
  std::string label;
  std::vector<PathStep> path;

  Loc key(const std::string& k) const;
  Loc at(int i) const;
  Loc named(const std::string& name) const;  // adds " 'name'" to the label only
  // named(j["name"]) when j is an object with a string "name", else *this.
  Loc named_by(const nlohmann::json& j) const;
};

// Byte offset of the value at `path` in the (valid) JSON text, or std::string::npos.
size_t locate_value(const std::string& text, const std::vector<PathStep>& path);
// The first object key repeated within one object of the (valid) JSON text, and its offset.
bool find_duplicate_key(const std::string& text, std::string* key, size_t* offset);
// 1-based line of a byte offset.
int line_of_offset(const std::string& text, size_t offset);
// A short description of a JSON value for "got ...": "the string \"x\"", "an array of 2 elements".
std::string describe(const json& j);
// Shortest round-trip decimal form of x (as written to files).
std::string fmt_number(double x);

enum class Range { Any, Positive, NonNegative, Unit, OpenUnit, AtLeastOne };

class Reader {
 public:
  Reader(const std::string& text, std::string file) : text_(text), file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  int line(const Loc& at) const;

  [[noreturn]] void fail(const Loc& at, const std::string& expected, const std::string& got) const;
  // Rethrows an Error from a validator or a mesh loader with this file and at's line.
  [[noreturn]] void fail(const Loc& at, Error e) const;

  // Checks j is an object whose keys are all in `allowed` (a typo is an error, never ignored).
  void keys(const json& j, const Loc& at, std::initializer_list<const char*> allowed) const;
  void keys(const json& j, const Loc& at, const std::vector<std::string>& allowed) const;
  const json& array(const json& j, const Loc& at, int size = -1) const;
  double number(const json& j, const Loc& at, Range r = Range::Any) const;
  int integer(const json& j, const Loc& at, long long lo, long long hi) const;
  long long integer64(const json& j, const Loc& at, long long lo, long long hi) const;
  bool boolean(const json& j, const Loc& at) const;
  std::string string(const json& j, const Loc& at, bool nonempty = true) const;
  Vec3 vec3(const json& j, const Loc& at) const;
  Vec3 direction(const json& j, const Loc& at) const;  // non-zero, normalized
  // [w, x, y, z] within 1e-6 of unit norm (normalized unless already unit to 1e-14), or
  // {"axis": [x, y, z], "angle": rad}.
  Quat quat(const json& j, const Loc& at) const;
  // {"position": [..], "orientation": ..}, both optional.
  Pose pose(const json& j, const Loc& at) const;

  // Member `key` of object j or nullptr.
  static const json* get(const json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
  }

 private:
  const std::string& text_;
  std::string file_;
};

}  // namespace moreau::scene_json
