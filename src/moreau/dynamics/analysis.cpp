#include "moreau/dynamics/analysis.hpp"

#include "moreau/dynamics/builder.hpp"

namespace moreau {

namespace {
JointSummary summarize_joint(const Model& m, const Joint& j) {
  JointSummary js;
  js.name = j.name;
  js.type = joint_type_name(j.type);
  js.base = m.body_name(j.base);
  js.follower = m.body_name(j.follower);
  js.rows = j.rows();
  js.dofs = j.dofs();
  for (int k = 0; k < j.dofs(); ++k) {
    js.actuated_dofs += j.actuators[k].mode != ActuationMode::Passive;
    js.limited_dofs += j.limits[k].enabled();
  }
  return js;
}
}  // namespace

ModelSummary summarize_model(const Model& m, const State& s) {
  ModelSummary out;
  out.name = m.name();
  out.bodies = m.num_bodies();
  out.joints = m.num_joints();
  out.constraint_rows = m.joint_rows();
  out.rank_J = out.constraint_rows > 0 ? numerical_rank(joint_jacobian(m, s)) : 0;
  out.redundant_rows = out.constraint_rows - out.rank_J;
  out.dofs = 6 * out.bodies - out.rank_J;
  out.mass_ratio = out.bodies > 0 ? m.mass_ratio() : 0.0;
  out.total_mass = m.total_mass();
  for (int b = 0; b < m.num_bodies(); ++b) {
    const Body& body = m.bodies()[b];
    out.body_list.push_back({body.name, body.mass, body.inertia.diagonal(),
                             static_cast<int>(m.body_geometries(b).size())});
  }
  for (const Joint& j : m.joints()) {
    const JointSummary js = summarize_joint(m, j);
    ++out.joint_types[static_cast<int>(j.type)];
    (j.unary() ? out.unary_joints : out.binary_joints) += 1;
    out.joint_dofs += js.dofs;
    out.actuated_dofs += js.actuated_dofs;
    out.limited_dofs += js.limited_dofs;
    if (js.actuated_dofs == 0)
      out.passive_dofs += js.dofs;  // convention: whole unactuated joints only
    out.joint_list.push_back(js);
  }
  out.geometries = static_cast<int>(m.geometries().size());
  for (const Geometry& g : m.geometries()) ++out.geometry_types[static_cast<int>(g.type)];
  return out;
}

}  // namespace moreau
