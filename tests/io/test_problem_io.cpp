// Problem dumps: bit-exact round trip of scene Problems (joints, limits, contacts, softening),
// bad files; and the PGS family on the same scene Problems.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <unistd.h>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/solvers/solver.hpp"

using namespace moreau;

namespace {

struct SceneProblem {
  Scene scene;
  std::unique_ptr<ProblemBuilder> builder;
  const Problem* p = nullptr;
};

// The Problem of the scene's first step (collision included).
SceneProblem first_problem(const std::string& name, bool soft = false) {
  SceneProblem sp;
  Result<Scene> sc = load_scene(name);
  EXPECT_TRUE(sc) << sc.error().message();
  sp.scene = std::move(*sc);
  CollisionDetector cd(sp.scene.model);
  const std::vector<Contact> contacts = cd.detect(sp.scene.initial, sp.scene.settings.collision);
  sp.builder = std::make_unique<ProblemBuilder>(sp.scene.model);
  DynamicsSettings ds = sp.scene.settings.dynamics;
  ds.softening.enabled = soft;
  sp.p = &sp.builder->build(sp.scene.initial, contacts, sp.scene.settings.dt, ds);
  return sp;
}

std::string problem_temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("moreau_test_pio_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

bool same_bits(const double* a, const double* b, Eigen::Index n) {
  // An empty vector's data() may be null, which memcmp must not see even for n = 0 (UBSan).
  return n == 0 || std::memcmp(a, b, static_cast<size_t>(n) * sizeof(double)) == 0;
}
template <class V>
bool same_values(const V& a, const V& b) {
  return a.size() == b.size() && same_bits(a.data(), b.data(), a.size());
}

void expect_identical(const Problem& a, const Problem& b) {
  EXPECT_EQ(a.nl, b.nl);
  EXPECT_EQ(a.num_bodies, b.num_bodies);
  EXPECT_TRUE(same_bits(&a.dt, &b.dt, 1));
  ASSERT_EQ(a.blocks.size(), b.blocks.size());
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const ConstraintBlock &x = a.blocks[i], &y = b.blocks[i];
    EXPECT_TRUE(x.kind == y.kind && x.cone == y.cone && x.offset == y.offset && x.size == y.size &&
                x.body[0] == y.body[0] && x.body[1] == y.body[1] && x.id == y.id &&
                x.source == y.source && x.dof == y.dof)
        << "block " << i;
    EXPECT_TRUE(same_bits(&x.mu, &y.mu, 1) && same_bits(&x.restitution, &y.restitution, 1));
    EXPECT_TRUE(same_values(x.J[0], y.J[0]) && same_values(x.J[1], y.J[1])) << "block " << i;
  }
  ASSERT_EQ(a.D.nnz_blocks(), b.D.nnz_blocks());
  for (int i = 0; i < a.D.num_blocks(); ++i) EXPECT_EQ(a.D.row_start(i), b.D.row_start(i));
  for (int e = 0; e < a.D.nnz_blocks(); ++e) {
    EXPECT_EQ(a.D.entry_col(e), b.D.entry_col(e));
    EXPECT_TRUE(same_bits(a.D.entry(e).data(), b.D.entry(e).data(), a.D.entry(e).size()));
  }
  ASSERT_EQ(a.M.size(), b.M.size());
  for (size_t k = 0; k < a.M.size(); ++k)
    EXPECT_TRUE(same_values(a.M[k], b.M[k]) && same_values(a.Minv[k], b.Minv[k]));
  EXPECT_EQ(a.has_dense, b.has_dense);
  if (a.has_dense) {
    EXPECT_TRUE(same_values(a.D_dense, b.D_dense));
  }
  for (auto f : {&Problem::u_minus, &Problem::generalized_force, &Problem::u_free})
    EXPECT_TRUE(same_values(a.*f, b.*f));
  for (auto f : {&Problem::v_f, &Problem::v_minus, &Problem::f, &Problem::R, &Problem::v_r})
    EXPECT_TRUE(same_values(a.*f, b.*f));
}

Solution solve_with(const std::string& solver, const Problem& p, double tol,
                    int max_iters = 20000) {
  SolverSettings s;
  s.tol = tol;
  s.max_iters = max_iters;
  SolverWorkspace ws;
  Solution sol;
  EXPECT_TRUE(solve(solver, p, s, {}, ws, sol)) << sol.message;
  return sol;
}
}  // namespace

TEST(ProblemIo, RoundTripIsBitExact) {
  for (const auto& [scene, soft] :
       {std::pair{"boxes-fixed", false}, std::pair{"box-stack", false},
        std::pair{"box-stack", true}, std::pair{"fourbar-fixed", false}}) {
    const SceneProblem sp = first_problem(scene, soft);
    const std::string path = problem_temp_path(std::string(scene) + kProblemExtension);
    ASSERT_FALSE(save_problem(*sp.p, path)) << scene;
    auto back = load_problem(path);
    std::remove(path.c_str());
    ASSERT_TRUE(back) << back.error().message();
    SCOPED_TRACE(scene);
    if (soft) {  // softening compliance is carried too
      EXPECT_EQ(sp.p->R.size(), sp.p->nl);
    }
    expect_identical(*sp.p, *back);
    // The same solver on both gives the same bits.
    const Solution a = solve_with("raisim", *sp.p, 1e-10, 500),
                   b = solve_with("raisim", *back, 1e-10, 500);
    EXPECT_TRUE(same_values(a.lambda, b.lambda));
  }
}

TEST(ProblemIo, BadFilesAreReported) {
  auto r = load_problem("/nonexistent/p.mprob");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("/nonexistent/p.mprob"), std::string::npos);
  const std::string path = problem_temp_path("bad.mprob");
  std::ofstream(path) << "hello\n";
  r = load_problem(path);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("MOREAU-PROBLEM"), std::string::npos) << r.error().message();
  // Truncated data.
  const SceneProblem sp = first_problem("box-stack");
  ASSERT_FALSE(save_problem(*sp.p, path));
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 8);
  r = load_problem(path);
  std::remove(path.c_str());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("truncated"), std::string::npos) << r.error().message();
}

TEST(PgsScenes, NcpSolversOnSceneProblems) {
  // Contacts, a weld with mass ratio 1000, stacks: every NCP member of the family reaches the
  // residual, and u+ agrees between the exact and the decoupled local solvers.
  for (const char* scene : {"boxes-fixed", "box-stack", "box-incline"}) {
    const SceneProblem sp = first_problem(scene);
    const Problem& p = *sp.p;
    ASSERT_GT(p.rows_of(RowKind::Contact), 0) << scene;
    for (const char* name : {"pgs-ccp", "nbgs", "raisim", "raisim-ds"}) {
      const Solution sol = solve_with(name, p, 1e-9);
      EXPECT_TRUE(sol.converged()) << scene << " " << name << " " << status_name(sol.status);
      EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap, 1e-8)
          << scene << " " << name;
    }
  }
}
