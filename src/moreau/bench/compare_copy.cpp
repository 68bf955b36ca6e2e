// `moreau compare`'s copy of an MJCF file for Debian's MuJoCo 2.2.2 (compare_mujoco.hpp).
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "moreau/bench/compare_mujoco.hpp"
#include "moreau/io/mjcf_internal.hpp"
#include "moreau/io/urdf_mjcf_tree.hpp"

namespace moreau::bench {

namespace {

namespace fs = std::filesystem;
using tinyxml2::XMLElement;

// Every element under e, e included.
template <class F>
void each_element(XMLElement* e, F&& f) {
  f(e);
  for (XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) each_element(c, f);
}

std::string absolute_in(const std::string& dir, const char* path) {
  const fs::path p(path ? path : "");
  return (p.is_absolute() ? p : fs::absolute(dir) / p).lexically_normal().string();
}

}  // namespace

Result<MujocoCopy> mujoco22_copy(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Error{file, 0, "model file", "a readable file", "cannot open it"};
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string dir = directory_of(file);
  std::string text = ss.str();
  try {
    if (text.find("<include") != std::string::npos)
      text = mjcf::expand_includes(text, file, dir).text;
  } catch (const ErrorException& e) {
    return e.error;
  }
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS || !doc.RootElement())
    return Error{file, doc.ErrorLineNum(), "XML", "well-formed XML", "a parse error"};
  XMLElement* root = doc.RootElement();
  MujocoCopy out;
  // Asset directories as absolute paths: the copy lives elsewhere.
  if (!root->FirstChildElement("compiler")) root->InsertFirstChild(doc.NewElement("compiler"));
  for (XMLElement* c = root->FirstChildElement("compiler"); c;
       c = c->NextSiblingElement("compiler")) {
    const char* asset = c->Attribute("assetdir");
    for (const char* key : {"meshdir", "texturedir"})
      c->SetAttribute(key, absolute_in(dir, c->Attribute(key) ? c->Attribute(key) : asset).c_str());
    c->DeleteAttribute("assetdir");
    if (!c->Attribute("autolimits")) {
      c->SetAttribute("autolimits", "true");  // MuJoCo 3's default, 2.2.2's "false"
      out.changed.push_back("compiler autolimits=\"true\" (MuJoCo 3's default)");
    }
  }
  int sensors = 0, joint_force_ranges = 0;
  for (XMLElement* s = root->FirstChildElement("sensor"); s;) {
    XMLElement* next = s->NextSiblingElement("sensor");
    root->DeleteChild(s);
    ++sensors;
    s = next;
  }
  each_element(root, [&](XMLElement* e) {
    for (const char* a : {"actuatorfrcrange", "actuatorfrclimited"})
      if (e->Attribute(a)) {
        e->DeleteAttribute(a);
        ++joint_force_ranges;
      }
  });
  if (sensors)
    out.changed.push_back(std::to_string(sensors) +
                          " <sensor> element(s) dropped (they measure, they do not act)");
  if (joint_force_ranges)
    out.changed.push_back(std::to_string(joint_force_ranges) +
                          " joint actuatorfrcrange/actuatorfrclimited attribute(s) dropped (a "
                          "bound on the actuators' force, idle at the keyframe's controls)");
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  out.xml = printer.CStr();
  return out;
}

}  // namespace moreau::bench
