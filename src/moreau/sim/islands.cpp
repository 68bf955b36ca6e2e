#include "moreau/sim/islands.hpp"

#include <algorithm>

namespace moreau {

int Islands::find(int i) {
  while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
  return i;
}

void Islands::split(const Problem& p) {
  const int nb = p.num_bodies, nk = p.num_blocks();
  parent_.resize(nb);
  for (int i = 0; i < nb; ++i) parent_[i] = i;
  for (const ConstraintBlock& b : p.blocks)
    if (b.body[0] >= 0 && b.body[1] >= 0) {
      const int r0 = find(b.body[0]), r1 = find(b.body[1]);
      if (r0 != r1) parent_[std::max(r0, r1)] = std::min(r0, r1);
    }
  island_of_body_.assign(nb, -1);
  island_of_block_.resize(nk);
  count_.clear();
  for (int k = 0; k < nk; ++k) {
    const ConstraintBlock& b = p.blocks[k];
    const int body = b.body[0] >= 0 ? b.body[0] : b.body[1];
    if (body < 0) {  // a row on no body: an island of its own
      island_of_block_[k] = static_cast<int>(count_.size());
      count_.push_back(1);
      continue;
    }
    int& isl = island_of_body_[find(body)];
    if (isl < 0) {
      isl = static_cast<int>(count_.size());
      count_.push_back(0);
    }
    island_of_block_[k] = isl;
    ++count_[isl];
  }
  const int ni = static_cast<int>(count_.size());
  first_.resize(ni + 1);
  first_[0] = 0;
  for (int i = 0; i < ni; ++i) first_[i + 1] = first_[i] + count_[i];
  order_.resize(nk);
  for (int i = 0; i < ni; ++i) count_[i] = first_[i];  // next free slot per island
  for (int k = 0; k < nk; ++k) order_[count_[island_of_block_[k]]++] = k;
}

void Islands::extract(const Problem& p, int k, Problem& out) const {
  const int b0 = first_[k], b1 = first_[k + 1], nk = b1 - b0;
  local_.resize(p.num_blocks());
  island_sizes_.resize(nk);
  out.dt = p.dt;
  out.num_bodies = p.num_bodies;
  out.blocks.resize(nk);
  int n = 0;
  for (int i = 0; i < nk; ++i) {
    const int g = order_[b0 + i];
    local_[g] = i;
    out.blocks[i] = p.blocks[g];
    out.blocks[i].offset = n;
    island_sizes_[i] = p.blocks[g].size;
    n += p.blocks[g].size;
  }
  out.nl = n;
  gather(p, k, p.v_f, out.v_f);
  // D restricted to the island: every entry of an island's block row lies in the island, and the
  // local order keeps p's column order.
  out.D.begin(island_sizes_.data(), nk);
  for (int i = 0; i < nk; ++i) {
    const int g = order_[b0 + i];
    for (int e = p.D.row_start(g); e < p.D.row_start(g + 1); ++e)
      out.D.push_entry(i, local_[p.D.entry_col(e)]);
  }
  out.D.finalize();
  int e_out = 0;
  for (int i = 0; i < nk; ++i) {
    const int g = order_[b0 + i];
    for (int e = p.D.row_start(g); e < p.D.row_start(g + 1); ++e)
      out.D.entry(e_out++) = p.D.entry(e);
  }
  out.has_dense = false;
  out.R.resize(0);
  out.v_r.resize(0);
}

void Islands::gather(const Problem& p, int k, const VecCRef& x, GrowVec& x_k) const {
  int n = 0;
  for (int i = first_[k]; i < first_[k + 1]; ++i) n += p.blocks[order_[i]].size;
  x_k.resize(n);
  n = 0;
  for (int i = first_[k]; i < first_[k + 1]; ++i) {
    const ConstraintBlock& b = p.blocks[order_[i]];
    x_k.segment(n, b.size) = x.segment(b.offset, b.size);
    n += b.size;
  }
}

void Islands::scatter(const Problem& p, int k, const VecCRef& x_k, VecRef x) const {
  int n = 0;
  for (int i = first_[k]; i < first_[k + 1]; ++i) {
    const ConstraintBlock& b = p.blocks[order_[i]];
    x.segment(b.offset, b.size) = x_k.segment(n, b.size);
    n += b.size;
  }
}

}  // namespace moreau
