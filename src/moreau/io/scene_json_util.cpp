// Locations, line numbers and typed getters of the JSON scene reader (scene_json_util.hpp).
#include "moreau/io/scene_json_util.hpp"

#include <algorithm>
#include <cmath>

namespace moreau::scene_json {

Loc Loc::key(const std::string& k) const {
  Loc l{label.empty() ? k : label + "." + k, path};
  l.path.push_back({k, -1});
  return l;
}

Loc Loc::at(int i) const {
  Loc l{label + "[" + std::to_string(i) + "]", path};
  l.path.push_back({"", i});
  return l;
}

Loc Loc::named(const std::string& name) const {
  return {label + " '" + name + "'", path};
}

Loc Loc::named_by(const json& j) const {
  if (!j.is_object()) return *this;
  auto it = j.find("name");
  return it != j.end() && it->is_string() ? named(it->get<std::string>()) : *this;
}

// ---- A minimal scanner over text that nlohmann already accepted (so it is valid JSON). ----------
namespace {
struct Scanner {
  const std::string& s;
  size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  // Raw contents of a string token (escapes kept), i at the opening quote.
  std::string string_raw() {
    const size_t start = ++i;
    while (i < s.size() && s[i] != '"') i += (s[i] == '\\') ? 2 : 1;
    return s.substr(start, (i++) - start);
  }
  void skip_value() {
    ws();
    if (i >= s.size()) return;
    if (s[i] == '"') {
      string_raw();
      return;
    }
    if (s[i] == '{' || s[i] == '[') {
      int depth = 0;
      while (i < s.size()) {
        const char c = s[i];
        if (c == '"') {
          string_raw();
          continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        ++i;
        if (depth == 0) return;
      }
      return;
    }
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' &&
           s[i] != '\n' && s[i] != '\r' && s[i] != '\t')
      ++i;
  }
  // Moves i to the value of member `key` of the object at i; false if absent.
  bool enter_key(const std::string& key) {
    ws();
    if (i >= s.size() || s[i] != '{') return false;
    ++i;
    bool found = false;
    size_t where = 0;
    for (;;) {
      ws();
      if (i >= s.size() || s[i] != '"') break;
      const std::string k = string_raw();
      ws();
      ++i;  // ':'
      ws();
      if (k == key) {  // keep the last duplicate, as nlohmann does
        found = true;
        where = i;
      }
      skip_value();
      ws();
      if (i < s.size() && s[i] == ',') ++i;
    }
    if (found) i = where;
    return found;
  }
  // First key repeated within one object (depth-first, file order), i at its opening quote.
  bool duplicate_key(std::string* key, size_t* at, int depth = 0) {
    ws();
    if (i >= s.size() || depth > 256) return false;
    if (s[i] == '{' || s[i] == '[') {
      const bool object = s[i++] == '{';
      std::vector<std::string> seen;
      for (;;) {
        ws();
        if (i >= s.size()) return false;
        if (s[i] == '}' || s[i] == ']') {
          ++i;
          return false;
        }
        if (object) {
          const size_t kpos = i;
          std::string k = string_raw();
          if (std::find(seen.begin(), seen.end(), k) != seen.end()) {
            *key = k;
            *at = kpos;
            return true;
          }
          seen.push_back(std::move(k));
          ws();
          ++i;  // ':'
        }
        if (duplicate_key(key, at, depth + 1)) return true;
        ws();
        if (i < s.size() && s[i] == ',') ++i;
      }
    }
    skip_value();
    return false;
  }
  bool enter_index(int n) {
    ws();
    if (i >= s.size() || s[i] != '[') return false;
    ++i;
    for (int k = 0;; ++k) {
      ws();
      if (i >= s.size() || s[i] == ']') return false;
      if (k == n) return true;
      skip_value();
      ws();
      if (i < s.size() && s[i] == ',') ++i;
    }
  }
};
}  // namespace

size_t locate_value(const std::string& text, const std::vector<PathStep>& path) {
  Scanner sc{text};
  for (const PathStep& step : path)
    if (!(step.index >= 0 ? sc.enter_index(step.index) : sc.enter_key(step.key)))
      return std::string::npos;
  sc.ws();
  return sc.i;
}

bool find_duplicate_key(const std::string& text, std::string* key, size_t* offset) {
  Scanner sc{text};
  return sc.duplicate_key(key, offset);
}

int line_of_offset(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

std::string fmt_number(double x) {
  return json(x).dump();
}

std::string describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return j.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      std::string s = j.get<std::string>();
      if (s.size() > 40) s = s.substr(0, 37) + "...";
      return "the string \"" + s + "\"";
    }
    case json::value_t::array:
      return "an array of " + std::to_string(j.size()) + (j.size() == 1 ? " element" : " elements");
    case json::value_t::object:
      return "an object";
    case json::value_t::number_float:
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return j.dump();
    default:
      return "an unsupported value";
  }
}

// ---- Reader ----------------------------------------------------------------------------------

int Reader::line(const Loc& at) const {
  if (at.path.empty()) return 0;  // the whole scene: no single line to point at
  const size_t off = locate_value(text_, at.path);
  return off == std::string::npos ? 0 : line_of_offset(text_, off);
}

