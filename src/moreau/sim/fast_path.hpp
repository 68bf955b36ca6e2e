#pragma once
// The fast path of a step's solve (SimSettings::fast_path; docs/performance.md, "The fast path"):
// the Problem split into islands (sim/islands.hpp), each answered by its warm start where that
// meets tol, otherwise its joint rows eliminated (sim/joint_schur.hpp) and the NCP of its limit and
// contact rows solved by nsn first, then the step's solver, then an nsn polish and the rescue
// (SimSettings::fast_path_rescue); the answer expanded and judged by the full problem's natural map
// (eq. 163), and where an island's solvers stopped above tol, nsn on the whole Problem as a last
// resort (SimSettings::fast_path_full_newton). Where it declines, the caller solves the full
// problem.
#include <string>

#include "moreau/sim/islands.hpp"
#include "moreau/sim/joint_schur.hpp"
#include "moreau/sim/open_contacts.hpp"
#include "moreau/sim/settings.hpp"
#include "moreau/solvers/solver.hpp"

namespace moreau {

class FastPath {
 public:
  explicit FastPath(const SimSettings& settings);

  // Whether the fast path takes this solver's steps at all: moreau's NCP solvers, not sap (whose
  // regularized rows it would drop) and not a CCP solver (whose answer misses the NCP's natural
  // map the fast path judges by; nsn solves the NCP).
  static bool takes(const std::string& solver, const SolverSettings& st);

  // Solves p into sol, whose residual on entry is the last step's (a residual well inside tol
  // predicts a warm start that meets tol). True: sol holds the answer, Converged or the status
  // of the solver that stopped at its cap. False: the fast path declines (a solver that fails,
  // diverges or does not take the step, softened rows, no rows, or every island converged while
  // the full natural map misses tol: a joint block too ill-conditioned for the elimination, and
  // then warm becomes the expanded impulse, from which the full solve starts).
  // `joint_factor`: p's D_jj factored by its builder (ProblemBuilder::joint_factor), or nullptr.
  // On the islands the elimination reduces, p's free velocity at a wedged contact moves to the
  // nearest one its cone admits (JointSchur::unwedge), before it is solved and judged.
  // With SimSettings::fast_path_set_aside_open, a mechanism's open contacts are set aside first
  // (sim/open_contacts.hpp): the answer of the others stands where the island's natural map meets
  // tol.
  bool solve(Problem& p, WarmStart& warm, SolverWorkspace& ws, Solution& sol,
             const JointDelassus* joint_factor = nullptr);
  // Of the last step the fast path answered: the contacts it set aside (0 when it solved them all).
  int set_aside() const { return set_aside_used_; }
  // Of those it set aside first, the ones its answer let close, taken back and solved.
  int taken_back() const { return taken_back_used_; }

  // Of the last step the fast path answered: the islands it solved apart, and those answered by
  // their warm start with no solver iteration.
  int islands() const { return islands_used_; }
  int warm_answers() const { return warm_answers_used_; }
  // Its contacts wedged by the joints, whose free velocity unwedge() corrected.
  int wedged() const { return wedged_used_; }

 private:
  struct IslandStats {  // the solvers over all islands
    int iterations = 0, fallbacks = 0;
    int warm_answers = 0;      // islands whose warm start was their answer (warm_answers())
    int wedged = 0;            // contacts JointSchur::unwedge corrected
    double warm_natmap = 0.0;  // the last such island's natural map
    bool judged = false;       // the last island's natural map in warm_natmap, its v in island_v_
    double iteration_time_s = 0.0;
    SolveStatus status = SolveStatus::Converged;  // the last island's that did not converge
  };
  bool solve_island(Problem& q, const JointDelassus* joint_factor, const WarmStart& warm,
                    SolverWorkspace& ws, GrowVec& lambda, IslandStats& stats);
  bool solve_rows(Problem& q, const JointDelassus* joint_factor, const WarmStart& warm,
                  SolverWorkspace& ws, GrowVec& lambda, IslandStats& stats);
  // `warm`: the island's warm start (its limit and contact rows are r's where it was eliminated).
  bool solve_reduced(const Problem& r, bool eliminated, bool wedged, const WarmStart& warm,
                     SolverWorkspace& ws, int& newton_iters);
  static bool newton_solves(const Problem& r);  // nsn takes r (dense, or sparse)
  bool warm_answers(const Problem& q, const WarmStart& warm, bool eliminated, GrowVec& lambda,
                    double& natmap);

