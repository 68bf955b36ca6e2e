// FCLib input: the permutation to [t, o, n], storage formats, bad input, the published LMGC
// problem solved by the NCP solvers, and global problems reduced to local ones.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

#include "moreau/io/fclib.hpp"
#include "moreau/io/problem_io.hpp"
#include "moreau/ncp/residuals.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/solver.hpp"

#ifdef MOREAU_HAVE_HDF5
#include <hdf5.h>
#endif

using namespace moreau;

namespace {

std::string shared_dir() {
  if (const char* e = std::getenv("MOREAU_SHARED_DIR")) return e;
  return std::string(MOREAU_SOURCE_DIR) + "/../shared";
}
std::string fclib_file(const std::string& name) {
  return shared_dir() + "/fclib/" + name;
}
const char kLmgc[] = "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5";

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("moreau_test_fclib_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// A 2-contact local problem in FCLib order [n, t1, t2] with distinct entries.
Eigen::SparseMatrix<double> small_W() {
  MatX W(6, 6);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) W(r, c) = (r == c ? 10.0 : 0.0) + 0.1 * r + 0.01 * c;
  W.block(0, 3, 3, 3).setZero();  // contacts uncoupled in the upper right: one block omitted
  return W.sparseView(1.0, 0.0);
}
}  // namespace

TEST(FclibConvert, PermutesNormalFirstToTON) {
  const Eigen::SparseMatrix<double> W = small_W();
  VecX q(6), mu(2);
  q << 1, 2, 3, 4, 5, 6;
  mu << 0.3, 0.5;
  auto r = fclib_local_problem(W, q, mu, "mem");
  ASSERT_TRUE(r) << r.error().message();
  const Problem& p = r->problem;
  EXPECT_EQ(p.validate(), "");
  EXPECT_EQ(p.nl, 6);
  EXPECT_EQ(r->contacts, 2);
  EXPECT_EQ(p.num_bodies, 0);
  // v_f = [t1, t2, n] per contact.
  EXPECT_EQ(p.v_f, (VecX(6) << 2, 3, 1, 5, 6, 4).finished());
  EXPECT_EQ(p.blocks[1].mu, 0.5);
  MatX D;
  p.D.to_dense(D);
  const MatX Wd(W);
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      const int fa = 3 * (a / 3) + fclib_coordinate(a % 3),
                fb = 3 * (b / 3) + fclib_coordinate(b % 3);
      EXPECT_EQ(D(a, b), Wd(fa, fb)) << a << ", " << b;
    }
  EXPECT_EQ(p.D.nnz_blocks(), 3);  // the zero block (0, 1) is not stored
  EXPECT_NEAR(r->asymmetry, (Wd - Wd.transpose()).cwiseAbs().maxCoeff() / Wd.cwiseAbs().maxCoeff(),
              1e-15);
}

TEST(FclibConvert, RejectsBadData) {
  const Eigen::SparseMatrix<double> W = small_W();
  VecX q = VecX::Zero(6), mu(2);
  mu << 0.3, -0.1;
  auto r = fclib_local_problem(W, q, mu, "f.hdf5");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("mu[1]"), std::string::npos) << r.error().message();
  EXPECT_NE(r.error().message().find("f.hdf5"), std::string::npos);
  mu << 0.3, 0.1;
  q[4] = NAN;
  r = fclib_local_problem(W, q, mu, "f.hdf5");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("q[4]"), std::string::npos) << r.error().message();
  r = fclib_local_problem(W, VecX::Zero(5), mu, "f.hdf5");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("q"), std::string::npos);
}

TEST(FclibConvert, GlobalReductionMatchesDefinition) {
  // M v = H r + f, u = H^T v + w  =>  W = H^T M^-1 H, q = H^T M^-1 f + w.
  MatX M = MatX::Zero(4, 4), H(4, 3);
  M.diagonal() << 2, 4, 1, 5;
  M(0, 1) = M(1, 0) = 0.5;
  H << 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 1, 1;
  VecX f(4), w(3), mu(1);
  f << 1, -2, 0.5, 3;
  w << 0.1, 0.2, -0.3;
  mu << 0.4;
  auto r = fclib_global_problem(M.sparseView(), H.sparseView(), f, w, mu, "mem");
  ASSERT_TRUE(r) << r.error().message();
  const MatX W = H.transpose() * M.inverse() * H;
  const VecX q = H.transpose() * M.inverse() * f + w;
  MatX D;
  r->problem.D.to_dense(D);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(r->problem.v_f[a], q[fclib_coordinate(a)], 1e-14);
    for (int b = 0; b < 3; ++b)
      EXPECT_NEAR(D(a, b), W(fclib_coordinate(a), fclib_coordinate(b)), 1e-14);
  }
  EXPECT_EQ(r->kind, "global");
  M(2, 2) = -1.0;  // not positive definite
  EXPECT_FALSE(fclib_global_problem(M.sparseView(), H.sparseView(), f, w, mu, "mem"));
}

