#pragma once
// SimSettings: what a scene asks of the simulator (time step, solver and its settings,
// integrator, dynamics and collision settings). A small header, so that scene files (io/) and
// built-in scenes hold settings without including the Simulator (docs/design.md).
#include <cstdint>
#include <string>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/settings.hpp"
#include "moreau/nmdp/settings.hpp"
#include "moreau/solvers/solver_settings.hpp"

namespace moreau {

enum class Integrator : uint8_t {
  SemiImplicitEuler,  // u+ from the NCP at s, then s+ = s [+] dt u+ (eq. 9-10)
  MoreauMidpoint,     // s_m = s [+] dt/2 u-, NCP at s_m, s+ = s_m [+] dt/2 u+
  // The theta-method of Castro et al. 2023 (Sec. II-C, eq. 6-18), solver "sap" only: the
  // free motion with joint springs and dampers linearized into A = M + dt^2 theta theta_vq K +
  // dt theta D (eq. 15), contacts at s, then s+ = s [+] dt (theta_vq u+ + (1 - theta_vq) u-).
  SapSymplecticEuler,  // theta = 0, theta_vq = 1
  SapImplicitEuler,    // theta = theta_vq = 1
  SapMidpoint,         // theta = theta_vq = 1/2: second order (Sec. VI-B)
  // Pan & Hauser 2021 in generalized coordinates, without the NCP solver (docs/integrators.md):
  Mdp,     // NE-MDP: forward Euler, one convex QP in the polytope weights
  Nmdp,    // NE-NMDP: backward Euler, first-order PGM (Alg. 1) with step halving (Alg. 2)
  NmdpZo,  // NE-ZONMDP: as Nmdp with the zeroth-order Jacobian (eq. 10-11)
};
// True for the integrators that bypass the NCP solver (mdp, nmdp, nmdp-zo).
inline bool is_nmdp(Integrator i) {
  return i == Integrator::Mdp || i == Integrator::Nmdp || i == Integrator::NmdpZo;
}
const char* integrator_name(Integrator i);
bool parse_integrator(const std::string& s, Integrator* out);
// Every accepted name, for messages: "semi-implicit-euler, moreau-midpoint, ...".
const char* integrator_names();
// Whether the integrator is one of the theta-methods that need the solver "sap"; then theta and
// theta_vq receive its parameters (eq. 6).
bool integrator_theta(Integrator i, double* theta = nullptr, double* theta_vq = nullptr);
// Empty when the integrator can run with the solver; otherwise why not (a theta-method
// integrator with a solver other than "sap").
std::string integrator_solver_error(Integrator i, const std::string& solver);

struct SimSettings {
  double dt = 1e-3;  // time step [s]
  std::string solver =
      "admm-ncp-sa";  // registry name: the default is the most robust of the measured solvers
  SolverSettings solver_settings;
  Integrator integrator = Integrator::SemiImplicitEuler;
  DynamicsSettings dynamics;
  CollisionSettings collision;
  nmdp::NmdpSettings nmdp;  // contact model and PGM settings of mdp, nmdp, nmdp-zo
  bool warm_start = true;   // reuse the previous step's impulses by persistent constraint id
  // Fast path (docs/performance.md, "The fast path"): solve the limit and contact rows on the
  // Schur complement of the joint rows (sim/joint_schur.hpp) and expand the answer to the full
  // impulse, judged by the full problem's natural map. NCP solvers other than sap; a CCP solver
  // (solves_ccp) or a Problem with softening goes full. On by default
  // (off: `moreau simulate --no-fast-path`, Python fast_path=False); `moreau bench` records its
  // samples and `moreau experiment` runs its solvers on the full solve; the papers' scenes
  // (ball-stack, balls-in-cube, painleve, point-mass, spring-cylinder, clutter) set it off to
  // solve with the paper's solver.
  bool fast_path = true;
  // The fast path's first attempt on the reduced NCP: nsn (semismooth Newton, solvers/nsn.hpp)
  // from the warm start, at most this many iterations at the step's tol; where it does not
  // converge, the step's solver takes over from nsn's best iterate. Before it, a warm start that
  // meets tol is the answer (docs/performance.md, "A warm start that answers the step"). 0: the
  // step's solver alone (and no warm answer).
  int fast_path_newton = 50;
  // Contacts opening without an impulse (a free normal velocity, the gap's bias g / dt included,
  // above zero and none in the warm start: most of a robot's contacts within the collision
  // margin) are set aside: the rest is solved, and the answer stands, with no impulse on them,
  // where the full problem's natural map meets tol; otherwise those it lets close are taken back
  // and it is solved again, and then the whole problem (sim/open_contacts.hpp).
  bool fast_path_set_aside_open = true;
  // Where nsn from the warm start does not converge on a reduced NCP of at most this many rows,
  // nsn once more from zero before the step's solver: a warm start from a step whose contacts
  // and limits differed can mislead Newton where zero does not (docs/performance.md). Above it
  // a cold Newton solve costs more than the step's solver. 0: no cold retry.
  int fast_path_cold_rows = 48;
  // Where all of the above leave a reduced NCP (joint rows eliminated) of at most
  // fast_path_rescue_rows rows above tol,
  // nsn from zero with up to this many iterations; then from zero with its proximal term 100x
  // smaller, its block scale 10x larger, the term 100x larger, the scale 10x smaller, the term
  // 1e4x larger (a third of this each); then the step's solver on from its answer with 10x its
  // max_iters. Stick-slip
  // transitions of redundant contacts (a foot's four corners) stall nsn near 1e-8 for hundreds of
  // iterations, and which variant gets out first varies from step to step (docs/performance.md,
  // "The rescue"). 0: none.
  int fast_path_rescue = 1000;
  int fast_path_rescue_rows = 192;
  // Where the islands' answer misses tol (an island's solvers, the rescue included, stopped above
  // it, or the expansion of converged islands misses it) on a Problem with joint rows of at most
  // fast_path_full_newton_rows rows, nsn on the whole Problem (joint rows included) from that
  // answer, then from zero, then from the warm start, up to this many iterations each: a
  // mechanism's stick-slip step that the reduced problems' solvers leave at 1e-7 (walker, t = 4.79
  // s: nsn on its 231 rows converges where the rescue did not; docs/performance.md, "Newton on the
  // whole problem"). 0: none.
  int fast_path_full_newton = 100;
  int fast_path_full_newton_rows = 320;
  // nsn's proximal term (NsnSettings::prox, at least this) on an island past the elimination's
  // size, solved with nsn's sparse Newton system: a pile. Its redundant contacts keep nsn cycling
  // with the default 1e-8 (sphere-pile's first second, without the pile rescue below: 155 ms per
  // step and 8 steps unconverged; with 1e-4, 76 to 82 ms and 1; docs/performance.md, "Piles").
  double fast_path_pile_prox = 1e-4;
  // Where nsn, the step's solver, its polish and nsn from zero all stopped above tol on such an
  // island, nsn from the step's warm start with 10x the proximal term (FastPath::kPileStiffIters
  // iterations), then on from the best iterate with up to this many iterations (sphere-pile, 10 s:
  // 36 steps unconverged without, 8 with 200, 0 with 1000; docs/performance.md, "Piles"). 0: no
  // rescue, neither try.
  int fast_path_pile_rescue = 1000;
};

}  // namespace moreau
