#include "moreau/sim/fast_path.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "moreau/ncp/residuals.hpp"
#include "moreau/solvers/nsn.hpp"

namespace moreau {

FastPath::FastPath(const SimSettings& settings)
    : solver_(settings.solver),
      settings_(settings.solver_settings),
      newton_settings_(settings.solver_settings),  // tol and nsn's parameters
      pile_settings_(settings.solver_settings),
      rescue_settings_(settings.solver_settings),
      long_settings_(settings.solver_settings),
      wedge_settings_(settings.solver_settings),
      polish_settings_(settings.solver_settings),
      full_settings_(settings.solver_settings),
      full_rows_(settings.fast_path_full_newton > 0 ? settings.fast_path_full_newton_rows : 0),
      newton_(settings.fast_path_newton),
      cold_rows_(settings.fast_path_cold_rows),
      rescue_rows_(settings.fast_path_rescue > 0 ? settings.fast_path_rescue_rows : 0),
      rescue_iters_(settings.fast_path_rescue),
      takes_(takes(settings.solver, settings.solver_settings)),
      set_aside_open_(settings.fast_path_set_aside_open) {
  newton_settings_.max_iters = newton_;
  pile_settings_.max_iters = newton_;
  pile_settings_.nsn.prox = std::max(pile_settings_.nsn.prox, settings.fast_path_pile_prox);
  // The pile's tries shrink their proximal term with the natural map (NsnSettings::prox_decay,
  // kPileProxDecay) but the fine one, whose small term is fixed.
  pile_fine_settings_ = pile_settings_;
  pile_fine_settings_.nsn.prox = kPileFineProx;
  pile_fine_settings_.max_iters = kPileFineIters;
  pile_settings_.nsn.prox_decay = std::max(pile_settings_.nsn.prox_decay, kPileProxDecay);
  pile_rescue_settings_ = pile_settings_;
  pile_rescue_settings_.max_iters = settings.fast_path_pile_rescue;
  pile_stiff_settings_ = pile_settings_;
  // A zero proximal term (Gauss-Newton steps) is scaled from 1e-8, as in the rescue.
  pile_stiff_settings_.nsn.prox = std::min(
      1.0, kPileStiffProx * (pile_settings_.nsn.prox > 0.0 ? pile_settings_.nsn.prox : 1e-8));
  pile_stiff_settings_.max_iters = kPileStiffIters;
  polish_settings_.tol = kWarmPolishMargin * settings_.tol;
  polish_settings_.max_iters = kWarmPolishIters;
  settle_settings_ = polish_settings_;
  settle_settings_.tol = kWarmRetryMargin * settings_.tol;
  full_settings_.max_iters = settings.fast_path_full_newton;
  wedge_settings_.max_iters = kWedgeSweeps;
}

bool FastPath::takes(const std::string& solver, const SolverSettings& st) {
  const SolverInfo* info = find_solver(solver);
  return info != nullptr && info->handles_contacts && !info->peer && info->name != "sap" &&
         info->problem == "NCP" && !solves_ccp(info->name, st);
}

// Each island is solved on its own (solve_island), its answer scattered into the full impulse.
// The problems are equivalent: D is block diagonal over the islands, and the full natural map
// (eq. 163) of the expanded impulse is the reduced ones' on the limit and contact rows and the
// joint rows' equation residual after one refinement step. A solve stopped at its iteration cap is
// kept with that status, as the full solve's would be.
bool FastPath::solve(Problem& p, WarmStart& warm, SolverWorkspace& ws, Solution& sol,
                     const JointDelassus* joint_factor) {
  set_aside_used_ = 0;
  taken_back_used_ = 0;
  polished_last_ = polished_;
  polished_ = false;
  together_last_ = together_;
  together_ = false;
  if (!takes_ || p.R.size() != 0 || p.nl == 0) return false;
  const auto t0 = std::chrono::steady_clock::now();
  // sol is still the last step's: its answer well inside tol predicts a warm start that meets tol
  // (warm_answers).
  // After a warm start that missed tol, only an answer well inside it (kWarmRetryMargin tol):
  // on the loops' steps the test failed on most answers within kWarmAnswerMargin tol.
  wedged_used_ = 0;
  try_warm_ = newton_ > 0 &&
              sol.residual <= (warm_missed_ ? kWarmRetryMargin : kWarmAnswerMargin) * settings_.tol;
  warm_tested_ = false;
  islands_.split(p);
  const int ni = islands_.count();
  IslandStats stats;
  if (ni == 1) {
    if (!solve_island(p, joint_factor, warm, ws, full_lambda_, stats)) return false;
  } else {
    full_lambda_.resize(p.nl);
    for (int k = 0; k < ni; ++k) {
      islands_.extract(p, k, island_);
      if (warm.empty())
        island_warm_.lambda.resize(0);
      else
        islands_.gather(p, k, warm.lambda, island_warm_.lambda);
      const int wedged = stats.wedged;
      const bool solved = solve_island(island_, nullptr, island_warm_, ws, island_lambda_, stats);
      if (stats.wedged > wedged) islands_.scatter(p, k, island_.v_f, p.v_f);  // unwedged
      if (!solved) return false;
      islands_.scatter(p, k, island_lambda_, full_lambda_);
    }
  }
  // The full natural map of lambda into v (p.nl entries).
  auto full_natmap = [&](const GrowVec& lambda, GrowVec& v) {
    v.resize(p.nl);
    p.D.multiply(lambda.data(), v.data());
    v += p.v_f;
    return ncp_residuals(p, lambda, v, true, scratch_).natmap;
  };
  // A single island answered by its warm start, or judged whole after its open contacts were set
  // aside, has it already.
  double natmap = stats.warm_natmap;
  if (ni == 1 && (stats.warm_answers == 1 || stats.judged))
    full_v_.swap(island_v_);
  else
    natmap = full_natmap(full_lambda_, full_v_);
  bool converged = natmap <= settings_.tol;
  // The answer misses tol on a mechanism's Problem of at most fast_path_full_newton_rows rows (an
  // island's solvers stopped above tol, or all converged and the expansion misses it: a joint
  // block too ill-conditioned for the elimination): nsn on all of it (SimSettings::
  // fast_path_full_newton), from this answer, then from zero (a start in the wrong stick-slip
  // pattern traps it where zero does not: on the walker's step at 4.79 s, 100 iterations from the
  // answer end at 9.5e-8, 61 from zero converge), then from the step's warm start (the G1 23
  // tangled, a hip wedged: 13 iterations from it, where the others stop at 4.7e-8; at dt 1.6 ms
  // its islands converge, the expansion misses tol, and the full solve's ADMM stopped at 5.8e-6
  // where nsn from the warm start converges in 6). Its answer replaces this one only where it
  // meets tol on the full natural map.
  if (!converged && p.nl <= full_rows_ && p.rows_of(RowKind::Joint) > 0) {
    full_warm_.lambda = full_lambda_;
    for (const WarmStart* start : {&full_warm_, &cold_start_, &warm}) {
      if (start == &warm && warm.lambda.size() != p.nl) continue;  // none: the cold start was
      if (!moreau::solve("nsn", p, full_settings_, *start, ws, newton_sol_)) break;
      stats.iterations += newton_sol_.iterations;
      stats.iteration_time_s += newton_sol_.iteration_time_s;
      if (newton_sol_.status != SolveStatus::Converged) continue;
      const double m = full_natmap(newton_sol_.lambda, trial_v_);
      if (!(m <= settings_.tol)) continue;
      full_lambda_ = newton_sol_.lambda;
      full_v_.swap(trial_v_);
      natmap = m;
      converged = true;
      stats.status = SolveStatus::Converged;
      break;
    }
  }
  // The split, the eliminations and the expansions count as set-up: all but the solvers'
  // iterations.
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (stats.status == SolveStatus::Converged && !converged) {
    warm.lambda = full_lambda_;
    return false;
  }
  sol.lambda = full_lambda_;
  sol.v_plus = full_v_;
  sol.status = converged ? SolveStatus::Converged : stats.status;
  sol.iterations = stats.iterations;
  sol.residual = natmap;
  sol.solve_time_s = total;
  sol.setup_time_s = std::max(0.0, total - stats.iteration_time_s);
  sol.iteration_time_s = stats.iteration_time_s;
  sol.fallbacks = stats.fallbacks;
  sol.message.clear();
  sol.trace.clear();
  islands_used_ = ni;
  warm_answers_used_ = stats.warm_answers;
  return true;
}

// One island q (or the whole Problem). On a mechanism's island (joint rows) with open contacts
// (sim/open_contacts.hpp), those are set aside first: the rest solved by solve_rows, and its
// answer, with no impulse on them, taken where q's natural map meets tol; where it does not, those
// it lets close (v_n < -tol) are taken back and the rest solved again, and where none is, or the
// rest's solve stops above tol, q is solved whole. An island without joint rows (objects, a pile)
// is solved whole: little to save in its reduction, and a take-back would solve it twice
// (humanoid100's objects: a take-back on 121 of 1000 steps, 40% more time per step).
bool FastPath::solve_island(Problem& q, const JointDelassus* joint_factor, const WarmStart& warm,
                            SolverWorkspace& ws, GrowVec& lambda, IslandStats& stats) {
  if (!set_aside_open_ || q.rows_of(RowKind::Joint) == 0 || open_.choose(q, warm.lambda) == 0)
    return solve_rows(q, joint_factor, warm, ws, lambda, stats);
  saved_v_f_ = q.v_f;
  for (int attempt = 0; attempt < kOpenTries; ++attempt) {
    open_.extract(q, kept_);
    if (warm.empty())
      kept_warm_.lambda.resize(0);
    else
      open_.gather(q, warm.lambda, kept_warm_.lambda);
    IslandStats kept_stats;
    const bool solved = solve_rows(kept_, joint_factor, kept_warm_, ws, kept_lambda_, kept_stats);
    stats.iterations += kept_stats.iterations;
    stats.fallbacks += kept_stats.fallbacks;
    stats.iteration_time_s += kept_stats.iteration_time_s;
    if (!solved || kept_stats.status != SolveStatus::Converged) break;
    open_.scatter_kept(q, kept_.v_f, q.v_f);  // a wedged contact's corrected free velocity
    lambda.resize(q.nl);
    open_.scatter(q, kept_lambda_, lambda);
    island_v_.resize(q.nl);
    q.D.multiply(lambda.data(), island_v_.data());
    island_v_ += q.v_f;
    const double natmap = ncp_residuals(q, lambda, island_v_, true, scratch_).natmap;
    if (natmap <= settings_.tol) {
      set_aside_used_ += q.count(RowKind::Contact) - kept_.count(RowKind::Contact);
      stats.warm_answers += kept_stats.warm_answers;
      stats.wedged += kept_stats.wedged;
      stats.warm_natmap = natmap;  // with island_v_: q's velocity, for the caller
      stats.judged = true;
      return true;
    }
    q.v_f = saved_v_f_;
    const int back = open_.take_back(q, island_v_, settings_.tol);
    if (back == 0) break;
    taken_back_used_ += back;
  }
  q.v_f = saved_v_f_;
  return solve_rows(q, joint_factor, warm, ws, lambda, stats);
}

// One island q (or the whole Problem), all its rows: its joint rows eliminated where the
// elimination applies, else q solved as it is; the answer into lambda (q.nl entries), the solvers'
// counts into stats. False when a solver fails or diverges (the caller then solves the full
// problem).
bool FastPath::solve_rows(Problem& q, const JointDelassus* joint_factor, const WarmStart& warm,
                          SolverWorkspace& ws, GrowVec& lambda, IslandStats& stats) {
  const bool eliminate = schur_.factor(q, joint_factor);  // false without joint rows
  // A warm answer well inside tol is taken as it is. One nearer tol is polished by nsn to
  // kWarmPolishMargin tol first: taken as it is, it leaves a residual velocity that the next
  // step's solve cancels with an extra impulse, which the step after reuses as its warm answer,
  // reversing that velocity; a period-2 cycle of warm answers and Newton steps at rest (the H1
  // lying: 96 and 175 us per step, alternating; docs/performance.md).
  // After a step that polished, a warm answer is taken as it is only within kWarmPolishMargin
  // tol: one between that and kWarmAnswerMargin tol left a residual velocity that lifted the next
  // step's warm start above it, a period-2 cycle of warm answers and polishes (the G1 29 lying:
  // 6.9e-10, then 1.4e-9, tol 1e-8; 501 warm answers of 1000 steps, where a polish of the first
  // lets the next ones stay near 5e-11).
  bool polish = false;
  if (warm_answers(q, warm, eliminate, lambda, stats.warm_natmap)) {
    const double margin = polished_last_ ? kWarmPolishMargin : kWarmAnswerMargin;
    if (stats.warm_natmap <= margin * settings_.tol) {
      ++stats.warm_answers;
      return true;
    }
    polish = true;
  }
  int wedged = 0;
  if (eliminate) {
    schur_.reduce_factored(q);
    wedged = schur_.unwedge(q);
    // After a step whose contacts were wedged together, they are corrected before the solve (a
    // folded chain stays folded for tens of steps; each would otherwise pay a failed solve first).
    if (together_last_) {
      const int together = schur_.unwedge_together(q);
      together_ = together_ || together > 0;
      wedged += together;
    }
    stats.wedged += wedged;
    wedged_used_ += wedged;
  }
  const Problem& r = eliminate ? schur_.reduced() : q;
  // An answer of r into the island's lambda, its joint impulses from the elimination.
  auto answer = [&](const GrowVec& lambda_r) {
    if (eliminate)
      schur_.expand(q, lambda_r, lambda);
    else
      lambda = lambda_r;
  };
  if (warm.empty())
    schur_warm_.lambda.resize(0);
  else
    schur_warm_.lambda = warm.lambda.tail(r.nl);  // the limit and contact rows come last (eq. 67)
  if (polish) {
    if (r.nl > 0 && moreau::solve("nsn", r, polish_settings_, schur_warm_, ws, newton_sol_) &&
        newton_sol_.status == SolveStatus::Converged) {
      answer(newton_sol_.lambda);
      stats.iterations += newton_sol_.iterations;
      stats.iteration_time_s += newton_sol_.iteration_time_s;
      polished_ = true;
      return true;
    }
    // Not polished: the warm answer, within tol, stands, unless unwedge() changed the problem it
    // was judged on; then it is solved below from there.
    if (wedged == 0) {
      ++stats.warm_answers;
      return true;
    }
  }
  int newton_iters = 0;
  if (r.nl == 0) {  // joint rows only: the elimination is the solve
    schur_sol_.lambda.resize(0);
    schur_sol_.status = SolveStatus::Converged;
    schur_sol_.iterations = 0;
    schur_sol_.fallbacks = 0;
    schur_sol_.iteration_time_s = 0.0;
  } else if (!solve_reduced(r, eliminate, wedged > 0, warm, ws, newton_iters)) {
    return false;
  } else if (eliminate && schur_sol_.status != SolveStatus::Converged) {
    // Stopped above tol: contacts wedged together (JointSchur::unwedge_together), corrected, and
    // the reduced NCP solved again (a chain's tip folded onto its own links, docs/performance.md,
    // "Wedged contacts"). Also after a correction before the solve: Dykstra's rounds stop short
    // of the projection, and a second pass can shift more (skipping it: 9 of the chain's 25 time
    // steps blow up instead of 7).
    const int together = schur_.unwedge_together(q);
    if (together > 0) {
      together_ = true;
      stats.wedged += together;
      wedged_used_ += together;
      stats.iterations += schur_sol_.iterations;
      stats.fallbacks += schur_sol_.fallbacks;
      stats.iteration_time_s += schur_sol_.iteration_time_s;
      if (!solve_reduced(r, eliminate, true, warm, ws, newton_iters)) return false;
    }
  }
  answer(schur_sol_.lambda);
  stats.iterations += newton_iters + schur_sol_.iterations;
  stats.fallbacks += schur_sol_.fallbacks;
  stats.iteration_time_s += schur_sol_.iteration_time_s;
  if (schur_sol_.status != SolveStatus::Converged) stats.status = schur_sol_.status;
  return true;
}

// Whether the warm start answers island q (its natural map into natmap): its limit and contact
// impulses, with the joint impulses they imply (JointSchur::expand), meet tol on q. Where nsn would
// take the island (an NCP of at most JointSchur::kMaxReducedRows rows once its joint rows are
// eliminated, or without joint rows), that is its iteration 0, without building the reduced NCP: a
// body at rest keeps its impulses (docs/performance.md, "A warm start that answers the step"). The
// test is the full natural map, by which the step is judged; where both accept, the answer is nsn's
// iteration 0's, bit for bit. Tried only after a step whose answer was within kWarmAnswerMargin
// tol (kWarmRetryMargin after a test that missed): one at the edge of tol rarely meets tol a step
// later, and the test would cost its expansion for nothing.
bool FastPath::warm_answers(const Problem& q, const WarmStart& warm, bool eliminated,
                            GrowVec& lambda, double& natmap) {
  if (!try_warm_ || warm.lambda.size() != q.nl) return false;
  // An island whose elimination was declined (D_jj ill-conditioned, or too many other rows) is not
  // taken as it was; nor is an island nsn does not solve.
  if (!eliminated && schur_.joint_rows() > 0) return false;
  if (!eliminated && !newton_solves(q)) return false;
  if (eliminated)
    schur_.expand(q, warm.lambda.tail(schur_.other_rows()), lambda);
  else
    lambda = warm.lambda;
  island_v_.resize(q.nl);
  q.D.multiply(lambda.data(), island_v_.data());
  island_v_ += q.v_f;
  // A non-finite entry of D, v_f or the warm start makes v, hence the natural map, NaN (0 x NaN
  // is NaN): the test fails and the solve's validation reports it.
  natmap = ncp_residuals(q, lambda, island_v_, true, scratch_).natmap;
  warm_missed_ =
      (warm_tested_ && warm_missed_) || natmap > settings_.tol;  // any island's, this step
  warm_tested_ = true;
  return natmap <= settings_.tol;
}

// nsn takes a problem up to the elimination's size limit (a reduced NCP, D_S dense: nsn's dense
// Newton system; an island without joint rows, sparse above NsnSettings::dense_rows), and a larger
// island of contacts and limits whose D is sparse (a pile: every body's contacts couple to its
// neighbours' only; the sparse system). Elsewhere, the step's solver alone.
bool FastPath::newton_solves(const Problem& r) {
  return r.nl <= JointSchur::kMaxReducedRows ||
         (r.rows_of(RowKind::Joint) == 0 && nsn::sparse_delassus(r));
}

// The reduced NCP (SimSettings::fast_path_newton): nsn from the warm start settles most steps in a
// few Newton iterations. Where it does not, the step's solver runs from nsn's best iterate, and
// where that stops at its iteration cap, nsn polishes its answer, and the rescue tries longer
// runs; a step that still misses tol keeps the lowest natural map reached. False when the step's
// solver fails or diverges (the caller then solves the full problem).
bool FastPath::solve_reduced(const Problem& r, bool eliminated, bool wedged, const WarmStart& warm,
                             SolverWorkspace& ws, int& newton_iters) {
  const bool use_newton = newton_ > 0 && newton_solves(r);
  double newton_time = 0.0;
  double best = std::numeric_limits<double>::infinity();  // the lowest natural map nsn reached
  bool in_rescue = false;  // nsn's best iterates are kept in rescue_best_ from the rescue on
  // nsn from `start`: true when it converged (answer in schur_sol_); otherwise its best iterate
  // becomes schur_warm_ if it is the best so far.
  auto newton = [&](const WarmStart& start, const SolverSettings& st) {
    if (!moreau::solve("nsn", r, st, start, ws, newton_sol_)) return false;
    newton_iters += newton_sol_.iterations;
    newton_time += newton_sol_.iteration_time_s;
    if (newton_sol_.status == SolveStatus::Converged) {
      schur_sol_.lambda = newton_sol_.lambda;
      schur_sol_.status = SolveStatus::Converged;
      return true;
    }
    if (newton_sol_.status == SolveStatus::MaxIterations && newton_sol_.residual < best) {
      best = newton_sol_.residual;
      schur_warm_.lambda = newton_sol_.lambda;
      if (in_rescue) rescue_best_.lambda = newton_sol_.lambda;
    }
    return false;
  };
  const bool cold_retry = use_newton && !schur_warm_.empty() && r.nl <= cold_rows_;
  // A pile's island (past the elimination's size, the sparse system): a larger proximal term.
  const SolverSettings& newton_settings =
      r.nl > JointSchur::kMaxReducedRows ? pile_settings_ : newton_settings_;
  if (use_newton && (newton(schur_warm_, newton_settings) ||
                     (cold_retry && newton(cold_start_, newton_settings)))) {
    // A warm start that met tol as it was (no Newton step) is settled below the margin the next
    // step's warm answer needs (solve()): returned as it is, it is the next step's warm start
    // again, above that margin, so the next step skips the warm answer and reduces the problem
    // for nothing, step after step (the G1 29 lying on 27 contacts: 236 us a step at 1.6e-9;
    // docs/performance.md). Not on a pile's island, whose sparse Newton iterations (about 11 ms
    // each on 2361 rows) cost more than the reduction they would save.
    const double margin = warm_missed_ ? kWarmRetryMargin : kWarmAnswerMargin;
    if (newton_sol_.iterations == 0 && newton_sol_.residual > margin * settings_.tol &&
        r.nl <= JointSchur::kMaxReducedRows &&
        (settle_warm_.lambda = newton_sol_.lambda,
         moreau::solve("nsn", r, settle_settings_, settle_warm_, ws, newton_sol_)) &&
        newton_sol_.status == SolveStatus::Converged) {
      schur_sol_.lambda = newton_sol_.lambda;
      newton_iters += newton_sol_.iterations;
      newton_time += newton_sol_.iteration_time_s;
    }
    schur_sol_.iterations = 0;
    schur_sol_.fallbacks = 0;
    schur_sol_.iteration_time_s = newton_time;
    return true;
  }
  // A wedged contact: nbgs-exact from nsn's best iterate first (kWedgeSweeps); its iterate, where
  // it stops above tol, is the step's solver's start where it is nsn's best.
  if (wedged && moreau::solve("nbgs-exact", r, wedge_settings_, schur_warm_, ws, schur_sol_)) {
    if (schur_sol_.status == SolveStatus::Converged) {
      schur_sol_.iteration_time_s += newton_time;
      return true;
    }
    newton_iters += schur_sol_.iterations;
    newton_time += schur_sol_.iteration_time_s;
    if (schur_sol_.residual < best) {
      best = schur_sol_.residual;
      schur_warm_.lambda = schur_sol_.lambda;
    }
  }
  if (!moreau::solve(solver_, r, settings_, schur_warm_, ws, schur_sol_)) return false;
  if (schur_sol_.status == SolveStatus::Diverged || schur_sol_.status == SolveStatus::Failed)
    return false;
  if (use_newton && schur_sol_.status == SolveStatus::MaxIterations) {
    schur_warm_.lambda = schur_sol_.lambda;
    // A polish, then (where the cold retry above did not run) nsn from zero: a warm start in the
    // wrong stick-slip pattern can trap it where a cold start is not. Each counts only if it
    // converges.
    bool done = newton(schur_warm_, newton_settings) ||
                (!cold_retry && newton(cold_start_, newton_settings));
    // The rescue (SimSettings::fast_path_rescue): nsn from zero with a larger budget, then nsn
    // from zero with another proximal term or block scale (a third of the budget each), then the
    // step's solver on from its answer with 10x its budget. On a mechanism's reduced NCP, and on
    // a contact-only island of at most fast_path_cold_rows rows (objects resting on a few
    // contacts): on a pile's larger islands neither converges within such budgets, and the rescue
    // would only multiply the step's time (docs/performance.md, "The rescue").
    // A pile's island (SimSettings::fast_path_pile_rescue): nsn from the step's warm start with
    // a larger proximal term (kPileStiffProx), then with a small fixed one (kPileFineProx), then
    // on from the best iterate so far with a larger budget; still above tol, its best iterate
    // where it beats the step's solver's.
    if (!done && r.nl > JointSchur::kMaxReducedRows && pile_rescue_settings_.max_iters > 0) {
      in_rescue = true;
      best = schur_sol_.residual;
      // A pile's island is not eliminated: `warm` is its own warm start, r.nl entries.
      done = (warm.lambda.size() == r.nl &&
              (newton(warm, pile_stiff_settings_) || newton(warm, pile_fine_settings_))) ||
             newton(schur_warm_, pile_rescue_settings_);
      in_rescue = false;
      if (!done && best < schur_sol_.residual) {
        schur_sol_.lambda = rescue_best_.lambda;
        schur_sol_.residual = best;
      }
    }
    const int rescue_limit = eliminated ? rescue_rows_ : std::min(rescue_rows_, cold_rows_);
    if (!done && r.nl <= rescue_limit) {
      in_rescue = true;
      best = std::numeric_limits<double>::infinity();  // the rescue's own best
      struct Variant {
        double prox, rho;  // factors on the step's nsn settings
        int divisor;       // of the rescue's budget
      };
      // The last, 1e4 x the proximal term: a box sliding at 1e-4 m/s on four floor contacts and
      // touching two other objects (humanoid100 at 31.3 s: 27 rows, D of rank 17), where every
      // other solver and variant stalls at 4e-8 to 6e-8 and nsn with prox 1e-4 converges in 140
      // iterations.
      static constexpr Variant kVariants[] = {{1.0, 1.0, 1}, {1e-2, 1.0, 3}, {1.0, 10.0, 3},
                                              {1e2, 1.0, 3}, {1.0, 0.1, 3},  {1e4, 1.0, 3}};
      for (const Variant& v : kVariants) {
        if (done) break;
        // A zero proximal term (Gauss-Newton steps) is scaled from 1e-8 instead.
        const double prox = settings_.nsn.prox > 0.0 ? settings_.nsn.prox : 1e-8;
        rescue_settings_.nsn.prox =
            v.prox == 1.0 ? settings_.nsn.prox : std::min(1.0, v.prox * prox);
        rescue_settings_.nsn.rho_scale = v.rho * settings_.nsn.rho_scale;
        rescue_settings_.max_iters = std::max(1, rescue_iters_ / v.divisor);
        done = newton(cold_start_, rescue_settings_);
      }
      if (!done) {
        long_settings_.max_iters = 10 * settings_.max_iters;
        schur_warm_.lambda = schur_sol_.lambda;
        if (moreau::solve(solver_, r, long_settings_, schur_warm_, ws, newton_sol_)) {
          schur_sol_.iterations += newton_sol_.iterations;
          newton_time += newton_sol_.iteration_time_s;
          done = newton_sol_.status == SolveStatus::Converged;
          if (done || newton_sol_.residual < std::min(best, schur_sol_.residual)) {
            schur_sol_.lambda = newton_sol_.lambda;
            schur_sol_.residual = newton_sol_.residual;
            if (done) schur_sol_.status = SolveStatus::Converged;
          }
        }
        // Still above tol: the lowest natural map of the rescue's tries is the step's answer.
        if (!done && best < schur_sol_.residual) {
          schur_sol_.lambda = rescue_best_.lambda;
          schur_sol_.residual = best;
        }
      }
    }
  }
  schur_sol_.iteration_time_s += newton_time;
  return true;
}

}  // namespace moreau