TEST(FclibConvert, GlobalReductionOfManyBodiesIsSparseAndExact) {
  // 20 bodies with SPD 6x6 mass blocks, 15 contacts each on one or two bodies: W = H^T M^-1 H
  // couples two contacts exactly where they share a body, and D stores exactly those blocks.
  const int nb = 20, nc = 15, n = 6 * nb, m = 3 * nc;
  std::srand(7);
  auto uniform = [] { return 2.0 * std::rand() / RAND_MAX - 1.0; };
  MatX M = MatX::Zero(n, n), H = MatX::Zero(n, m);
  for (int b = 0; b < nb; ++b) {
    MatX A(6, 6);
    for (int i = 0; i < 36; ++i) A(i) = uniform();
    M.block(6 * b, 6 * b, 6, 6) = A * A.transpose() + MatX::Identity(6, 6);
  }
  std::vector<std::vector<int>> bodies(nc);
  for (int c = 0; c < nc; ++c) {
    bodies[c] = {c % nb};
    if (c % 3 != 0) bodies[c].push_back((c * 7 + 3) % nb);
    for (int b : bodies[c])
      for (int i = 0; i < 6; ++i)
        for (int k = 0; k < 3; ++k) H(6 * b + i, 3 * c + k) = uniform();
  }
  VecX f(n), w(m), mu = VecX::Constant(nc, 0.5);
  for (int i = 0; i < n; ++i) f[i] = uniform();
  for (int i = 0; i < m; ++i) w[i] = uniform();
  auto r = fclib_global_problem(M.sparseView(), H.sparseView(), f, w, mu, "mem");
  ASSERT_TRUE(r) << r.error().message();
  const MatX W = H.transpose() * M.llt().solve(H);
  const VecX q = H.transpose() * M.llt().solve(f) + w;
  MatX D;
  r->problem.D.to_dense(D);
  const double scale = W.lpNorm<Eigen::Infinity>();
  for (int i = 0; i < nc; ++i) {
    int stored = 0;
    for (int e = r->problem.D.row_start(i); e < r->problem.D.row_start(i + 1); ++e) ++stored;
    int shares = 0;
    for (int j = 0; j < nc; ++j) {
      bool share = false;
      for (int a : bodies[i])
        for (int b : bodies[j]) share = share || a == b;
      shares += share;
      for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(r->problem.v_f[3 * i + a], q[3 * i + fclib_coordinate(a)], 1e-12);
        for (int b = 0; b < 3; ++b)
          EXPECT_NEAR(D(3 * i + a, 3 * j + b),
                      W(3 * i + fclib_coordinate(a), 3 * j + fclib_coordinate(b)), 1e-13 * scale);
      }
    }
    EXPECT_EQ(stored, shares) << "contact " << i;
  }
}

TEST(Fclib, MissingAndNonHdf5Files) {
  auto r = load_fclib("/nonexistent/dir/x.hdf5");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("/nonexistent/dir/x.hdf5"), std::string::npos);
  const std::string txt = temp_path("not.hdf5");
  std::ofstream(txt) << "plain text, not HDF5\n";
  r = load_fclib(txt);
  std::remove(txt.c_str());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find(txt), std::string::npos) << r.error().message();
}

