#pragma once
// Settings of the NMDP integrators (Pan & Hauser 2021): `mdp` (the forward-Euler NE-MDP
// baseline), `nmdp` (backward Euler solved by first-order PGM, Alg. 1-2) and `nmdp-zo` (the
// zeroth-order PGM, eq. 10-11), each in the Newton-Euler or the position-based form.
// docs/integrators.md explains each field.
#include <cstdint>
#include <optional>
#include <string>

#include "moreau/model/error.hpp"

namespace moreau::nmdp {

// The form of G in problem (6) (Pan & Hauser 2021): Newton-Euler, G = H theta_ddot + C - ...
// (eq. 1-2), or position-based, G = grad I_alpha - ... with K the integral of eq. 12 (eq. 4).
enum class NmdpForm : uint8_t { NewtonEuler, PositionBased };

// "ne" / "pbd"; parse returns false on an unknown name.
const char* nmdp_form_name(NmdpForm f);
bool parse_nmdp_form(const std::string& name, NmdpForm* f);

// Where a position or stable-PD servo (and damping) is evaluated within a step from
// (q_n, q_dot_n) to (q, q_dot):
//   Implicit  tau = kp (q_ref - q) - kd q_dot: both terms at the step's new state.
//   Tan       tau = kp (q_ref - (q_n + dt q_dot_n)) - kd q_dot: stable PD as Tan, Liu & Turk 2011
//             publish it (the position predicted with the old velocity, the damping on the new
//             velocity); Pan & Hauser 2021 (Sec. VI) name this controller but evaluate it at the
//             new state, as Implicit does ("consistent with the backward-Euler integrator").
//             Unstable for stiff gains: on one DoF it needs 3 dt^2 kp < 4 I + 2 dt kd (Jury's
//             condition, docs/integrators.md).
enum class ServoForm : uint8_t { Implicit, Tan };
// "implicit" / "tan"; parse returns false on an unknown name.
const char* servo_form_name(ServoForm f);
bool parse_servo_form(const std::string& name, ServoForm* f);

// The objective the contact weights minimise (problem (6) of Pan & Hauser 2021):
//   Kinetic      K = 1/2 qd+^T H qd+, the kinetic energy after the step (eq. 6, the paper's).
//   Dissipation  1/2 qd+^T A qd+ with A = H + h Kd + h^2 Kp, the servos' linearized stiffness
//                Kp = -d tau/d q and damping Kd = -d tau/d qd added to H. qd+ moves with the
//                weights through -h A^-1 B (B = dG/dw, Stepper::weight_jacobian), so this
//                objective's gradient in w is -h B^T qd+: the contact points' velocities after
//                the step along the vertex directions, and its optimum is maximal dissipation at
//                the new velocity (Coulomb: a point sticks where the cone allows). K's gradient,
//                -h B^T A^-1 H qd+, is not: with servos a stance foot slides
//                (docs/integrators.md). Without servos or damping A = H: both agree.
enum class NmdpObjective : uint8_t { Kinetic, Dissipation };
// "kinetic" / "dissipation"; parse returns false on an unknown name.
const char* nmdp_objective_name(NmdpObjective o);
bool parse_nmdp_objective(const std::string& name, NmdpObjective* o);

struct NmdpSettings {
  // Form of nmdp and nmdp-zo (mdp is always the explicit Newton-Euler baseline).
  NmdpForm form = NmdpForm::NewtonEuler;
  // Discretization of the servos (position and stable-PD actuators) in all three integrators.
  ServoForm servo = ServoForm::Implicit;
  // What the contact weights minimise in all three integrators.
  NmdpObjective objective = NmdpObjective::Kinetic;
  // Contact stiffness k of the smooth polytope v_x^i = k d^3 (n + mu t^i) (Remark 6) [N/m^3].
  // 0: chosen from the model, k = m g / (expected_contacts delta^3), so that expected_contacts
  // contacts carry the total weight m g at penetration delta (the paper gives no value).
  double k = 0.0;
  double delta = 5e-3;        // allowed penetration for the k rule [m], > 0
  int expected_contacts = 4;  // contacts sharing the weight in the k rule, >= 1
  int directions = 4;         // friction directions t^i per contact (polytope vertices), >= 3
  // Remark 7 workaround of A5.4 for nmdp-zo: v = k (d^3 + zeta delta^3)(n + mu t^i), i.e. zeta is
  // the off-contact force bound relative to the force at depth delta (our reading: the paper adds
  // zeta to d^3 without units). Applied to nmdp-zo only; 0 switches it off.
  double zeta = 1e-3;
  double tol_G = 1e-8;      // projection stops when |G|_inf <= tol_G max(1, |tau|_inf) [N, N m]
  double tol_loop = 1e-10;  // projection stops when also |c|_inf <= tol_loop (loops) [m, rad]
  double epsilon = 1e-6;    // PGM stops when |theta^k - theta^{k-1}|_inf < epsilon (Alg. 1 l. 13)
  double eta = 1.5;         // gamma growth/shrink factor, > 1 (Alg. 1)
  double gamma0 = 1.0;      // initial gamma of the proximal term |dw|^2 / gamma in QP (8), > 0
  int max_outer = 100;      // PGM outer iterations before the step counts as not converged
  int max_projection = 50;  // steps of the projection (9)/(11) per call (ZO converges linearly)
  double min_step = 1e-5;   // Alg. 2: smallest alpha dt [s] before the run fails
  // Contacts are detected once per step (the paper's contact points are fixed within a step) with
  // this margin [m] (or the scene's collision margin when larger), so that points about to touch
  // carry a (zero at first) polytope.
  double contact_margin = 0.02;
};

// Checks ranges; the error names the field ("nmdp.delta") and the expectation.
std::optional<Error> validate(const NmdpSettings& s);

}  // namespace moreau::nmdp
