#include "moreau/viewer/recording.hpp"

namespace moreau::viewer {

void Recording::add_frame(const State& s) {
  t.push_back(s.t);
  for (int b = 0; b < num_bodies; ++b) {
    const double p[7] = {s.r[b].x(), s.r[b].y(), s.r[b].z(), s.q[b].w(),
                         s.q[b].x(), s.q[b].y(), s.q[b].z()};
    pose.insert(pose.end(), p, p + 7);
  }
  if (contact_begin.empty()) contact_begin.push_back(0);
  contact_begin.push_back(contact_begin.back());
}

void Recording::add_frame(double time, const double* pose7) {
  t.push_back(time);
  pose.insert(pose.end(), pose7, pose7 + 7 * num_bodies);
  if (contact_begin.empty()) contact_begin.push_back(0);
  contact_begin.push_back(contact_begin.back());
}

void Recording::add_contact(const Vec3& point, const Vec3& force) {
  const float c[6] = {float(point.x()), float(point.y()), float(point.z()),
                      float(force.x()), float(force.y()), float(force.z())};
  contacts.insert(contacts.end(), c, c + 6);
  ++contact_begin.back();
}

void contact_forces(const std::vector<Contact>& contacts, const Problem& problem,
                    const Solution& solution, std::vector<Vec3>& force) {
  force.assign(contacts.size(), Vec3::Zero());
  const bool have_impulses = solution.lambda.size() == problem.nl && problem.dt > 0.0;
  if (have_impulses)
    for (const ConstraintBlock& b : problem.blocks) {
      if (b.kind != RowKind::Contact || b.source < 0 || b.source >= int(contacts.size())) continue;
      const Vec3 lambda(solution.lambda[b.offset], solution.lambda[b.offset + 1],
                        solution.lambda[b.offset + 2]);
      force[b.source] = contacts[b.source].frame * lambda / problem.dt;
    }
}

void add_step_contacts(Recording& rec, const std::vector<Contact>& contacts, const Problem& problem,
                       const Solution& solution) {
  static thread_local std::vector<Vec3> force;  // reused across steps
  contact_forces(contacts, problem, solution, force);
  for (size_t i = 0; i < contacts.size(); ++i) rec.add_contact(contacts[i].point, force[i]);
}

}  // namespace moreau::viewer