#ifdef MOREAU_HAVE_HDF5
namespace {
// Writes an FCLib local problem with W in the requested storage (FCLib's own layout).
// Integers are stored as int_type, the vectors as real_type (memory types are native).
void write_local(const std::string& path, const MatX& W, const VecX& q, const VecX& mu,
                 int storage /* -2 CSR, -1 CSC, 0 triplet, 1 dense */, bool with_q = true,
                 hid_t int_type = H5T_NATIVE_INT, hid_t real_type = H5T_NATIVE_DOUBLE,
                 hid_t dcpl = H5P_DEFAULT) {
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  auto group = [&](const char* name) {
    H5Gclose(H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  };
  auto write = [&](const std::string& name, hid_t type, const void* data, hsize_t n, int rank = 1,
                   hsize_t n2 = 0) {
    hsize_t dims[2] = {n, n2};
    const hid_t sp = H5Screate_simple(rank, dims, nullptr);
    const hid_t stored = type == H5T_NATIVE_INT ? int_type : real_type;
    const hid_t ds = H5Dcreate2(f, name.c_str(), stored, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
    H5Sclose(sp);
  };
  group("/fclib_local");
  group("/fclib_local/vectors");
  const int m = static_cast<int>(W.rows());
  if (storage == 1) {
    const Eigen::Matrix<double, -1, -1, Eigen::RowMajor> A = W;
    write("/fclib_local/W", H5T_NATIVE_DOUBLE, A.data(), m, 2, m);
  } else {
    group("/fclib_local/W");
    std::vector<int> p, i;
    std::vector<double> x;
    if (storage == 0) {
      for (int c = 0; c < m; ++c)
        for (int r = 0; r < m; ++r)
          if (W(r, c) != 0.0) i.push_back(r), p.push_back(c), x.push_back(W(r, c));
    } else {
      p.push_back(0);
      for (int o = 0; o < m; ++o) {
        for (int k = 0; k < m; ++k) {
          const double v = storage == -2 ? W(o, k) : W(k, o);
          if (v != 0.0) i.push_back(k), x.push_back(v);
        }
        p.push_back(static_cast<int>(i.size()));
      }
    }
    const int nz = storage == 0 ? static_cast<int>(x.size()) : storage,
              nzmax = static_cast<int>(x.size());
    write("/fclib_local/W/m", H5T_NATIVE_INT, &m, 1);
    write("/fclib_local/W/n", H5T_NATIVE_INT, &m, 1);
    write("/fclib_local/W/nz", H5T_NATIVE_INT, &nz, 1);
    write("/fclib_local/W/nzmax", H5T_NATIVE_INT, &nzmax, 1);
    write("/fclib_local/W/p", H5T_NATIVE_INT, p.data(), p.size());
    write("/fclib_local/W/i", H5T_NATIVE_INT, i.data(), i.size());
    write("/fclib_local/W/x", H5T_NATIVE_DOUBLE, x.data(), x.size());
  }
  if (with_q) write("/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, q.data(), q.size());
  write("/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, mu.data(), mu.size());
  H5Fclose(f);
}
}  // namespace

TEST(Fclib, AllStoragesGiveTheSameProblem) {
  const MatX W(small_W());
  VecX q(6), mu(2);
  q << 1, 2, 3, 4, 5, 6;
  mu << 0.3, 0.5;
  MatX ref;
  for (int storage : {-2, -1, 0, 1}) {
    const std::string path = temp_path("s" + std::to_string(storage + 2) + ".hdf5");
    write_local(path, W, q, mu, storage);
    auto r = load_fclib(path);
    std::remove(path.c_str());
    ASSERT_TRUE(r) << storage << ": " << r.error().message();
    MatX D;
    r->problem.D.to_dense(D);
    if (ref.size() == 0) ref = D;
    EXPECT_EQ(D, ref) << "storage " << storage;
    EXPECT_EQ(r->problem.v_f[2], 1.0);
  }
}

// FCLib writers store native little-endian numbers; HDF5 files may also hold big-endian,
// single-precision or narrow integers, which libhdf5 converts on read and moreau's own reader of
// contiguous data decodes.
TEST(Fclib, StoredNumberFormatsReadAsWritten) {
  const MatX W(small_W());
  VecX q(6), mu(2);
  q << 0.1, -2, 3.25, 4, 1e-3, 6;
  mu << 0.3, 0.5;
  const std::string ref_path = temp_path("native.hdf5");
  write_local(ref_path, W, q, mu, -1);
  auto ref = load_fclib(ref_path);
  std::remove(ref_path.c_str());
  ASSERT_TRUE(ref) << ref.error().message();
  struct Case {
    hid_t int_type, real_type;
    int storage;  // unsigned integers cannot hold CSC's nz = -1: triplets
    const char* what;
    hid_t dcpl = H5P_DEFAULT;
  };
  const hid_t compact = H5Pcreate(H5P_DATASET_CREATE);  // values in the dataset's header
  H5Pset_layout(compact, H5D_COMPACT);
  for (const Case& c : {Case{H5T_STD_I32BE, H5T_IEEE_F64BE, -1, "big-endian"},
                        Case{H5T_STD_U16LE, H5T_IEEE_F64LE, 0, "uint16"},
                        Case{H5T_STD_I64BE, H5T_IEEE_F32BE, -2, "int64, binary32"},
                        Case{H5T_NATIVE_INT, H5T_NATIVE_DOUBLE, -2, "compact", compact}}) {
    const std::string path = temp_path("fmt.hdf5");
    write_local(path, W, q, mu, c.storage, true, c.int_type, c.real_type, c.dcpl);
    auto r = load_fclib(path);
    std::remove(path.c_str());
    ASSERT_TRUE(r) << c.what << ": " << r.error().message();
    MatX D, D_ref;
    r->problem.D.to_dense(D);
    ref->problem.D.to_dense(D_ref);
    const bool single = c.real_type == H5T_IEEE_F32BE;
    const double tol = single ? 1e-6 * D_ref.cwiseAbs().maxCoeff() : 0.0;
    EXPECT_LE((D - D_ref).cwiseAbs().maxCoeff(), tol) << c.what;
    EXPECT_LE((r->problem.v_f - ref->problem.v_f).cwiseAbs().maxCoeff(), single ? 1e-6 : 0.0)
        << c.what;
    if (single) {
      EXPECT_NE(r->problem.v_f, ref->problem.v_f) << "binary32 rounds 0.1 and 1e-3";
    }
  }
  H5Pclose(compact);
}

TEST(Fclib, MissingDatasetIsNamed) {
  const std::string path = temp_path("noq.hdf5");
  write_local(path, MatX(small_W()), VecX::Zero(6), VecX::Constant(2, 0.3), -2, false);
  auto r = load_fclib(path);
  std::remove(path.c_str());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("/fclib_local/vectors/q"), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find("missing"), std::string::npos);
  // Dimension mismatch: three friction coefficients for two contacts.
  write_local(path, MatX(small_W()), VecX::Zero(6), VecX::Constant(3, 0.3), -1);
  r = load_fclib(path);
  std::remove(path.c_str());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("/fclib_local/vectors/mu"), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find(path), std::string::npos);
}

// A dataset may declare far more values than the file stores (chunked, never written: libhdf5
// returns its fill value). The declared extent is refused before anything is allocated.
TEST(Fclib, ExtentBeyondTheFileIsRefusedBeforeAllocating) {
  const std::string path = temp_path("hugeq.hdf5");
  write_local(path, MatX(small_W()), VecX::Zero(6), VecX::Constant(2, 0.3), -2, false);
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hsize_t dims[1] = {hsize_t{1} << 36}, chunk[1] = {1024};  // 2^36 doubles: 512 GiB
  const hid_t sp = H5Screate_simple(1, dims, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, chunk);
  H5Dclose(H5Dcreate2(f, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, dcpl,
                      H5P_DEFAULT));
  H5Pclose(dcpl);
  H5Sclose(sp);
  H5Fclose(f);
  const auto r = load_fclib(path);
  std::remove(path.c_str());
  ASSERT_FALSE(r);
  const std::string msg = r.error().message();
  EXPECT_NE(msg.find("/fclib_local/vectors/q"), std::string::npos) << msg;
  EXPECT_NE(msg.find("68719476736 entries"), std::string::npos) << msg;
  // A sparse W whose m and n name 2^28 rows and columns: refused before the column starts.
  write_local(path, MatX(small_W()), VecX::Zero(6), VecX::Constant(2, 0.3), -1);
  const hid_t g = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const int huge = 1 << 28;
  for (const char* name : {"/fclib_local/W/m", "/fclib_local/W/n"}) {
    const hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &huge);
    H5Dclose(ds);
  }
  H5Fclose(g);
  const auto w = load_fclib(path);
  std::remove(path.c_str());
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().message().find("rows and columns (file size), got 268435456, 268435456"),
            std::string::npos)
      << w.error().message();
}
#endif

