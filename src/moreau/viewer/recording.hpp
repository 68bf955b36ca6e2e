#pragma once
// A trajectory as the viewer draws it (docs/viewer.md): per frame the time, every body's pose and,
// when recorded, the contact points with the contact force of the step that led to the frame.
#include <cstdint>
#include <vector>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/problem.hpp"
#include "moreau/model/state.hpp"
#include "moreau/solvers/solution.hpp"

namespace moreau::viewer {

struct Recording {
  int num_bodies = 0;
  bool has_contacts = false;
  std::vector<double> t;                // per frame [s]
  std::vector<float> pose;              // per frame and body: x, y, z, qw, qx, qy, qz
  std::vector<uint32_t> contact_begin;  // frame f's contacts are [begin[f], begin[f + 1])
  std::vector<float> contacts;          // per contact: point (x, y, z), force (x, y, z)

  Recording() = default;
  Recording(int bodies, bool with_contacts)
      : num_bodies(bodies), has_contacts(with_contacts), contact_begin{0} {}
  int frames() const { return static_cast<int>(t.size()); }
  int num_contacts() const { return static_cast<int>(contacts.size() / 6); }
  // Appends a frame with the state's poses (and no contacts yet).
  void add_frame(const State& s);
  // Appends a frame from raw numbers: body b's pose is pose7[7 b .. 7 b + 6].
  void add_frame(double time, const double* pose7);
  // Adds a contact to the last frame: the point on body A and the force on body B, world frame.
  void add_contact(const Vec3& point, const Vec3& force);
};

// The force of each contact of the step just taken on its body B, world frame: R_c lambda / dt
// (eq. 34: R_c = [t, o, n], lambda the contact impulse in that frame). Contacts whose impulse is
// not in the solution (sizes differ) get a zero force. `force` is resized to contacts.size().
void contact_forces(const std::vector<Contact>& contacts, const Problem& problem,
                    const Solution& solution, std::vector<Vec3>& force);

// Adds the contacts of the step just taken to the last frame: the point r_A of each contact and
// the force R_c lambda / dt on body B (eq. 34: R_c = [t, o, n], lambda the contact impulse in
// that frame). Contacts whose impulse is not in the solution (sizes differ) get a zero force.
void add_step_contacts(Recording& rec, const std::vector<Contact>& contacts, const Problem& problem,
                       const Solution& solution);

}  // namespace moreau::viewer
