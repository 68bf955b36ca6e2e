// The report's missing experiments at --quick size (bench/experiment.hpp): the physics each one
// measures, checked against closed forms. Each test runs one experiment (< 0.5 s; nmdp-stability
// about 16 s).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "moreau/bench/experiment.hpp"
#include "moreau/dynamics/softening.hpp"

namespace moreau::bench {
namespace {

const ExperimentOptions kQuick{true};

const Table& table(const ExperimentResult& r, const std::string& name) {
  for (const Table& t : r.tables)
    if (t.name == name) return t;
  ADD_FAILURE() << "no table " << name;
  static const Table empty;
  return empty;
}

// CCP (eq. 18): a sliding contact separates at v_n = mu |v_t|; NCP (eq. 15): v_n = 0. The CCP
// box hovers at the gap dt mu |v_t| with the normal force still acting ("forces at a distance").
TEST(BenchExperiments, CcpSlidingContactSeparatesAtMuVtAndNcpDoesNot) {
  const ExperimentResult r = ccp_vs_ncp(kQuick);
  const Table& t = table(r, "ccp-vs-ncp");
  ASSERT_EQ(t.rows.size(), 12u);  // 6 solvers x 2 friction coefficients
  for (size_t i = 0; i < t.rows.size(); ++i) {
    SCOPED_TRACE(t.str(i, "solver") + " mu=" + t.str(i, "mu"));
    EXPECT_GT(t.num(i, "sliding_steps"), 100.0);
    EXPECT_EQ(t.num(i, "nonconverged"), 0.0);
    const double v0 = t.num(i, "v0"), mu = t.num(i, "mu"), dt = t.num(i, "dt");
    if (t.str(i, "problem") == "CCP") {
      EXPECT_NEAR(t.num(i, "vn_over_mu_vt_mean"), 1.0, 1e-6);
      EXPECT_LT(t.num(i, "vn_over_mu_vt_maxdev"), 1e-6);  // every sliding contact, every step
      // Lifted at the first step by mu v0, then hovering at dt mu |v_t| < dt mu v0.
      EXPECT_NEAR(t.num(i, "vn_max"), mu * t.num(i, "v0") * 0.8, mu * v0 * 0.2);
      EXPECT_GT(t.num(i, "gap_with_force_max"), 0.5 * dt * mu * v0);
      EXPECT_LT(t.num(i, "gap_with_force_max"), 1e-3);  // the collision margin
      EXPECT_GT(t.num(i, "height_gain_max"), 1e-3);
    } else {
      EXPECT_LT(std::abs(t.num(i, "vn_over_mu_vt_mean")), 1e-6);
      EXPECT_LT(t.num(i, "vn_max"), 1e-9);
      EXPECT_LT(t.num(i, "gap_with_force_max"), 1e-10);
      EXPECT_LT(t.num(i, "height_gain_max"), 1e-10);
    }
  }
  // While the CCP box slides in contact, the double-sided bias max(0, gap / dt) (eq. 91b) balances
  // mu |v_t|: it hovers at gap = dt mu |v_t|, with the force acting across the gap.
  const Table& tr = table(r, "ccp-vs-ncp-trace");
  const double dt = t.num(0, "dt");
  int active = 0, hovering = 0;
  for (size_t i : tr.where({{"problem", "CCP"}})) {
    const double mvt = tr.num(i, "mu_vt_contact_mean");
    if (mvt < 1e-2) continue;
    ++active;
    hovering += std::abs(tr.num(i, "height_gain") - dt * mvt) < 1e-2 * dt * mvt;
  }
  EXPECT_GT(active, 20);
  EXPECT_GT(hovering, 0.8 * active);
}

// Coulomb: the box stops after v0^2 / (2 mu g); semi-implicit Euler sums the post-step
// velocities, which removes v0 dt / 2. The CCP keeps the same mean friction impulse
// (mu m g per unit time), so its distance agrees too.
TEST(BenchExperiments, SlidingDistanceMatchesCoulomb) {
  const ExperimentResult r = ccp_vs_ncp(kQuick);
  const Table& t = table(r, "ccp-vs-ncp");
  for (size_t i = 0; i < t.rows.size(); ++i) {
    SCOPED_TRACE(t.str(i, "solver") + " mu=" + t.str(i, "mu"));
    const double d = t.num(i, "distance_analytic");
    EXPECT_LT(std::abs(t.num(i, "distance_rel_err")), 0.02);
    const double discrete = d - 0.5 * t.num(i, "v0") * t.num(i, "dt");
    EXPECT_NEAR(t.num(i, "distance"), discrete, 1e-4 * d);
    // The CCP box flies for part of a hop after launch (no friction): it stops a few steps later.
    const double steps_late = t.str(i, "problem") == "CCP" ? 5.0 : 1.5;
    EXPECT_NEAR(t.num(i, "stop_time"), t.num(i, "stop_time_analytic"), steps_late * t.num(i, "dt"));
  }
}

// Softening underestimates the joint force: the weld of boxes-fixed sags, the hard weld does
// not. With the heavy box as ground, the sag is the rest offset of one softened row,
// |r| = (1 - d) g / (d k), k = d / (T^2 zeta^2 dwidth^2) (eq. 105), d = d(r) (eq. 104).
TEST(BenchExperiments, SofteningDriftsAndHardConstraintsDoNot) {
  const ExperimentResult r = softening_vs_proximal(kQuick);
  const Table& t = table(r, "softening-vs-proximal");
  const ImpedanceParams ip;  // MuJoCo's defaults, as used by the experiment
  double sag = 1e-4;
  for (int k = 0; k < 200; ++k) {
    const double d = impedance(ip, sag);
    sag = (1.0 - d) * 9.81 * std::pow(ip.timeconst * ip.dampratio * ip.dwidth, 2) / (d * d);
  }
  int checked = 0;
  for (size_t i : t.where({{"system", "boxes-fixed"}})) {
    SCOPED_TRACE(t.str(i, "config") + " ratio " + t.str(i, "mass_ratio"));
    EXPECT_EQ(t.num(i, "completed"), 1.0);
    if (t.str(i, "softening") == "soft") {
      EXPECT_GT(t.num(i, "max_joint_drift"), 1e-4);
      if (t.num(i, "mass_ratio") == 1000.0) {
        EXPECT_NEAR(t.num(i, "final_joint_drift"), sag, 0.02 * sag);
      }
    } else {
      EXPECT_LT(t.num(i, "max_joint_drift"), 1e-9);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 10);  // 5 configurations x 2 mass ratios
  // The heavy chain: the hard problem solved by the proximal ADMM holds its joints to 1e-4 at
  // mass ratio 1000, the softened one lets them drift by more than 1 cm.
  for (size_t i : t.where({{"system", "heavy-chain"}, {"config", "hard admm-ncp-sa"}}))
    EXPECT_LT(t.num(i, "max_joint_drift"), 1e-4);
  for (size_t i : t.where({{"system", "heavy-chain"}, {"softening", "soft"}}))
    EXPECT_GT(t.num(i, "max_joint_drift"), 1e-2);
}

// Semi-implicit Euler is first order: on the frictionless fourbar loop the energy error grows
// linearly with dt and the joint drift grows with dt, whatever the solver.
TEST(BenchExperiments, TimestepSweepIsFirstOrderOnTheFourbar) {
  const ExperimentResult r = timestep_sweep(kQuick);
  const Table& t = table(r, "timestep-sweep");
  for (const std::string solver : {"admm-ncp-sa", "nbgs-exact", "apgd"}) {
    SCOPED_TRACE(solver);
    const std::vector<size_t> rows = t.where({{"system", "fourbar-fixed"}, {"solver", solver}});
    ASSERT_EQ(rows.size(), 4u);  // dt = 1, 2, 5, 10 ms
    for (size_t k = 0; k < rows.size(); ++k) {
      EXPECT_EQ(t.num(rows[k], "completed"), 1.0);
      EXPECT_LE(t.num(rows[k], "natmap_max"), 1.01e-8);
      if (k > 0) {
        EXPECT_GT(t.num(rows[k], "max_joint_drift"), t.num(rows[k - 1], "max_joint_drift"));
      }
    }
    const double ratio = t.num(rows[3], "max_energy_drift") / t.num(rows[0], "max_energy_drift");
    EXPECT_NEAR(ratio, 10.0, 1.5);
  }
}

// PGS at omega = 1 (Gauss-Seidel) converges on the small problems; without contacts the three
// members are one algorithm (identical sweeps); omega = 1.8 breaks PGS-NCP on the mass ratio.
TEST(BenchExperiments, SorSensitivity) {
  const ExperimentResult r = sor_sensitivity(kQuick);
  const Table& t = table(r, "sor-sensitivity");
  ASSERT_FALSE(t.rows.empty());
  for (const std::string system : {"fourbar-fixed", "boxes-fixed"})
    for (size_t i : t.where({{"system", system}}))
      if (t.num(i, "omega") == 1.0) {
        SCOPED_TRACE(system + " " + t.str(i, "solver"));
        EXPECT_EQ(t.str(i, "status"), "converged");
        EXPECT_LE(t.num(i, "natmap"), 1e-6);
      }
  const std::vector<size_t> fb = t.where({{"system", "fourbar-fixed"}});
  for (size_t i : fb)
    for (size_t j : fb)
      if (t.num(i, "step") == t.num(j, "step") && t.num(i, "omega") == t.num(j, "omega")) {
        EXPECT_EQ(t.num(i, "iterations"), t.num(j, "iterations"));
      }
  int broken = 0, total = 0;
  for (size_t i : t.where({{"system", "boxes-fixed"}, {"solver", "pgs-ncp"}}))
    if (t.num(i, "omega") == 1.8) {
      ++total;
      broken += t.num(i, "converged") == 0.0;
    }
  EXPECT_GT(total, 0);
  EXPECT_EQ(broken, total);
}

// The tables are deterministic and written as tidy CSV (header + one line per row).
TEST(BenchExperiments, TablesAreDeterministicCsv) {
  const ExperimentResult a = ccp_vs_ncp(kQuick), b = ccp_vs_ncp(kQuick);
  ASSERT_EQ(a.tables.size(), b.tables.size());
  for (size_t k = 0; k < a.tables.size(); ++k) EXPECT_EQ(a.tables[k].csv(), b.tables[k].csv());
  const std::string dir =
      (std::filesystem::temp_directory_path() / "moreau-test-experiments").string();
  auto paths = write_tables(a, dir);
  ASSERT_TRUE(paths) << paths.error().message();
  ASSERT_EQ(paths->size(), 2u);
  std::ifstream f((*paths)[0]);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(), a.tables[0].csv());
  const std::string head = ss.str().substr(0, ss.str().find('\n'));
  EXPECT_EQ(std::count(head.begin(), head.end(), ',') + 1,
            static_cast<long>(a.tables[0].columns.size()));
  EXPECT_NE(find_experiment("sor-sensitivity"), nullptr);
  EXPECT_EQ(find_experiment("no-such"), nullptr);
  std::filesystem::remove_all(dir);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A figure panel per system and measure; a run that blows up is a cross at the clipping level,
// never a NaN or infinity in the SVG.
TEST(BenchExperiments, TimestepFigureHasAPanelPerSystemAndMeasureAndCrossesBlowUps) {
  ExperimentResult r;
  Table t{"timestep-sweep",
          {"system", "solver", "dt", "steps", "completed", "iters_mean", "natmap_max",
           "max_joint_drift", "max_penetration", "max_energy_drift"},
          {}};
  const double inf = std::numeric_limits<double>::infinity();
  for (const std::string system : {"a", "b"})
    for (double dt : {1e-3, 1e-2})
      t.add({system, std::string("nbgs"), dt, 100.0, 1.0, 10.0, 1e-9, 1e-4, 2e-4,
             system == "b" && dt == 1e-2 ? inf : 1e-3});
  r.tables.push_back(t);
  const std::vector<FigureFile> figs = experiment_figures(r);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].name, "timestep-sweep.svg");
  const std::string& svg = figs[0].svg;
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(count(svg, "<clipPath id=\"area-"), 8u);  // 2 systems x 4 measures
  EXPECT_EQ(count(svg, "<g"), count(svg, "</g>"));
  EXPECT_EQ(count(svg, "stroke-width=\"1.5\""), 1u);  // the one cross: b, dt = 10 ms, energy
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_NE(svg.find("b: max |E(t) - E(0)|"), std::string::npos);
  EXPECT_EQ(count(svg, ">5</text>"), 8u);        // the dt ticks 1, 2, 5, 10 ms on every panel
  EXPECT_EQ(count(svg, ">nbgs</text>"), 2u);     // a legend on each row's first panel
  EXPECT_EQ(experiment_figures(r)[0].svg, svg);  // deterministic
}

// ccp-vs-ncp's figure: three panels, every solver in the legends, the Coulomb distance marked.
TEST(BenchExperiments, CcpFigureShowsEverySolver) {
  const ExperimentResult r = ccp_vs_ncp(kQuick);
  const std::vector<FigureFile> figs = experiment_figures(r);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].name, "ccp-vs-ncp.svg");
  const std::string& svg = figs[0].svg;
  EXPECT_EQ(count(svg, "<clipPath id=\"area-"), 3u);
  const Table& t = table(r, "ccp-vs-ncp");
  for (size_t i : t.where({{"mu", "0.5"}}))
    EXPECT_EQ(count(svg, ">" + t.str(i, "solver") + "</text>"), 3u) << t.str(i, "solver");
  EXPECT_NE(svg.find("v0²/(2 mu g), mu = 0.3"), std::string::npos);
  EXPECT_NE(svg.find("v_n = mu |v_t|"), std::string::npos);
  EXPECT_TRUE(experiment_figures(ExperimentResult{}).empty());
}

}  // namespace
}  // namespace moreau::bench