namespace {
// Loads a shared FCLib file, or returns nullopt when the shared data is absent.
std::optional<FclibProblem> load_shared(const std::string& name) {
  const std::string path = fclib_file(name);
  if (!std::filesystem::exists(path)) return std::nullopt;
  auto r = load_fclib(path);
  EXPECT_TRUE(r) << r.error().message();
  if (!r) return std::nullopt;
  return std::move(*r);
}
}  // namespace

// load_fclib reads in a child process: the same problem, bit for bit, as the in-process read,
// and a file on which libhdf5 1.10 itself segfaults is an Error of the caller.
TEST(FclibShared, ChildProcessReadGivesTheSameBits) {
  for (const char* name : {"Box_Stacks-i0122-82-5.hdf5", "CubeH8.hdf5"}) {
    const std::string path = fclib_file(name);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "shared FCLib data absent";
    auto a = load_fclib(path), b = load_fclib_in_process(path);
    ASSERT_TRUE(a && b) << name;
    EXPECT_EQ(problem_to_bytes(a->problem), problem_to_bytes(b->problem)) << name;
    EXPECT_GT(a->problem.nl, 0) << name;
    EXPECT_EQ(a->solution, b->solution) << name;
    EXPECT_EQ(a->title, b->title) << name;
    EXPECT_EQ(a->contacts, b->contacts) << name;
  }
}

