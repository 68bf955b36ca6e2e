#include "moreau/dynamics/joint_delassus.hpp"

namespace moreau {

bool JointDelassus::factor(const Problem& p, double drop) {
  cur_ = -1;  // no factor until this one succeeds
  kj_ = 0;
  nj_ = 0;
  while (kj_ < p.num_blocks() && p.blocks[kj_].kind == RowKind::Joint) nj_ += p.blocks[kj_++].size;
  if (nj_ == 0) return false;
  for (int k = kj_; k < p.num_blocks(); ++k)
    if (p.blocks[k].kind == RowKind::Joint) return false;  // joints must come first (eq. 67)
  const BlockSparse& D = p.D;
  // D_jj's pattern, analyzed again only when it changes (a model's joint rows rarely do).
  jsizes_.resize(kj_);
  jpairs_.clear();
  for (int i = 0; i < kj_; ++i) {
    jsizes_[i] = p.blocks[i].size;
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e)
      if (D.entry_col(e) < i) jpairs_.push_back({i, D.entry_col(e)});
  }
  // One analysis per pattern met (islands of several articulated systems alternate), the oldest
  // replaced past kPatterns.
  cur_ = -1;
  for (size_t k = 0; k < chols_.size() && cur_ < 0; ++k)
    if (chols_[k].same_pattern(jsizes_, jpairs_)) cur_ = static_cast<int>(k);
  if (cur_ < 0) {
    if (static_cast<int>(chols_.size()) < kPatterns) {
      cur_ = static_cast<int>(chols_.size());
      chols_.emplace_back();
    } else {
      cur_ = next_;
      next_ = (next_ + 1) % kPatterns;
    }
    chols_[cur_].analyze(jsizes_, jpairs_);
  }
  BlockCholesky& chol = chols_[cur_];
  chol.zero();
  for (int i = 0; i < kj_; ++i)
    for (int e = D.row_start(i); e < D.row_start(i + 1); ++e)
      if (D.entry_col(e) < kj_) chol.add(i, D.entry_col(e), D.entry(e));
  if (chol.factor(drop)) return true;
  cur_ = -1;
  return false;
}

}  // namespace moreau
