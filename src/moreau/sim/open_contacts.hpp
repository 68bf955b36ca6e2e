#pragma once
// The open contacts of a step's Problem, set aside before the fast path's solve
// (SimSettings::fast_path_set_aside_open; docs/performance.md, "Open contacts set aside"): a
// contact within the collision margin whose free normal velocity, with the gap's bias g / dt, is
// positive and which had no impulse in the warm start most likely stays open, and then an impulse
// of zero on it, with the answer of the others, solves the whole NCP exactly: its natural map
// (eq. 163) is zero wherever the normal velocity the others leave it is >= 0 (lambda = 0 and
// v_n >= 0: v-hat = v + mu |v_t| n lies in the dual cone). A robot lying within a 1 mm margin has
// four contacts in the Problem for each one that carries weight (docs/model-import.md).
#include <vector>

#include "moreau/dynamics/problem.hpp"
#include "moreau/math/growable.hpp"

namespace moreau {

class OpenContacts {
 public:
  // Marks p's open contacts (above) as set aside; `warm`: p's warm start (empty: none). The
  // number marked.
  int choose(const Problem& p, const VecCRef& warm);
  // Takes back the set-aside contacts whose normal velocity in v (p's rows) is below -tol: the
  // number taken back.
  int take_back(const Problem& p, const VecCRef& v, double tol);
  // The Problem of the kept blocks (dual view: blocks, D, v_f), p's order.
  void extract(const Problem& p, Problem& out);
  // x (p's rows) restricted to the kept blocks, and back (set-aside rows: zero).
  void gather(const Problem& p, const VecCRef& x, GrowVec& kept) const;
  void scatter(const Problem& p, const VecCRef& kept, VecRef x) const;
  // The kept blocks' rows of x copied into p's rows of y (the others untouched).
  void scatter_kept(const Problem& p, const VecCRef& kept, VecRef y) const;

 private:
  std::vector<char> aside_;  // per block of p
  std::vector<int> local_;   // p's block -> its index among the kept, -1 when set aside
  std::vector<int> sizes_;
};

}  // namespace moreau