TEST(Fclib, LibHdf5CrashIsAnError) {
  const std::string path = std::string(MOREAU_SOURCE_DIR) +
                           "/fuzz/corpus/fclib/regressions/fclib-hdf5-segv-in-H5F-accum-read";
  const auto r = load_fclib(path);
  ASSERT_FALSE(r);
  // SIGSEGV; under the sanitizers, ASan catches it in the child and aborts (SIGABRT).
  EXPECT_NE(r.error().message().find("libhdf5 crashed reading it (signal "), std::string::npos)
      << r.error().message();
  EXPECT_NE(r.error().message().find(path), std::string::npos);
}

TEST(FclibShared, LmgcPerioBoxSolvedByTheNcpSolvers) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const auto r = load_shared(kLmgc);
  if (!r) GTEST_SKIP() << "shared FCLib data not found (set MOREAU_SHARED_DIR)";
  const Problem& p = r->problem;
  EXPECT_EQ(r->kind, "local");
  EXPECT_EQ(r->contacts, 60);
  EXPECT_EQ(p.nl, 180);
  EXPECT_EQ(p.validate(), "");
  EXPECT_LT(r->asymmetry, 1e-12);  // this file stores a symmetric W (measured 1.6e-16)
  // Measured (tol 1e-8, cold start): pgs-ccp 930 sweeps, pgs-ncp 2080, nbgs = raisim 780,
  // raisim-ds 635; every one ends with r_natmap < 1e-8 at |lambda| ~ 1.5e5.
  for (const char* name : {"pgs-ccp", "pgs-ncp", "nbgs", "raisim", "raisim-ds"}) {
    SolverSettings s;
    s.tol = 1e-8;
    s.max_iters = 5000;
    SolverWorkspace ws;
    Solution sol;
    ASSERT_TRUE(solve(name, p, s, {}, ws, sol));
    EXPECT_TRUE(sol.converged()) << name << ": " << status_name(sol.status);
    EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap, 1e-8) << name;
  }
}

// W has rank 72 of 180 and impulses reach 1e5 against entries of 1e-4: Lemke needs the scaled
// LCP and a relative pivot tolerance here (with neither it lost feasibility after 41 pivots and
// stopped on a false ray). Measured: converged after 327 pivots, LCP residual 1.5e-11.
TEST(FclibShared, LmgcPerioBoxSolvedByLemke) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const auto r = load_shared(kLmgc);
  if (!r) GTEST_SKIP() << "shared FCLib data not found (set MOREAU_SHARED_DIR)";
  const Problem& p = r->problem;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("lemke", p, SolverSettings{}, {}, ws, sol));
  ASSERT_TRUE(sol.converged()) << sol.message;
  EXPECT_LT(sol.residual, 1e-10);  // max |min(z, w)| of the pyramid LCP
  // v+ = D lambda + v_f is in the dual cone and lambda in the pyramid (inside K_mu).
  const NcpResiduals res = ncp_residuals(p, sol.lambda, sol.v_plus, true);
  EXPECT_LT(res.primal, 1e-10 * sol.lambda.cwiseAbs().maxCoeff());
  EXPECT_LT(res.dual, 1e-10);
}

