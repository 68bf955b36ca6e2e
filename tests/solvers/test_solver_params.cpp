// The per-solver parameter tables (solver_params.hpp): defaults equal what the solvers use when a
// parameter is unset, setting by name validates keys and ranges, scene JSON writes and reads back
// non-default parameters (tests/io/test_solver_params_json.cpp), and docs/solvers.md carries the
// tables verbatim.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "implicit_problems.hpp"
#include "moreau/solvers/solver_params.hpp"
#include "param_values.hpp"
#include "sap_problems.hpp"

using namespace moreau;
using testing_params::other_value;

namespace {

// A problem every solver can run on: five contacts, one ball joint and one limit for the contact
// solvers, a joint-only one for "direct", contacts only for the peers (siconos-*).
Problem problem_for(const SolverInfo& s) {
  std::mt19937 rng(7);
  if (!s.handles_contacts) return testing_problems::random_contacts(rng, 2, 0, 0.5, 1.0, 1, 0);
  if (s.contacts_only) return testing_problems::random_contacts(rng, 3, 5, 0.5, 1.0);  // siconos-*
  if (s.name == "sap")
    return testing_problems::random_primal(rng, 3, 4, 0.5, 1);  // needs the primal view
  return testing_problems::random_contacts(rng, 3, 5, 0.5, 1.0, 1, 1);
}

Solution run_with(const SolverInfo& info, const Problem& p, const SolverSettings& s) {
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(info.name, p, s, {}, ws, sol)) << sol.message;
  return sol;
}

bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() && (a.array() == b.array()).all();
}

}  // namespace

