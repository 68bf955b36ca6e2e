#include "moreau/sim/open_contacts.hpp"

namespace moreau {

int OpenContacts::choose(const Problem& p, const VecCRef& warm) {
  const int nk = p.num_blocks();
  aside_.assign(nk, 0);
  int n = 0;
  for (int k = 0; k < nk; ++k) {
    const ConstraintBlock& b = p.blocks[k];
    if (b.kind != RowKind::Contact) continue;
    const bool impulse = warm.size() == p.nl && warm[b.offset + 2] != 0.0;
    if (!impulse && p.v_f[b.offset + 2] > 0.0) aside_[k] = 1, ++n;
  }
  return n;
}

int OpenContacts::take_back(const Problem& p, const VecCRef& v, double tol) {
  int n = 0;
  for (int k = 0; k < p.num_blocks(); ++k)
    if (aside_[k] && v[p.blocks[k].offset + 2] < -tol) aside_[k] = 0, ++n;
  return n;
}

void OpenContacts::extract(const Problem& p, Problem& out) {
  const int nk = p.num_blocks();
  local_.resize(nk);
  sizes_.clear();
  out.dt = p.dt;
  out.num_bodies = p.num_bodies;
  out.blocks.clear();
  int n = 0;
  for (int k = 0; k < nk; ++k) {
    if (aside_[k]) {
      local_[k] = -1;
      continue;
    }
    local_[k] = static_cast<int>(out.blocks.size());
    out.blocks.push_back(p.blocks[k]);
    out.blocks.back().offset = n;
    sizes_.push_back(p.blocks[k].size);
    n += p.blocks[k].size;
  }
  out.nl = n;
  gather(p, p.v_f, out.v_f);
  // D restricted to the kept blocks, p's column order within each block row.
  out.D.begin(sizes_.data(), static_cast<int>(sizes_.size()));
  for (int k = 0; k < nk; ++k) {
    if (local_[k] < 0) continue;
    for (int e = p.D.row_start(k); e < p.D.row_start(k + 1); ++e)
      if (local_[p.D.entry_col(e)] >= 0) out.D.push_entry(local_[k], local_[p.D.entry_col(e)]);
  }
  out.D.finalize();
  int e_out = 0;
  for (int k = 0; k < nk; ++k) {
    if (local_[k] < 0) continue;
    for (int e = p.D.row_start(k); e < p.D.row_start(k + 1); ++e)
      if (local_[p.D.entry_col(e)] >= 0) out.D.entry(e_out++) = p.D.entry(e);
  }
  out.has_dense = false;
  out.R.resize(0);
  out.v_r.resize(0);
}

void OpenContacts::gather(const Problem& p, const VecCRef& x, GrowVec& kept) const {
  int n = 0;
  for (int k = 0; k < p.num_blocks(); ++k) n += aside_[k] ? 0 : p.blocks[k].size;
  kept.resize(n);
  n = 0;
  for (int k = 0; k < p.num_blocks(); ++k) {
    if (aside_[k]) continue;
    const ConstraintBlock& b = p.blocks[k];
    kept.segment(n, b.size) = x.segment(b.offset, b.size);
    n += b.size;
  }
}

void OpenContacts::scatter(const Problem& p, const VecCRef& kept, VecRef x) const {
  int n = 0;
  for (int k = 0; k < p.num_blocks(); ++k) {
    const ConstraintBlock& b = p.blocks[k];
    if (aside_[k]) {
      x.segment(b.offset, b.size).setZero();
      continue;
    }
    x.segment(b.offset, b.size) = kept.segment(n, b.size);
    n += b.size;
  }
}

void OpenContacts::scatter_kept(const Problem& p, const VecCRef& kept, VecRef y) const {
  int n = 0;
  for (int k = 0; k < p.num_blocks(); ++k) {
    if (aside_[k]) continue;
    const ConstraintBlock& b = p.blocks[k];
    y.segment(b.offset, b.size) = kept.segment(n, b.size);
    n += b.size;
  }
}

}  // namespace moreau
