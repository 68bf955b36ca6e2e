#pragma once
// FCLib problems (frictionalcontactlibrary.github.io, HDF5) as moreau Problems of contact blocks.
// FCLib local problem: u = W r + q, r in K_mu, normal first per contact [n, t1, t2]; moreau orders
// each contact [t, o, n], so rows are permuted (t = t1, o = t2: a cyclic shift, right-handed
// frames stay right-handed). FCLib global problem (M v = H r + f, u = H^T v + w) is reduced to
// the local one, W = H^T M^-1 H and q = H^T M^-1 f + w. The Problem has D = W as a BlockSparse
// of 3x3 blocks, v_f = q, one Coulomb block per contact, num_bodies = 0 (no primal view).
// W is kept as stored, not symmetrized: row-based solvers (the PGS family) use W's rows as they
// are; the relative asymmetry max|W - W^T| / max|W| is reported so that a solver that assumes
// symmetry (Cholesky, CG) can say which problem it solved.
#include <optional>
#include <string>

#include <Eigen/SparseCore>

#include "moreau/dynamics/problem.hpp"
#include "moreau/model/error.hpp"

namespace moreau {

struct FclibProblem {
  Problem problem;
  std::string kind;  // "local" or "global"
  std::string title, description;
  int contacts = 0;
  double asymmetry = 0.0;  // max|W - W^T| / max|W| (0 for W = 0)
  VecX solution;           // stored /solution/r permuted to [t, o, n]; empty if absent. It may
                           // be a placeholder: check its residual before trusting it.
};

// True when moreau was built with HDF5 (MOREAU_HAVE_HDF5).
bool fclib_supported();

// Reads an FCLib local or global problem. Errors name the file and the dataset: unreadable or
// non-HDF5 file, missing dataset, wrong type or dimension, out-of-range index, non-finite value,
// negative friction, spacedim != 3, equality constraints (G) in a global problem.
// libhdf5 1.10 crashes on some corrupt files (fuzz/README.md), so the file is read in a child
// process (POSIX fork) and the problem comes back through a pipe: a crash there is this Error
// ("libhdf5 crashed reading it"), never a crash of the caller.
Result<FclibProblem> load_fclib(const std::string& path);

// The same read in this process, no isolation: for the fuzz target, which must see libhdf5's
// crashes, and for callers that cannot fork.
Result<FclibProblem> load_fclib_in_process(const std::string& path);

// Writes a contact-only Problem (every block Coulomb) as an FCLib local problem: /fclib_local/W
// (D, plus the softening compliance R on its diagonal, CSC, FCLib's [n, t1, t2] order), vectors q
// (v_f) and mu, spacedim 3, info/{title, description}. Joint and limit rows have no exact FCLib
// local form (mixed problems take equalities only): such a Problem is an Error naming its first
// such block, and no file is written. Errors name the file; a failed write leaves no file.
std::optional<Error> save_fclib_local(const Problem& p, const std::string& path,
                                      const std::string& title, const std::string& description);

// The conversion itself (no HDF5 needed): W (m x m, FCLib order), q (m), mu (m / 3).
// `file` only labels errors.
Result<FclibProblem> fclib_local_problem(const Eigen::SparseMatrix<double>& W, const VecX& q,
                                         const VecX& mu, const std::string& file);
// Global problem reduced to the local one (M SPD, n x n; H n x m; f n; w m; mu m / 3).
Result<FclibProblem> fclib_global_problem(const Eigen::SparseMatrix<double>& M,
                                          const Eigen::SparseMatrix<double>& H, const VecX& f,
                                          const VecX& w, const VecX& mu, const std::string& file);

// Index of FCLib's local coordinate for moreau's coordinate k of a contact ([t, o, n] <- [n, t1,
// t2]).
constexpr int fclib_coordinate(int k) {
  return k == 2 ? 0 : k + 1;
}

}  // namespace moreau