namespace moreau::bench {
namespace {

double summary(const ExperimentResult& r, const std::string& key) {
  for (const auto& [k, v] : r.summary)
    if (k == key) return v;
  ADD_FAILURE() << "no summary key " << key;
  return std::nan("");
}

// Castro 2023, Sec. VI-B: on the spring-cylinder the midpoint rule conserves the energy of the
// frictionless spring-mass exactly and nearly so with rolling friction; implicit Euler
// dissipates it; symplectic Euler keeps it in a band (28% in the paper). Midpoint is second
// order, symplectic Euler first order (slopes over dt = 20, 10, 5 ms).
TEST(BenchExperiments, SapSpringCylinderEnergyAndOrder) {
  const ExperimentResult r = sap_spring_cylinder(kQuick);
  EXPECT_LT(summary(r, "energy_band_midpoint_frictionless"), 1e-9);
  EXPECT_LT(summary(r, "energy_band_midpoint_rolling"), 5e-3);
  const double band = summary(r, "energy_band_symplectic_frictionless");
  EXPECT_GT(band, 0.2);
  EXPECT_LT(band, 0.35);
  EXPECT_GT(summary(r, "energy_band_implicit_frictionless"), 0.5);  // decays
  EXPECT_GT(summary(r, "order_midpoint"), 1.8);
  EXPECT_GT(summary(r, "order_symplectic"), 0.8);
  EXPECT_LT(summary(r, "order_symplectic"), 1.5);
  const Table& e = table(r, "sap-spring-cylinder");
  // Implicit Euler loses energy monotonically (no growth beyond round-off).
  double prev = 2.0;
  for (size_t i : e.where({{"case", "frictionless"}, {"scheme", "implicit"}})) {
    EXPECT_LE(e.num(i, "energy"), prev + 1e-12);
    prev = e.num(i, "energy");
  }
  EXPECT_LT(prev, 0.2);
  EXPECT_EQ(table(r, "sap-spring-cylinder-order").rows.size(), 18u);  // 2 cases x 3 x 3 dt
}

// Castro 2023, Sec. VI-C at quick size (8 objects, 1.5 s): once landed SAP takes about 3 Newton
// iterations a step, its complementarity error stays small (eq. 33) and the static slip stays
// below sigma mu dt g (eq. 31).
TEST(BenchExperiments, SapClutterSettlesInFewNewtonIterations) {
  const ExperimentResult r = sap_clutter(kQuick);
  EXPECT_EQ(summary(r, "steps"), 150.0);
  // e_m is SAP's stopping test (eps_r = 1e-5); what the paper measures beside it is the Newton
  // iterations a step takes once the pile has landed: about 3 (Castro et al. 2023, Sec. VI-C).
  EXPECT_LE(summary(r, "steady_iterations_mean"), 3.0);
  EXPECT_LT(summary(r, "complementarity_error"), 1e-3);
  EXPECT_NEAR(summary(r, "slip_bound"), 1e-3 * 1.0 * 0.01 * 9.81, 1e-12);
  EXPECT_LT(summary(r, "mean_slip_static"), summary(r, "slip_bound"));
  EXPECT_GT(summary(r, "loaded_contacts_static"), 0.0);
  const Table& s = table(r, "sap-clutter-scaling");
  EXPECT_EQ(s.rows.size(), 4u);  // n = 4, 8 with and without walls
  for (size_t i = 0; i < s.rows.size(); ++i) EXPECT_EQ(s.str(i, "completed"), "yes");
  const std::vector<FigureFile> figs = experiment_figures(r);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].name, "sap-clutter.svg");
}