void Reader::fail(const Loc& at, const std::string& expected, const std::string& got) const {
  throw ErrorException(
      Error{file_, line(at), at.label.empty() ? "scene" : at.label, expected, got});
}

void Reader::fail(const Loc& at, Error e) const {
  e.file = file_;
  e.line = line(at);
  throw ErrorException(std::move(e));
}

void Reader::keys(const json& j, const Loc& at, std::initializer_list<const char*> allowed) const {
  keys(j, at, std::vector<std::string>(allowed.begin(), allowed.end()));
}

void Reader::keys(const json& j, const Loc& at, const std::vector<std::string>& allowed) const {
  if (!j.is_object()) fail(at, "an object", describe(j));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(at.key(it.key()), "one of the keys " + list, "the unknown key \"" + it.key() + "\"");
    }
}

const json& Reader::array(const json& j, const Loc& at, int size) const {
  if (!j.is_array())
    fail(at, size >= 0 ? "an array of " + std::to_string(size) + " numbers" : "an array",
         describe(j));
  if (size >= 0 && static_cast<int>(j.size()) != size)
    fail(at, "an array of " + std::to_string(size) + " elements", describe(j));
  return j;
}

double Reader::number(const json& j, const Loc& at, Range r) const {
  if (!j.is_number()) fail(at, "a number", describe(j));
  const double x = j.get<double>();
  if (!std::isfinite(x)) fail(at, "a finite number", describe(j));
  switch (r) {
    case Range::Any:
      break;
    case Range::Positive:
      if (!(x > 0.0)) fail(at, "a number > 0", fmt_number(x));
      break;
    case Range::NonNegative:
      if (!(x >= 0.0)) fail(at, "a number >= 0", fmt_number(x));
      break;
    case Range::Unit:
      if (!(x >= 0.0 && x <= 1.0)) fail(at, "a number in [0, 1]", fmt_number(x));
      break;
    case Range::OpenUnit:
      if (!(x > 0.0 && x < 1.0)) fail(at, "a number in (0, 1)", fmt_number(x));
      break;
    case Range::AtLeastOne:
      if (!(x >= 1.0)) fail(at, "a number >= 1", fmt_number(x));
      break;
  }
  return x;
}

long long Reader::integer64(const json& j, const Loc& at, long long lo, long long hi) const {
  const std::string expected =
      "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!j.is_number()) fail(at, expected, describe(j));
  const double x = j.get<double>();
  if (!(x >= static_cast<double>(lo) && x <= static_cast<double>(hi)) || x != std::floor(x))
    fail(at, expected, describe(j));
  return j.is_number_float() ? static_cast<long long>(x) : j.get<long long>();
}

int Reader::integer(const json& j, const Loc& at, long long lo, long long hi) const {
  return static_cast<int>(integer64(j, at, lo, hi));
}

bool Reader::boolean(const json& j, const Loc& at) const {
  if (!j.is_boolean()) fail(at, "true or false", describe(j));
  return j.get<bool>();
}

std::string Reader::string(const json& j, const Loc& at, bool nonempty) const {
  if (!j.is_string()) fail(at, nonempty ? "a non-empty string" : "a string", describe(j));
  std::string s = j.get<std::string>();
  if (nonempty && s.empty()) fail(at, "a non-empty string", "\"\"");
  return s;
}

Vec3 Reader::vec3(const json& j, const Loc& at) const {
  array(j, at, 3);
  return {number(j[0], at.at(0)), number(j[1], at.at(1)), number(j[2], at.at(2))};
}

Vec3 Reader::direction(const json& j, const Loc& at) const {
  const Vec3 v = vec3(j, at);
  const double n = v.norm();
  if (!(n > 1e-12) || !std::isfinite(n)) fail(at, "a non-zero direction", "a zero vector");
  return v / n;
}

Quat Reader::quat(const json& j, const Loc& at) const {
  if (j.is_object()) {
    keys(j, at, {"axis", "angle"});
    const json* ax = get(j, "axis");
    const json* an = get(j, "angle");
    if (!ax || !an)
      fail(at, "an axis-angle object {\"axis\": [x, y, z], \"angle\": rad}", "a missing key");
    const Vec3 axis = direction(*ax, at.key("axis"));
    return Quat(Eigen::AngleAxisd(number(*an, at.key("angle")), axis));
  }
  if (!j.is_array() || j.size() != 4)
    fail(at, "a unit quaternion [w, x, y, z] or {\"axis\": [x, y, z], \"angle\": rad}",
         describe(j));
  Quat q(number(j[0], at.at(0)), number(j[1], at.at(1)), number(j[2], at.at(2)),
         number(j[3], at.at(3)));
  const double n = q.norm();
  if (!(std::abs(n - 1.0) <= 1e-6))
    fail(at, "a unit quaternion [w, x, y, z] (|norm - 1| <= 1e-6)", "norm " + fmt_number(n));
  if (std::abs(n - 1.0) > 1e-14) q.normalize();  // keeps the bits of an already-unit quaternion
  return q;
}

Pose Reader::pose(const json& j, const Loc& at) const {
  keys(j, at, {"position", "orientation"});
  Pose p;
  if (const json* v = get(j, "position")) p.p = vec3(*v, at.key("position"));
  if (const json* v = get(j, "orientation")) p.q = quat(*v, at.key("orientation"));
  return p;
}

}  // namespace moreau::scene_json