TEST(FclibShared, BoxStacksGlobalProblem) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const auto r = load_shared("Box_Stacks-i0122-82-5.hdf5");
  if (!r) GTEST_SKIP() << "shared FCLib data not found";
  const Problem& p = r->problem;
  EXPECT_EQ(r->kind, "global");
  EXPECT_EQ(r->contacts, 82);
  EXPECT_LT(r->asymmetry, 1e-12);  // H^T M^-1 H is symmetric up to rounding
  // The stored /solution is a placeholder (all zeros, natmap 3e-3): not ground truth.
  ASSERT_EQ(r->solution.size(), p.nl);
  EXPECT_EQ(r->solution.cwiseAbs().maxCoeff(), 0.0);
  SolverSettings s;
  s.tol = 1e-9;
  s.max_iters = 2000;
  SolverWorkspace ws;
  Solution sol;
  ASSERT_TRUE(solve("nbgs-exact", p, s, {}, ws, sol));
  EXPECT_TRUE(sol.converged());
  EXPECT_LE(ncp_residuals(p, sol.lambda, sol.v_plus, true).natmap, 1e-9);
}

TEST(FclibShared, OtherGlobalProblemsLoad) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const auto spheres = load_shared("spheres-in-a-box-98-i10000-256-10.hdf5");
  const auto cube = load_shared("CubeH8.hdf5");
  if (!spheres || !cube) GTEST_SKIP() << "shared FCLib data not found";
  EXPECT_EQ(spheres->contacts, 256);
  EXPECT_EQ(spheres->problem.validate(), "");
  EXPECT_EQ(cube->contacts, 1);
  EXPECT_EQ(cube->problem.validate(), "");
}

namespace {
// The Problem of the first step of `scene` that has constraint rows.
Problem first_constrained_problem(const std::string& scene) {
  Result<Scene> sc = make_builtin_scene(scene);
  EXPECT_TRUE(sc);
  Simulator sim(sc->model, sc->settings);
  State s = sc->initial;
  for (int k = 0; k < 2000 && sim.step(s); ++k)
    if (sim.problem().nl > 0) return sim.problem();
  ADD_FAILURE() << scene << ": no constrained step";
  return {};
}
}  // namespace

TEST(FclibWrite, ContactProblemRoundTripsExactly) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const Problem p = first_constrained_problem("box-stack");
  ASSERT_GT(p.nl, 3);
  const std::string path = temp_path("roundtrip.hdf5");
  ASSERT_FALSE(save_fclib_local(p, path, "box-stack", "test"));
  auto r = load_fclib(path);
  std::remove(path.c_str());
  ASSERT_TRUE(r) << r.error().message();
  EXPECT_EQ(r->title, "box-stack");
  EXPECT_EQ(r->problem.nl, p.nl);
  MatX D0, D1;
  p.D.to_dense(D0);
  r->problem.D.to_dense(D1);
  EXPECT_EQ(D1, D0);  // doubles stored as they are, permutation undone
  EXPECT_EQ(r->problem.v_f, p.v_f);
  for (size_t c = 0; c < p.blocks.size(); ++c) EXPECT_EQ(r->problem.blocks[c].mu, p.blocks[c].mu);
  // The same solver gives the same impulses on both.
  SolverSettings st;
  st.tol = 1e-9;
  SolverWorkspace ws;
  Solution a, b;
  ASSERT_TRUE(solve("admm-ncp-sa", p, st, {}, ws, a));
  ASSERT_TRUE(solve("admm-ncp-sa", r->problem, st, {}, ws, b));
  EXPECT_TRUE(a.converged());
  EXPECT_EQ(a.lambda, b.lambda);
}

TEST(FclibWrite, JointRowsAreRefusedAndNoFileIsLeft) {
  if (!fclib_supported()) GTEST_SKIP() << "built without HDF5";
  const Problem p = first_constrained_problem("fourbar-fixed");
  const std::string path = temp_path("joints.hdf5");
  auto e = save_fclib_local(p, path, "fourbar-fixed", "");
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("joint rows"), std::string::npos) << e->message();
  EXPECT_FALSE(std::filesystem::exists(path));
}
