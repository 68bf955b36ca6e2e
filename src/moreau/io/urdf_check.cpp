// URDF structure checks on tinyxml2 before urdfdom parses the file: urdfdom reports failures
// without lines, so malformed XML, unknown references and cycles are found here, with lines.
// Also reads the <loop_joint> extension (docs/model-import.md), which urdfdom ignores.
#include <tinyxml2.h>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "moreau/io/urdf_internal.hpp"

namespace moreau::urdf_detail {

namespace {

[[noreturn]] void fail(const std::string& file, int line, const std::string& element,
                       const std::string& expected, const std::string& got) {
  throw ErrorException(Error{file, line, element, expected, got});
}

std::string attr(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  return v ? std::string(v) : std::string();
}

Vec3 parse_vec3(const tinyxml2::XMLElement* e, const char* name, const Vec3& fallback,
                const std::string& file, const std::string& element) {
  const char* v = e->Attribute(name);
  if (!v) return fallback;
  std::istringstream is(v);
  Vec3 x;
  for (int k = 0; k < 3; ++k)
    if (!(is >> x[k]) || !std::isfinite(x[k]))
      fail(file, e->GetLineNum(), element + " " + name, "three finite numbers",
           "'" + std::string(v) + "'");
  std::string rest;
  if (is >> rest)
    fail(file, e->GetLineNum(), element + " " + name, "three finite numbers",
         "'" + std::string(v) + "'");
  return x;
}

JointType loop_type(const std::string& s, const std::string& file, int line,
                    const std::string& element) {
  if (s == "revolute" || s == "continuous") return JointType::Revolute;
  if (s == "prismatic") return JointType::Prismatic;
  if (s == "cylindrical") return JointType::Cylindrical;
  if (s == "universal") return JointType::Universal;
  if (s == "spherical" || s == "ball") return JointType::Spherical;
  if (s == "fixed") return JointType::Fixed;
  fail(file, line, element + " type",
       "revolute, continuous, prismatic, cylindrical, universal, spherical or fixed",
       "'" + s + "'");
}

// <loop_joint name type><link1 link xyz rpy/><link2 link [xyz rpy]/><axis
// xyz/><limit/></loop_joint>
LoopSpec parse_loop(const tinyxml2::XMLElement* e, const std::string& file,
                    const std::map<std::string, int>& link_lines) {
  LoopSpec L;
  L.name = attr(e, "name");
  L.line = e->GetLineNum();
  L.element = "loop_joint '" + L.name + "'";
  L.type = loop_type(attr(e, "type"), file, L.line, L.element);
  const tinyxml2::XMLElement* ends[2] = {e->FirstChildElement("link1"),
                                         e->FirstChildElement("link2")};
  for (int k = 0; k < 2; ++k) {
    const std::string tag = k == 0 ? "link1" : "link2";
    if (!ends[k]) fail(file, L.line, L.element, "a <" + tag + " link=\"...\"/> child", "none");
    L.link[k] = attr(ends[k], "link");
    if (!link_lines.count(L.link[k]) && L.link[k] != "world")
      fail(file, ends[k]->GetLineNum(), L.element + " <" + tag + ">", "the name of a link",
           "'" + L.link[k] + "'");
    L.xyz[k] = parse_vec3(ends[k], "xyz", Vec3::Zero(), file, L.element + " <" + tag + ">");
    L.rpy[k] = parse_vec3(ends[k], "rpy", Vec3::Zero(), file, L.element + " <" + tag + ">");
    L.given[k] = ends[k]->Attribute("xyz") || ends[k]->Attribute("rpy");
  }
  if (const auto* a = e->FirstChildElement("axis"))
    L.axis = parse_vec3(a, "xyz", Vec3::UnitX(), file, L.element + " <axis>");
  if (!(L.axis.norm() > 1e-12))
    fail(file, L.line, L.element + " <axis>", "a non-zero axis", "0 0 0");
  if (const auto* l = e->FirstChildElement("limit")) {
    L.lower = l->DoubleAttribute("lower", L.lower);
    L.upper = l->DoubleAttribute("upper", L.upper);
  }
  return L;
}

}  // namespace

Prescan prescan_urdf(const std::string& xml, const std::string& file) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS)
    fail(file, doc.ErrorLineNum(), "XML", "well-formed XML", xml_error_text(doc));
  const tinyxml2::XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot")
    fail(file, robot ? robot->GetLineNum() : 0, "root element", "<robot>",
         robot ? "<" + std::string(robot->Name()) + ">" : "nothing");
  Prescan p;
  p.robot_name = attr(robot, "name");
  if (p.robot_name.empty()) fail(file, robot->GetLineNum(), "<robot>", "a name attribute", "none");
  std::map<std::string, int> ignored_count, ignored_line;
  std::vector<const tinyxml2::XMLElement*> loops;
  for (const auto* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    const std::string name = attr(e, "name");
    if (tag == "link") {
      if (name.empty()) fail(file, e->GetLineNum(), "<link>", "a name attribute", "none");
      if (p.link_line.count(name))
        fail(file, e->GetLineNum(), "link '" + name + "'", "a unique link name",
             "a second definition (first at line " + std::to_string(p.link_line[name]) + ")");
      p.link_line[name] = e->GetLineNum();
    } else if (tag == "joint") {
      if (name.empty()) fail(file, e->GetLineNum(), "<joint>", "a name attribute", "none");
      if (p.joint_line.count(name))
        fail(file, e->GetLineNum(), "joint '" + name + "'", "a unique joint name",
             "a second definition");
      p.joint_line[name] = e->GetLineNum();
      const auto* par = e->FirstChildElement("parent");
      const auto* chi = e->FirstChildElement("child");
      if (!par || !chi)
        fail(file, e->GetLineNum(), "joint '" + name + "'",
             "<parent link=...> and <child link=...>", "a missing element");
      p.edges.push_back({name, attr(par, "link"), attr(chi, "link"), e->GetLineNum()});
      for (const auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string ct = c->Name();
        if (ct == "mimic" || ct == "safety_controller" || ct == "calibration")
          p.warnings.push_back(file + ":" + std::to_string(c->GetLineNum()) + ": joint '" + name +
                               "' <" + ct + "> is ignored (not supported)");
      }
    } else if (tag == "loop_joint") {
      loops.push_back(e);
    } else if (tag != "material") {
      if (!ignored_count[tag]++) ignored_line[tag] = e->GetLineNum();
    }
  }
  for (const auto& [tag, n] : ignored_count)
    p.warnings.push_back(file + ":" + std::to_string(ignored_line[tag]) + ": <" + tag +
                         "> is ignored (" + std::to_string(n) + " element" + (n > 1 ? "s" : "") +
                         ", outside the supported URDF subset)");
  // References and the tree property: every joint names existing links, no link has two parents,
  // every parent chain ends at the root.
  std::map<std::string, std::string> parent_of;  // child -> parent link
  for (const Prescan::Edge& ed : p.edges) {
    for (const std::string* l : {&ed.parent, &ed.child})
      if (!p.link_line.count(*l))
        fail(file, ed.line, "joint '" + ed.joint + "'", "a link named in <parent>/<child> to exist",
             "no link '" + *l + "'");
    if (parent_of.count(ed.child))
      fail(file, ed.line, "joint '" + ed.joint + "'", "each link to have at most one parent joint",
           "link '" + ed.child + "' is already the child of link '" + parent_of[ed.child] +
               "' (use <loop_joint> to close loops)");
    parent_of[ed.child] = ed.parent;
  }
  for (const Prescan::Edge& ed : p.edges) {
    std::set<std::string> seen{ed.child};
    for (std::string l = ed.parent; parent_of.count(l); l = parent_of[l])
      if (!seen.insert(l).second)
        fail(file, ed.line, "joint '" + ed.joint + "'", "a tree of links (no cycles)",
             "a cycle through link '" + l + "' (use <loop_joint> to close loops)");
  }
  int roots = 0;
  for (const auto& [name, line] : p.link_line)
    if (!parent_of.count(name)) ++roots, p.root = name;
  if (p.link_line.empty())
    fail(file, robot->GetLineNum(), "<robot>", "at least one <link>", "none");
  if (roots != 1)
    fail(file, robot->GetLineNum(), "<robot>", "exactly one root link (a link without a parent)",
         std::to_string(roots) + " roots");
  for (const auto* e : loops) p.loops.push_back(parse_loop(e, file, p.link_line));
  return p;
}

}  // namespace moreau::urdf_detail
