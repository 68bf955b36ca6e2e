// MJCF default classes (with inheritance), attribute lookup and frame orientations.
#include <cmath>
#include <cstring>
#include <sstream>

#include "moreau/io/mjcf_internal.hpp"

namespace moreau::mjcf {

void Context::fail(const Element* e, const std::string& element, const std::string& expected,
                   const std::string& got) const {
  const auto [f, line] = where(e ? e->GetLineNum() : 0);
  throw ErrorException(Error{f, line, element, expected, got});
}

void Context::ignore(const std::string& what, int line) {
  auto& [count, first] = ignored[what];
  if (count++ == 0) first = line;
}

void Context::warn(int line, const std::string& message) {
  const auto [f, l] = where(line);
  warnings.push_back(f + ":" + std::to_string(l) + ": " + message);
}

std::pair<std::string, int> Context::where(int line) const {
  return expanded ? expanded->where(line) : std::pair<std::string, int>{file, line};
}

namespace {

void parse_default_class(Context& c, const Element* d, const std::string& parent) {
  const char* name = d->Attribute("class");
  const std::string cls = parent.empty() ? (name ? name : "main") : (name ? name : "");
  if (cls.empty()) c.fail(d, "<default>", "a class attribute on a nested <default>", "none");
  if (c.classes.count(cls) && !parent.empty())
    c.fail(d, "default class '" + cls + "'", "a unique class name", "a second definition");
  // A second top-level <default> (from an <include>) adds to the classes defined so far.
  DefaultClass dc = !parent.empty()        ? c.classes[parent]
                    : c.classes.count(cls) ? c.classes[cls]
                                           : DefaultClass{};
  for (const Element* ch = d->FirstChildElement(); ch; ch = ch->NextSiblingElement()) {
    if (std::strcmp(ch->Name(), "default") == 0) continue;
    AttrMap& m = dc.tags[ch->Name()];
    for (const tinyxml2::XMLAttribute* a = ch->FirstAttribute(); a; a = a->Next())
      m[a->Name()] = a->Value();
  }
  c.classes[cls] = dc;
  if (parent.empty() && cls != "main") c.classes["main"] = dc;
  for (const Element* ch = d->FirstChildElement("default"); ch;
       ch = ch->NextSiblingElement("default"))
    parse_default_class(c, ch, cls);
}

}  // namespace

void parse_defaults(Context& c, const Element* root) {
  if (!c.classes.count("main")) c.classes["main"] = DefaultClass{};
  for (const Element* d = root->FirstChildElement("default"); d;
       d = d->NextSiblingElement("default"))
    parse_default_class(c, d, "");
}

std::string class_of(const Element* e, const std::string& childclass) {
  const char* cls = e->Attribute("class");
  return cls ? cls : (childclass.empty() ? "main" : childclass);
}

Attrs::Attrs(Context& ctx, const Element* el, const std::string& cls, const std::string& elem)
    : e(el), element(elem), c(ctx), defaults_(nullptr) {
  auto it = c.classes.find(cls);
  if (it == c.classes.end() && cls == "main") return;  // before <default> is read
  if (it == c.classes.end())
    c.fail(e, element + " class", "a defined default class", "'" + cls + "'");
  auto t = it->second.tags.find(e->Name());
  if (t != it->second.tags.end()) defaults_ = &t->second;
}

const char* Attrs::get(const char* name) const {
  if (const char* v = e->Attribute(name)) return v;
  if (defaults_) {
    auto it = defaults_->find(name);
    if (it != defaults_->end()) return it->second.c_str();
  }
  return nullptr;
}

std::string Attrs::str(const char* name, const std::string& fallback) const {
  const char* v = get(name);
  return v ? std::string(v) : fallback;
}

std::vector<double> Attrs::nums(const char* name, int min, int max,
                                std::vector<double> fallback) const {
  const char* v = get(name);
  if (!v) return fallback;
  std::istringstream is(v);
  std::vector<double> out;
  std::string tok;
  while (is >> tok) {
    char* end = nullptr;
    const double x = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end != '\0' || !std::isfinite(x))
      c.fail(e, element + " " + name, "finite numbers", "'" + std::string(v) + "'");
    out.push_back(x);
  }
  if (static_cast<int>(out.size()) < min || static_cast<int>(out.size()) > max)
    c.fail(e, element + " " + name,
           min == max ? std::to_string(min) + " numbers"
                      : std::to_string(min) + " to " + std::to_string(max) + " numbers",
           std::to_string(out.size()) + " in '" + std::string(v) + "'");
  return out;
}