  std::string solver_;
  SolverSettings settings_;         // the step's solver's
  SolverSettings newton_settings_;  // nsn's attempt (SimSettings::fast_path_newton)
  SolverSettings pile_settings_;  // the same on a pile's island (SimSettings::fast_path_pile_prox)
  SolverSettings pile_rescue_settings_;  // its rescue (SimSettings::fast_path_pile_rescue)
  SolverSettings
      pile_stiff_settings_;            // the rescue's first try: kPileStiffProx x the proximal term
  SolverSettings pile_fine_settings_;  // its second: kPileFineProx, fixed
  SolverSettings rescue_settings_;     // nsn's rescue (SimSettings::fast_path_rescue)
  SolverSettings long_settings_;       // the rescue's last try: the step's solver, 10x its budget
  SolverSettings wedge_settings_;      // nbgs-exact on an island with a wedged contact
  SolverSettings polish_settings_;     // nsn's polish of a warm answer near tol (solve_island)
  SolverSettings
      settle_settings_;  // nsn settling a warm start that met tol as it was (solve_reduced)
  SolverSettings full_settings_;    // nsn on the whole Problem (SimSettings::fast_path_full_newton)
  int full_rows_ = 0;               // SimSettings::fast_path_full_newton_rows
  int newton_ = 0, cold_rows_ = 0;  // SimSettings::fast_path_newton, fast_path_cold_rows
  int rescue_rows_ = 0;             // SimSettings::fast_path_rescue_rows
  int rescue_iters_ = 0;            // SimSettings::fast_path_rescue
  bool takes_ = false;              // takes(solver_, settings_)
  bool set_aside_open_ = false;     // SimSettings::fast_path_set_aside_open
  OpenContacts open_;               // an island's open contacts
  Problem kept_;                    // the island without them
  WarmStart kept_warm_;             // its warm start
  GrowVec saved_v_f_;               // q's free velocity before a try on kept_ (unwedge moves it)
  GrowVec kept_lambda_;             // kept_'s answer
  int set_aside_used_ = 0, taken_back_used_ = 0;
  // Tries on p without its open contacts: the first, and one after taking back those the answer
  // lets close.
  static constexpr int kOpenTries = 2;
  Islands islands_;        // the split of the Problem
  Problem island_;         // one island, extracted
  WarmStart island_warm_;  // its warm start
  GrowVec island_lambda_;  // its answer
  JointSchur schur_;       // the elimination of an island's joint rows
  WarmStart schur_warm_;   // its warm start (the limit and contact rows)
  Solution schur_sol_;     // its solution
  WarmStart cold_start_;   // empty: nsn's retry from zero
  WarmStart rescue_best_;  // the rescue's best nsn iterate
  WarmStart settle_warm_;  // the settle's start (solve_reduced)
  WarmStart full_warm_;    // the islands' answer, nsn's start on the whole Problem
  Solution newton_sol_;
  GrowVec full_lambda_, full_v_, island_v_, trial_v_, scratch_;
  bool try_warm_ = false;                          // this step's warm_answers() may answer
  bool polished_ = false, polished_last_ = false;  // a warm answer polished: this step, the last
  // Contacts wedged together were corrected (JointSchur::unwedge_together): this step, the last.
  bool together_ = false, together_last_ = false;
  int islands_used_ = 0, warm_answers_used_ = 0, wedged_used_ = 0;
  // Of the last step whose islands' warm starts were tested: one of them missed tol. Whether
  // this step tested one yet.
  bool warm_missed_ = false, warm_tested_ = false;
  static constexpr double kWarmAnswerMargin = 1e-1;
  static constexpr double kWarmRetryMargin = 1e-3;
  static constexpr int kWarmPolishIters = 3;
  // nbgs-exact's budget on a reduced NCP with a wedged contact, where nsn stopped above tol: its
  // impulses along the wedge are free (D_S singular there), which leaves Newton's system singular
  // where Gauss-Seidel's local solves are not (the G1 23's hips: 243-874 sweeps, where nsn stalls
  // at 3e-8 to 9e-8 and ADMM at 4e-4; docs/performance.md, "Wedged contacts").
  static constexpr int kWedgeSweeps = 2000;
  // A pile's rescue first runs nsn from the step's warm start with this many times the pile's
  // proximal term, for kPileStiffIters iterations (the sphere pile settling at 0.785 s: 18
  // iterations, where 1000 with the pile's term stop at 9.4e-6, tol 1e-6).
  static constexpr double kPileStiffProx = 10.0;
  static constexpr int kPileStiffIters = 100;
  // The pile's proximal term falls with the natural map (NsnSettings::prox_decay): on 46 steps
  // of the sphere pile settling at tol 1e-8, 960 instead of 1840 Newton iterations in all, the
  // most 146 instead of 300 (the cap, twice), where the fixed term crawls near 2e-8
  // (docs/performance.md, "Piles").
  static constexpr double kPileProxDecay = 1.0;
  // The rescue's second try on a pile: nsn from the step's warm start with this small proximal
  // term, fixed, for kPileFineIters iterations (five steps of the pile at 0.96 to 1.02 s, tol
  // 1e-8, that every other try left at 1.3e-8 to 2.9e-7: 69 to 323 iterations).
  static constexpr double kPileFineProx = 1e-6;
  static constexpr int kPileFineIters = 400;
  // The polish's target, below kWarmAnswerMargin tol: polished only to that margin, the next step's
  // warm start landed between it and tol again, one step in two (the G1 29 at rest: warm answers
  // on 52% of its steps, 126 and 313 us alternating; 94% with this target).
  static constexpr double kWarmPolishMargin = 1e-2;
};

}  // namespace moreau
