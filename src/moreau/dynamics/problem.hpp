#pragma once
// The Problem of one time step (design sketch): the dual view (Delassus D, free velocity v_f,
// one cone per block) and the primal view (M, J, u^-, generalized force h). A solver is a
// function of it.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "moreau/dynamics/block_sparse.hpp"

namespace moreau {

enum class RowKind : uint8_t { Joint, Limit, Contact };
enum class ConeKind : uint8_t {
  Free,     // R^m: bilateral joint rows
  Orthant,  // R_+: one limit row
  Coulomb,  // K_mu, 3 rows [t, o, n] (eq. 45)
  Box,      // [-bound, bound]: one joint dry-friction row (docs/dynamics.md, "Joint friction")
};
const char* row_kind_name(RowKind k);

// Rows of J for one body, top `size` rows used.
using JacobianBlock = Eigen::Matrix<double, 6, 6, Eigen::RowMajor>;

struct ConstraintBlock {
  RowKind kind = RowKind::Joint;
  ConeKind cone = ConeKind::Free;
  int offset = 0;  // first row in lambda / v
  int size = 0;    // rows: m_j + rotor_rows (joint), 1 (limit), 3 (contact)
  // joints: the last rotor_rows rows hold the DoFs' armature (compliant, no position term;
  // docs/dynamics.md, "Armature and damping rows"); the first size - rotor_rows are holonomic.
  int rotor_rows = 0;
  int body[2] = {-1, -1};    // bodies with non-zero Jacobian blocks; -1 = none (world)
  JacobianBlock J[2];        // J rows for body[0], body[1]
  double mu = 0.0;           // contacts: friction coefficient
  double restitution = 0.0;  // contacts: Newton restitution
  // contacts: SAP's compliance from the materials (Castro et al. 2023, Sec. V): stiffness k
  // [N/m] (inf: unset, the solver's default) and dissipation time scale tau_d [s] (NaN: unset).
  double stiffness = std::numeric_limits<double>::infinity();
  double tau_d = std::numeric_limits<double>::quiet_NaN();
  uint64_t id = 0;     // persistent id (warm start): see dynamics/ids.hpp
  int source = -1;     // joint index (joints, limits) or contact index (contacts)
  int dof = -1;        // limits: DoF index within the joint
  double bound = 0.0;  // Box: the impulse's bound, |lambda| <= bound [N s or N m s]
};

struct Problem {
  double dt = 0.0;  // time step [s]
  int num_bodies = 0;
  int nl = 0;  // total rows n_lambda
  // joints, then limits (joint limits and joint dry friction), then contacts (eq. 67)
  std::vector<ConstraintBlock> blocks;

  // Primal view (block-diagonal in bodies).
  std::vector<Mat6> M;     // body mass matrices in world frame (eq. 57-58)
  std::vector<Mat6> Minv;  // their inverses
  VecX u_minus;            // u^-, 6 nb
  // h = w_gc + w_e + J_a^T tau (eq. 72), 6 nb: the report's h, not a time step (that is dt).
  VecX generalized_force;
  VecX u_free;  // u^- + dt M^-1 h, 6 nb

  // Dual view.
  BlockSparse D;    // Delassus J M^-1 J^T (eq. 11)
  GrowMat D_dense;  // the same, dense; filled only when has_dense (nl <= dense_limit and the
                    // simulating solver reads it: SolverInfo::reads_dense)
  bool has_dense = false;
  // The nl-sized members keep their capacity across steps (math/growable.hpp).
  GrowVec v_f;      // free velocity J u_free + E v^- + v_B (eq. 94), nl
  GrowVec v_minus;  // J u^-, nl (restitution, metrics)
  GrowVec f;        // configuration residual per row: f_J, g_L, gap (eq. 84), nl
  GrowVec R;        // softening compliance diag (eq. 106); empty = hard constraints
  GrowVec v_r;      // softening regulation bias (eq. 106), folded into v_f; empty if none

  int num_blocks() const { return static_cast<int>(blocks.size()); }
  int count(RowKind k) const;
  int rows_of(RowKind k) const;
  // u^+ = u_free + M^-1 J^T lambda (eq. 76); u_plus must have 6 nb entries.
  void velocity_from_impulse(const VecCRef& lambda, VecX& u_plus) const;
  // v = J u (nl), and out += J^T lam (6 nb).
  void apply_J(const VecCRef& u, VecRef v) const;
  void apply_JT_add(const VecCRef& lam, VecRef out) const;
  // Checks sizes, finiteness and cone data; returns an empty string when valid.
  std::string validate() const;
};

}  // namespace moreau