double Attrs::num(const char* name, double fallback) const {
  return nums(name, 1, 1, {fallback})[0];
}

Vec3 Attrs::vec3(const char* name, const Vec3& fallback) const {
  const std::vector<double> v = nums(name, 3, 3, {fallback.x(), fallback.y(), fallback.z()});
  return {v[0], v[1], v[2]};
}

int Attrs::integer(const char* name, int fallback) const {
  const double x = num(name, fallback);
  if (x != std::floor(x) || std::abs(x) > 2147483647.0)
    c.fail(e, element + " " + name, "an integer", std::to_string(x));
  return static_cast<int>(x);
}

bool Attrs::boolean(const char* name, bool fallback) const {
  const int t = tristate(name, fallback ? 1 : 0);
  if (t < 0) c.fail(e, element + " " + name, "true or false", "auto");
  return t == 1;
}

int Attrs::tristate(const char* name, int fallback) const {
  const char* v = get(name);
  if (!v) return fallback;
  const std::string s = v;
  if (s == "true") return 1;
  if (s == "false") return 0;
  if (s == "auto") return -1;
  c.fail(e, element + " " + name, "true, false or auto", "'" + s + "'");
}

Quat z_to(const Vec3& d) {
  return Quat::FromTwoVectors(Vec3::UnitZ(), d.normalized()).normalized();
}

Quat Attrs::orientation() const {
  int given = 0;
  for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
    given += e->Attribute(k) != nullptr;
  if (given > 1)
    c.fail(e, element, "at most one of quat, axisangle, euler, xyaxes, zaxis",
           std::to_string(given));
  const double unit = c.degrees ? M_PI / 180.0 : 1.0;
  if (const char* v = e->Attribute("quat"); v) {
    const std::vector<double> q = nums("quat", 4, 4, {});
    Quat Q(q[0], q[1], q[2], q[3]);
    if (!(Q.norm() > 1e-12))
      c.fail(e, element + " quat", "a non-zero quaternion", "'" + std::string(v) + "'");
    return Q.normalized();
  }
  if (e->Attribute("axisangle")) {
    const std::vector<double> a = nums("axisangle", 4, 4, {});
    const Vec3 ax(a[0], a[1], a[2]);
    if (!(ax.norm() > 1e-12)) c.fail(e, element + " axisangle", "a non-zero axis", "0 0 0");
    return Quat(Eigen::AngleAxisd(a[3] * unit, ax.normalized()));
  }
  if (e->Attribute("euler")) {
    const Vec3 ang = vec3("euler", Vec3::Zero()) * unit;
    if (c.eulerseq.size() != 3)
      c.fail(e, "compiler eulerseq", "three of xyzXYZ", "'" + c.eulerseq + "'");
    Quat q = Quat::Identity();
    for (int k = 0; k < 3; ++k) {
      const char ch = c.eulerseq[k];
      const int axis = std::tolower(ch) - 'x';
      if (axis < 0 || axis > 2)
        c.fail(e, "compiler eulerseq", "three of xyzXYZ", "'" + c.eulerseq + "'");
      const Quat r(Eigen::AngleAxisd(ang[k], Vec3::Unit(axis)));
      q = std::islower(ch) ? Quat(q * r) : Quat(r * q);  // intrinsic: right; extrinsic: left
    }
    return q.normalized();
  }
  if (e->Attribute("xyaxes")) {
    const std::vector<double> a = nums("xyaxes", 6, 6, {});
    Vec3 x(a[0], a[1], a[2]), y(a[3], a[4], a[5]);
    if (!(x.norm() > 1e-12)) c.fail(e, element + " xyaxes", "a non-zero x axis", "0 0 0");
    x.normalize();
    y -= x * x.dot(y);
    if (!(y.norm() > 1e-12))
      c.fail(e, element + " xyaxes", "a y axis not parallel to x", "parallel axes");
    y.normalize();
    Mat3 R;
    R << x, y, x.cross(y);
    return Quat(R).normalized();
  }
  if (e->Attribute("zaxis")) {
    const Vec3 z = vec3("zaxis", Vec3::UnitZ());
    if (!(z.norm() > 1e-12)) c.fail(e, element + " zaxis", "a non-zero axis", "0 0 0");
    return z_to(z);
  }
  return Quat::Identity();
}

void Attrs::ignore_attrs(std::initializer_list<const char*> names) const {
  for (const char* n : names)
    if (get(n)) c.ignore(std::string(e->Name()) + " attribute '" + n + "'", e->GetLineNum());
}

}  // namespace moreau::mjcf
