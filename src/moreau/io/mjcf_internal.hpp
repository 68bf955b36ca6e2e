#pragma once
// Internals of the MJCF importer: the parse context shared by mjcf_parse.cpp (document level),
// mjcf_defaults.cpp (default classes, attributes, frames) and mjcf_body.cpp (bodies, joints,
// geoms, inertia).
#include <tinyxml2.h>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "moreau/io/urdf_mjcf.hpp"

namespace moreau::mjcf {

using Element = tinyxml2::XMLElement;
using AttrMap = std::map<std::string, std::string>;

struct DefaultClass {
  std::map<std::string, AttrMap> tags;  // element tag -> attribute -> value (inherited resolved)
};

struct MeshAsset {
  std::string file;  // resolved path
  Vec3 scale = Vec3::Ones();
  int line = 0;
  // The hull re-centred and aligned with its principal axes, and that frame in the mesh's, once
  // the first geom using the asset has loaded it (a robot's visual and collision geoms share
  // their meshes: the G1 29 loads in 1.2 s instead of 1.8, the H1 in 0.75 instead of 1.27).
  std::shared_ptr<const MeshData> hull;
  Pose frame;
};

// An MJCF joint and where its coordinate lives.
struct JointRef {
  int link = -1;
  int source = -1;  // index in the link's sources
  int dof = -1;     // moreau DoF of the link joint, -1 for ball/free
  double sign = 1.0;
  double gear_scale = 1.0;
};

struct Actuator {
  std::string name;
  int line = 0;
  int link = -1, dof = -1;
  std::string kind;  // motor, position, velocity, general
  double gear = 1.0, kp = 0.0, kv = 0.0;
  // general: force = gain ctrl + bias[0] + bias[1] length + bias[2] velocity (MuJoCo's gaintype
  // "fixed", biastype "none" or "affine"; length = gear q).
  double gain = 1.0;
  std::array<double, 3> bias{0.0, 0.0, 0.0};
  double offset = 0.0;  // sign * ref of the joint: moreau's q is sign (qpos - ref)
  bool ctrllimited = false, forcelimited = false;
  double ctrl_lo = 0.0, ctrl_hi = 0.0, force_lo = 0.0, force_hi = 0.0;
};

// A document with its <include> elements expanded (mjcf_include.cpp): the text, and for each of
// its lines the file (index into files, 0 = the main file) and line it came from.
struct ExpandedXml {
  std::string text;
  std::vector<std::string> files;
  std::vector<std::pair<int, int>> origin;
  std::pair<std::string, int> where(int line) const;
};
// Throws ErrorException naming the including file and line for a missing file or a cycle.
ExpandedXml expand_includes(const std::string& xml, const std::string& file,
                            const std::string& dir);

struct Context {
  std::string file, dir;
  const ExpandedXml* expanded = nullptr;  // maps lines back to included files
  const ImportOptions* opt = nullptr;
  // <compiler>
  bool degrees = true;
  std::string eulerseq = "xyz";
  std::string meshdir, texturedir;
  bool meshdir_set = false, texturedir_set = false;
  int inertiafromgeom = -1;  // -1 auto, 0 false, 1 true
  bool autolimits = true;
  std::map<std::string, DefaultClass> classes;  // "main" is the root <default>
  std::map<std::string, MeshAsset> meshes;
  std::map<std::string, std::shared_ptr<const HeightFieldData>> hfields;  // <asset><hfield>
  // Elements and attributes outside the subset: tag (or tag@attribute) -> (count, first line).
  std::map<std::string, std::pair<int, int>> ignored;
  std::vector<std::string> warnings;
  LinkTree tree;
  std::map<std::string, int> body_link;  // body name -> link
  std::map<std::string, JointRef> joints;
  std::vector<JointRef> qpos_order;  // MJCF joints in document order (MuJoCo's qpos layout)
  std::vector<Actuator> actuators;
  int unnamed = 0;

  [[noreturn]] void fail(const Element* e, const std::string& element, const std::string& expected,
                         const std::string& got) const;
  void ignore(const std::string& what, int line);
  void warn(int line, const std::string& message);
  // (file, line) of a line of the parsed document (an included file's for included content).
  std::pair<std::string, int> where(int line) const;
};

// Attribute lookup: the element's own value, else its class's default for this tag.
class Attrs {
 public:
  Attrs(Context& c, const Element* e, const std::string& cls, const std::string& element);
  const char* get(const char* name) const;
  bool has(const char* name) const { return get(name) != nullptr; }
  std::string str(const char* name, const std::string& fallback) const;
  double num(const char* name, double fallback) const;
  // Exactly n numbers (or up to n with `min` required); fallback when absent.
  std::vector<double> nums(const char* name, int min, int max, std::vector<double> fallback) const;
  Vec3 vec3(const char* name, const Vec3& fallback) const;
  int integer(const char* name, int fallback) const;
  bool boolean(const char* name, bool fallback) const;
  // "true"/"false"/"auto" -> 1/0/-1.
  int tristate(const char* name, int fallback) const;
  // Orientation from quat | axisangle | euler | xyaxes | zaxis (at most one), identity if none.
  Quat orientation() const;
  Pose frame() const { return {vec3("pos", Vec3::Zero()), orientation()}; }
  // Warns about attributes that are set but not supported, from a list.
  void ignore_attrs(std::initializer_list<const char*> names) const;
  const Element* e;
  std::string element;
  Context& c;

 private:
  const AttrMap* defaults_;
};

void parse_defaults(Context& c, const Element* root);
// <asset><hfield> (mjcf_hfield.cpp): elevation from a PNG file, inline data, or zeros.
void parse_hfield(Context& c, const Element* e);
// Class of an element: its class attribute, else the enclosing childclass.
std::string class_of(const Element* e, const std::string& childclass);

// Parses <worldbody> into c.tree.
void parse_worldbody(Context& c, const Element* wb);

// Mass properties of a geom in its own frame: volume and inertia per unit density.
struct GeomMass {
  double volume = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia_per_density = Mat3::Zero();  // about com
};
GeomMass geom_mass(const Geometry& g);
// Parses a <geom>: its pose in the body frame, and its mass, CoM and inertia about the CoM in the
// body frame (zero for planes).
Geometry parse_geom(Context& c, const Element* e, const std::string& cls, double* mass, Vec3* com,
                    Mat3* inertia);

// Unit quaternion taking e_z to direction d (MuJoCo's zaxis / fromto frames).
Quat z_to(const Vec3& d);

}  // namespace moreau::mjcf