// nmdp-stability, quick: dt = 20 and 50 ms (nmdp-zo only at 50 ms), 0.5 s of each gait with every
// integrator. The table
// and the summary carry every key and every integrator; the values are finite. The paper's
// configurations behave as Pan & Hauser 2021 (Sec. V) report: NE-NMDP (backward Euler, the servo at
// the new state) keeps the quadruped upright at both steps, NE-MDP (forward Euler, Tan's explicit
// servo) does not; with the servo at the new state mdp stands too, and agrees with nmdp on the
// torso's height.
TEST(BenchExperiments, NmdpStabilityKeepsTheQuadrupedUpright) {
  const ExperimentResult r = nmdp_stability(kQuick);
  const Table& t = table(r, "nmdp-stability");
  const Table& series = table(r, "nmdp-stability-series");
  for (const char* c :
       {"integrator", "servo", "gait", "dt", "diverged", "fell", "t_end", "tilt_max_deg",
        "jump_peak_mean", "walk_distance", "outer_mean", "alpha_cuts", "capped_steps"})
    EXPECT_GE(t.col(c), 0) << c;
  ASSERT_EQ(t.rows.size(), 36u);  // 2 gaits x (8 integrators x 2 dts + nmdp-zo(-pbd) at 50 ms)
  const std::map<std::string, std::string> servo = {{"mdp", "tan"},
                                                    {"nmdp", "implicit"},
                                                    {"nmdp-zo", "implicit"},
                                                    {"nmdp-pbd", "implicit"},
                                                    {"nmdp-zo-pbd", "implicit"},
                                                    {"mdp-implicit", "implicit"},
                                                    {"nmdp-tan", "tan"},
                                                    {"nmdp-dissipation", "implicit"},
                                                    {"mdp-implicit-dissipation", "implicit"},
                                                    {"euler", "-"}};
  for (const auto& [n, sv] : servo) {
    const std::vector<size_t> rows = t.where({{"integrator", n}});
    ASSERT_EQ(rows.size(), n.rfind("nmdp-zo", 0) == 0 ? 2u : 4u) << n;
    for (size_t i : rows) EXPECT_EQ(t.str(i, "servo"), sv) << n;
    for (const char* key :
         {".consistency", ".consistency_common_dts", ".jump_height_std_across_dt",
          ".walk_distance_std_across_dt", ".mean_outer_iterations", ".alpha_cuts", ".capped_steps"})
      EXPECT_TRUE(std::any_of(r.summary.begin(), r.summary.end(), [&](const auto& kv) {
        return kv.first == n + key;
      })) << n + key;
    for (const char* key : {".diverged_dts", ".fell_dts"})
      EXPECT_TRUE(std::any_of(r.summary_lists.begin(), r.summary_lists.end(), [&](const auto& kv) {
        return kv.first == n + key;
      })) << n + key;
    // summary.json names each row's servo.
    EXPECT_TRUE(std::any_of(r.summary_text.begin(), r.summary_text.end(), [&](const auto& kv) {
      return kv.first == n + ".servo" && kv.second == sv;
    })) << n + ".servo";
    const std::string objective = n == "euler"                       ? "-"
                                  : n.find("-dissipation") != n.npos ? "dissipation"
                                                                     : "kinetic";
    for (size_t i : rows) EXPECT_EQ(t.str(i, "objective"), objective) << n;
    EXPECT_TRUE(std::any_of(r.summary_text.begin(), r.summary_text.end(), [&](const auto& kv) {
      return kv.first == n + ".objective" && kv.second == objective;
    })) << n + ".objective";
  }
  for (size_t i = 0; i < t.rows.size(); ++i) {
    SCOPED_TRACE(t.str(i, "integrator") + " " + t.str(i, "gait") + " dt " + t.str(i, "dt"));
    for (const char* c : {"t_end", "tilt_max_deg", "walk_distance", "alpha_cuts"})
      EXPECT_TRUE(std::isfinite(t.num(i, c))) << c;
    // Steps above tol are counted among the steps the run took.
    EXPECT_GE(t.num(i, "capped_steps"), 0.0);
    EXPECT_LE(t.num(i, "capped_steps"), std::round(t.num(i, "t_end") / t.num(i, "dt")) + 1e-9);
  }
  // The torso's height at t = 0.2 s, before the jump's crouch (the series has a row every 10 ms,
  // or every step above 10 ms).
  auto final_height = [&](const std::string& integrator, const std::string& gait,
                          const std::string& dt) {
    for (size_t k : series.where({{"integrator", integrator}, {"gait", gait}, {"dt", dt}}))
      if (std::abs(series.num(k, "t") - 0.2) < 1e-9) return series.num(k, "height");
    return std::nan("");
  };
  for (const char* integrator : {"mdp-implicit", "nmdp"})
    for (size_t i : t.where({{"integrator", integrator}})) {
      const std::string gait = t.str(i, "gait"), dt = t.str(i, "dt");
      SCOPED_TRACE(std::string(integrator) + " " + gait + " dt " + dt);
      EXPECT_EQ(t.str(i, "diverged"), "no") << t.str(i, "reason");
      EXPECT_EQ(t.str(i, "fell"), "no") << t.str(i, "reason");
      EXPECT_EQ(t.num(i, "capped_steps"), 0.0);  // every QP and PGM step within its tolerance
      EXPECT_NEAR(t.num(i, "t_end"), 0.5, 1e-9);
      EXPECT_LT(t.num(i, "tilt_max_deg"), 10.0);
      // Standing: feet 0.34 m below the hips (gait.hpp), trunk centre about 0.38-0.44 m up.
      const double h = final_height(integrator, gait, dt);
      EXPECT_GT(h, 0.33);
      EXPECT_LT(h, 0.47);
      // Both integrators follow the same reference with the same contact model: mdp's height
      // within 2 cm of nmdp's (once per gait and dt, not nmdp against itself).
      if (std::string(integrator) == "mdp-implicit")
        EXPECT_NEAR(h, final_height("nmdp", gait, dt), 0.02);
      // MDP's objective (Pan & Hauser, eq. 6) is not Coulomb's law: the walk's stance feet slide
      // (docs/integrators.md, "Stance feet slide"), where a block alone sticks (NmdpCoulomb).
      if (gait == "walk") EXPECT_GE(t.num(i, "slip_fraction"), 0.9);
      // mdp: one QP per step; nmdp: at least one PGM outer iteration.
      EXPECT_GE(t.num(i, "outer_mean"), 1.0);
      EXPECT_TRUE(std::string(integrator) != "mdp-implicit" || t.num(i, "outer_mean") == 1.0);
    }
  // With the dissipation objective mdp's stance feet hold (NmdpCoulomb; nmdp's to first order in
  // h) and the trunk walks: over
  // 0.5 s the gait commands 0.2 m (0.4 m/s, scenes/gait.hpp); measured 0.12-0.17 m, against
  // 0.001-0.011 m for the same integrator with eq. 6's objective.
  for (const char* integrator : {"mdp-implicit", "nmdp"})
    for (size_t i : t.where({{"integrator", std::string(integrator) + "-dissipation"}})) {
      const std::string gait = t.str(i, "gait"), dt = t.str(i, "dt");
      SCOPED_TRACE(std::string(integrator) + "-dissipation " + gait + " dt " + dt);
      EXPECT_EQ(t.str(i, "diverged"), "no") << t.str(i, "reason");
      EXPECT_EQ(t.str(i, "fell"), "no") << t.str(i, "reason");
      EXPECT_EQ(t.num(i, "capped_steps"), 0.0);
      if (gait != "walk") continue;
      const std::vector<size_t> paper =
          t.where({{"integrator", integrator}, {"gait", gait}, {"dt", dt}});
      ASSERT_EQ(paper.size(), 1u);
      EXPECT_GT(t.num(i, "walk_distance"), 0.1);
      EXPECT_LT(t.num(paper[0], "walk_distance"), 0.03);
    }
  // The paper's contrast: forward-Euler mdp with the explicit servo fails at both steps (diverged
  // or fell), backward-Euler nmdp at neither.
  std::map<std::string, std::vector<double>> lists(r.summary_lists.begin(), r.summary_lists.end());
  // The dts every row ran: nmdp-zo(-pbd) ran only 50 ms in the quick sweep.
  EXPECT_EQ(lists["common_dts"], std::vector<double>{0.05});
  for (double dt : {0.02, 0.05}) {
    const auto has = [&](const std::string& key) {
      return std::find(lists[key].begin(), lists[key].end(), dt) != lists[key].end();
    };
    EXPECT_TRUE(has("mdp.diverged_dts") || has("mdp.fell_dts")) << dt;
  }
  for (const char* key :
       {"nmdp.diverged_dts", "nmdp.fell_dts", "mdp-implicit.diverged_dts", "mdp-implicit.fell_dts"})
    EXPECT_TRUE(lists[key].empty()) << key;
  EXPECT_TRUE(std::isnan(t.num(t.where({{"integrator", "euler"}}).front(), "outer_mean")));
  const std::vector<FigureFile> figs = experiment_figures(r);
  ASSERT_EQ(figs.size(), 1u);
  EXPECT_EQ(figs[0].name, "nmdp-stability.svg");
  for (const char* title :
       {"Time upright", "PGM outer iterations per step", "Walk: forward", "nmdp: jump, torso tilt",
        "PGM outer iterations per step (all dts", "Alg. 2: smallest sub-step"})
    EXPECT_NE(figs[0].svg.find(title), std::string::npos) << title;
  // The outer-iteration histogram counts every step of every run that did not stop early, and
  // mdp solves one QP per step.
  const Table& hist = table(r, "nmdp-stability-outer");
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const std::string integrator = t.str(i, "integrator");
    if (integrator == "euler" || t.str(i, "diverged") == "yes" || t.str(i, "fell") == "yes")
      continue;
    double steps = 0.0;
    for (size_t h : hist.where(
             {{"integrator", integrator}, {"gait", t.str(i, "gait")}, {"dt", t.str(i, "dt")}})) {
      steps += hist.num(h, "steps");
      if (integrator.rfind("mdp", 0) == 0) EXPECT_EQ(hist.num(h, "outer"), 1.0);
    }
    EXPECT_EQ(steps, std::round(0.5 / t.num(i, "dt"))) << integrator;
  }
  // Alg. 2's sub-step is dt or a halving of it.
  for (size_t i = 0; i < series.rows.size(); ++i) {
    const double alpha = series.num(i, "alpha");
    if (std::isnan(alpha)) continue;
    EXPECT_EQ(alpha, std::exp2(std::round(std::log2(alpha)))) << alpha;
    EXPECT_LE(alpha, 1.0);
  }
}

// summary.json holds the lists after the numbers, non-finite entries as null.
TEST(BenchExperiments, SummaryJsonWritesLists) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "moreau_summary_lists_test").string();
  auto path =
      write_summary({{"a", 1.5}}, dir, {{"b", {0.005, NAN}}, {"c", {}}}, {{"d", "tan \"x\"\n"}});
  ASSERT_TRUE(path);
  std::ifstream f(*path);
  std::stringstream ss;
  ss << f.rdbuf();
  EXPECT_EQ(ss.str(),
            "{\n  \"a\": 1.5,\n  \"b\": [0.005, null],\n  \"c\": [],\n  \"d\": \"tan "
            "\\\"x\\\"\\u000a\"\n}\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace moreau::bench