// Every table row's default is what its solver uses when the parameter is unset: setting the
// parameter to the table's default gives bit-identical results (lambda, iterations, status).
TEST(SolverParams, TableDefaultsAreTheSolversDefaults) {
  int checked = 0;
  for (const SolverInfo& info : solver_registry()) {
    const Problem p = problem_for(info);
    SolverSettings base;
    base.max_iters = 300;
    const Solution ref = run_with(info, p, base);
    ASSERT_GT(ref.iterations, 0) << info.name;
    std::set<std::string_view> names;
    for (const ParamSpec& spec : info.params) {
      SCOPED_TRACE(std::string(info.name) + " " + std::string(spec.name));
      EXPECT_TRUE(names.insert(spec.name).second) << "duplicate key";
      // A default that depends on the Problem (sap's tau_d = (beta / pi) dt) has no number: NaN,
      // and the field stays unset.
      if (std::isnan(spec.default_value)) {
        EXPECT_FALSE(spec.follows.empty());
        EXPECT_FALSE(spec.get(SolverSettings{}).has_value());
        continue;
      }
      EXPECT_TRUE(spec.default_value >= spec.min && spec.default_value <= spec.max);
      // The stored default of a plain field is the table's; an optional field is unset.
      const std::optional<double> stored = spec.get(SolverSettings{});
      if (stored) EXPECT_EQ(*stored, spec.default_value);
      SolverSettings s = base;
      ASSERT_EQ(set_solver_param(s, info, spec.name, spec.default_value), "");
      const Solution sol = run_with(info, p, s);
      EXPECT_TRUE(same_bits(sol.lambda, ref.lambda));
      EXPECT_EQ(sol.iterations, ref.iterations);
      EXPECT_EQ(sol.status, ref.status);
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
}

// Each table row sets the field it reads back, and a non-default value changes nothing else.
TEST(SolverParams, AccessorsSetTheirOwnField) {
  for (const SolverInfo& info : solver_registry())
    for (const ParamSpec& spec : info.params) {
      SCOPED_TRACE(std::string(info.name) + " " + std::string(spec.name));
      SolverSettings s;
      const double v = other_value(spec);
      ASSERT_NE(v, spec.default_value);
      ASSERT_EQ(set_solver_param(s, info, spec.name, v), "");
      EXPECT_EQ(spec.get(s), v);
      for (const ParamSpec& other : info.params)
        if (other.name != spec.name) EXPECT_EQ(other.get(s), other.get(SolverSettings{}));
      const auto changed = changed_params(s, info);
      ASSERT_EQ(changed.size(), 1u);
      EXPECT_EQ(changed[0].first, spec.name);
    }
}

TEST(SolverParams, UnknownKeyListsTheValidOnes) {
  const SolverInfo& pgs = *find_solver("pgs-ncp");
  SolverSettings s;
  const std::string err = set_solver_param(s, pgs, "omgea", 1.2);
  EXPECT_NE(err.find("'omgea'"), std::string::npos) << err;
  for (const ParamSpec& p : pgs.params) {
    EXPECT_NE(err.find(std::string(p.name) + " " + param_range(p)), std::string::npos) << err;
  }
  // A key of another solver of the same family is unknown too (pgs-ncp reads no de_saxce).
  EXPECT_NE(set_solver_param(s, pgs, "de_saxce", 0.0), "");
  EXPECT_TRUE(s.pgs.de_saxce);
  EXPECT_EQ(set_solver_param(s, *find_solver("pgs-ccp"), "de_saxce", 0.0), "");
  EXPECT_FALSE(s.pgs.de_saxce);
}

TEST(SolverParams, OutOfRangeAndFractionalValuesAreErrors) {
  SolverSettings s;
  const SolverInfo& pgs = *find_solver("pgs-ccp");
  std::string err = set_solver_param(s, pgs, "omega_decay", 1.5);
  EXPECT_NE(err.find("[0, 1]"), std::string::npos) << err;
  EXPECT_NE(err.find("check_every"), std::string::npos) << err;  // lists the valid keys
  EXPECT_EQ(s.pgs.omega_decay, 1.0);                             // unchanged
  EXPECT_NE(set_solver_param(s, pgs, "check_every", 2.5), "");
  EXPECT_NE(set_solver_param(s, pgs, "check_every", 0.0), "");
  EXPECT_NE(set_solver_param(s, pgs, "de_saxce", 2.0), "");
  EXPECT_NE(set_solver_param(s, pgs, "omega", std::nan("")), "");
  EXPECT_NE(set_solver_param(s, *find_solver("lemke"), "directions", 2.0), "");
  EXPECT_NE(set_solver_param(s, *find_solver("admm-ncp-fp"), "rho", 0.0), "");  // open (0, inf)
  EXPECT_EQ(set_solver_param(s, pgs, "check_every", 3.0), "");
  EXPECT_EQ(s.pgs.check_every, 3);
}

// Per-solver defaults of a shared field: admm-ccp's eta is 0 (Sec. 3.8), the NCP variants' 1e-6.
TEST(SolverParams, AdmmEtaDefaultDependsOnTheSolver) {
  EXPECT_EQ(find_param(*find_solver("admm-ccp"), "eta")->default_value, 0.0);
  EXPECT_EQ(find_param(*find_solver("admm-ncp-fp"), "eta")->default_value, 1e-6);
  EXPECT_FALSE(SolverSettings{}.admm.eta.has_value());
}

// docs/solvers.md carries every table verbatim between its markers.
TEST(SolverParams, DocsTablesMatchTheRegistry) {
  const std::string path = std::string(MOREAU_SOURCE_DIR) + "/docs/solvers.md";
  std::ifstream f(path);
  ASSERT_TRUE(f) << path;
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- parameter tables: begin -->\n",
                    end = "<!-- parameter tables: end -->";
  const size_t a = doc.find(begin), b = doc.find(end);
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(b, std::string::npos);
  EXPECT_EQ(doc.substr(a + begin.size(), b - a - begin.size()), param_tables_markdown() + "\n")
      << "regenerate with: moreau solvers --markdown";
}

// The typed workspace slots: one workspace carried through every solver (and back to the first)
// gives the same bits as a fresh workspace per solve; whatever a slot holds never changes the
// result.
TEST(SolverWorkspace, SharedAcrossSolversGivesTheSameBits) {
  SolverWorkspace shared;
  for (int round = 0; round < 2; ++round)
    for (const SolverInfo& info : solver_registry()) {
      SCOPED_TRACE(std::string(info.name));
      const Problem p = problem_for(info);
      SolverSettings s;
      s.max_iters = 200;
      const Solution fresh = run_with(info, p, s);
      Solution again;
      ASSERT_TRUE(solve(info.name, p, s, {}, shared, again));
      EXPECT_TRUE(same_bits(again.lambda, fresh.lambda));
      EXPECT_EQ(again.iterations, fresh.iterations);
    }
}
