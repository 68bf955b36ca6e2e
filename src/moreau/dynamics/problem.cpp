#include "moreau/dynamics/problem.hpp"

#include <cmath>

namespace moreau {

const char* row_kind_name(RowKind k) {
  switch (k) {
    case RowKind::Joint:
      return "joint";
    case RowKind::Limit:
      return "limit";
    case RowKind::Contact:
      return "contact";
  }
  return "?";
}

int Problem::count(RowKind k) const {
  int n = 0;
  for (const ConstraintBlock& b : blocks) n += b.kind == k;
  return n;
}

int Problem::rows_of(RowKind k) const {
  int n = 0;
  for (const ConstraintBlock& b : blocks)
    if (b.kind == k) n += b.size;
  return n;
}

void Problem::apply_J(const VecCRef& u, VecRef v) const {
  for (const ConstraintBlock& b : blocks) {
    auto vb = v.segment(b.offset, b.size);
    vb.setZero();
    for (int s = 0; s < 2; ++s)
      if (b.body[s] >= 0) vb.noalias() += b.J[s].topRows(b.size) * u.segment<6>(6 * b.body[s]);
  }
}

void Problem::apply_JT_add(const VecCRef& lam, VecRef out) const {
  for (const ConstraintBlock& b : blocks)
    for (int s = 0; s < 2; ++s)
      if (b.body[s] >= 0)
        out.segment<6>(6 * b.body[s]).noalias() +=
            b.J[s].topRows(b.size).transpose() * lam.segment(b.offset, b.size);
}

void Problem::velocity_from_impulse(const VecCRef& lambda, VecX& u_plus) const {
  // u^+ = u_free + M^-1 J^T lambda, body by body (M block-diagonal).
  for (int i = 0; i < num_bodies; ++i) u_plus.segment<6>(6 * i).setZero();
  apply_JT_add(lambda, u_plus);
  for (int i = 0; i < num_bodies; ++i) {
    const Vec6 w = u_plus.segment<6>(6 * i);
    u_plus.segment<6>(6 * i) = u_free.segment<6>(6 * i) + Minv[i] * w;
  }
}

std::string Problem::validate() const {
  if (nl < 0 || v_f.size() != nl)
    return "v_f has " + std::to_string(v_f.size()) +
           " entries, expected nl = " + std::to_string(nl);
  if (D.rows() != nl)
    return "D has " + std::to_string(D.rows()) + " rows, expected nl = " + std::to_string(nl);
  int rows = 0;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const ConstraintBlock& b = blocks[i];
    if (b.offset != rows)
      return "block " + std::to_string(i) + " starts at row " + std::to_string(b.offset) +
             ", expected " + std::to_string(rows);
    if (b.cone == ConeKind::Coulomb && (b.size != 3 || !std::isfinite(b.mu) || b.mu < 0.0))
      return "contact block " + std::to_string(i) +
             ": expected 3 rows and a finite friction coefficient >= 0";
    if (b.cone == ConeKind::Orthant && b.size != 1)
      return "limit block " + std::to_string(i) + ": expected 1 row";
    if (b.cone == ConeKind::Box && (b.size != 1 || !std::isfinite(b.bound) || b.bound < 0.0))
      return "friction block " + std::to_string(i) + ": expected 1 row and a finite bound >= 0";
    rows += b.size;
  }
  if (rows != nl)
    return "blocks cover " + std::to_string(rows) + " rows, expected nl = " + std::to_string(nl);
  if (!v_f.allFinite()) return "v_f has non-finite entries";
  if (!D.all_finite()) return "D has non-finite entries";
  if (R.size() != 0 && (R.size() != nl || !R.allFinite()))
    return "R must be empty or nl finite entries";
  return {};
}

}  // namespace moreau
