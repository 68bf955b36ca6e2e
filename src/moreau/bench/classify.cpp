// Sample categories (report Sec. VII-C): counts, constraint densities d_J, d_C, d_JC, rank of J
// measured as the numerical rank of D = J M^-1 J^T (same rank as J, M SPD), a condition estimate.
#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/bench/bench.hpp"
#include "moreau/bench/core_spectrum.hpp"

namespace moreau::bench {

const char* category_name(Category c) {
  switch (c) {
    case Category::IndependentJoints:
      return "independent-joints";
    case Category::RedundantJoints:
      return "redundant-joints";
    case Category::DenseJoints:
      return "dense-joints";
    case Category::DenseConstraints:
      return "dense-constraints";
    case Category::SingleContact:
      return "single-contact";
    case Category::SparseContacts:
      return "sparse-contacts";
    case Category::DenseContacts:
      return "dense-contacts";
    case Category::Unconstrained:
      return "unconstrained";
  }
  return "?";
}

namespace {

// max / min mass (M_b(0,0)) over the bodies some constraint block touches; 0 when none.
double touched_mass_ratio(const Problem& p) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const ConstraintBlock& b : p.blocks)
    for (int s = 0; s < 2; ++s) {
      const int i = b.body[s];
      if (i < 0 || i >= static_cast<int>(p.M.size())) continue;
      lo = std::min(lo, p.M[i](0, 0));
      hi = std::max(hi, p.M[i](0, 0));
    }
  return hi > 0.0 ? hi / lo : 0.0;
}

// First matching rule in the order of the enum (report Sec. VII-C; Dense Constraints moved before
// the contact rules so that joints + many contacts are not hidden among the contact categories).
// Without body information (FCLib: num_bodies = 0) only contacts classify: 1 contact is single;
// otherwise rank-deficient D (3 n_c > rank, the symptom of d_C > 1) is dense, else sparse.
Category categorize(const SampleInfo& s) {
  const int nj = s.joint_blocks, nc = s.contacts;
  if (s.nl == 0) return Category::Unconstrained;
  if (nc == 0 && nj >= 1) {
    if (s.rank_J >= s.nl) return Category::IndependentJoints;
    return s.d_J < 1.0 ? Category::RedundantJoints : Category::DenseJoints;
  }
  if (s.bodies > 0 && nj >= 1 && nc >= 1 && s.d_JC > 1.0) return Category::DenseConstraints;
  if (nc == 1) return Category::SingleContact;
  if (s.bodies == 0) return s.rank_J < s.nl ? Category::DenseContacts : Category::SparseContacts;
  if (nc >= 2 && nc <= 2 * s.bodies) return Category::SparseContacts;
  if (nc > 2 * s.bodies) return Category::DenseContacts;
  // Limits only (n_j = n_c = 0 cannot carry limits; kept total): sparse.
  return Category::SparseContacts;
}

}  // namespace

SampleInfo classify(const Problem& p) {
  SampleInfo s;
  s.bodies = p.num_bodies;
  s.joint_blocks = p.count(RowKind::Joint);
  s.limit_rows = p.rows_of(RowKind::Limit);
  s.contacts = p.count(RowKind::Contact);
  s.nl = p.nl;
  // m_J counts the holonomic rows: a joint's armature rows (compliant, docs/dynamics.md) are
  // neither constraints of the report's categories nor redundant.
  int rotor = 0;
  for (const ConstraintBlock& b : p.blocks) rotor += b.rotor_rows;
  s.joint_rows = p.rows_of(RowKind::Joint) - rotor;
  const double dofs = 6.0 * s.bodies;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.d_J = s.bodies > 0 ? s.joint_rows / dofs : nan;      // d_J = m_J / (6 n_b)
  s.d_C = s.bodies > 0 ? 3.0 * s.contacts / dofs : nan;  // d_C = 3 n_c / (6 n_b)
  s.d_JC = s.bodies > 0 ? (s.nl - rotor) / dofs : nan;   // d_JC = n_lambda / (6 n_b)
  s.mass_ratio = touched_mass_ratio(p);
  if (p.nl > 0) {
    MatX D;
    if (p.has_dense && p.D_dense.rows() == p.nl)
      D = p.D_dense;
    else
      p.D.to_dense(D);
    const Spectrum sp = delassus_spectrum(D, p.R);
    s.rank_J = sp.rank;
    s.cond_D = sp.cond;
  }
  s.category = categorize(s);
  return s;
}

}  // namespace moreau::bench
