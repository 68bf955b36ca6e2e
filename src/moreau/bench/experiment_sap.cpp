// Experiments `sap-spring-cylinder` and `sap-clutter`: Castro, Permenter & Han 2023 (SAP),
// Sec. VI-B and VI-C, on the built-in scenes spring-cylinder and clutter
// (docs/benchmark-experiments.md).
//  - sap-spring-cylinder: the energy of the theta-method schemes (symplectic Euler, implicit
//    Euler, midpoint; Sec. II-C) at dt = 20 ms, frictionless and rolling (Figs. 5-6), and the
//    order of accuracy: slopes of log e_q against log dt over T = 5 s (Fig. 7), e_q the L2
//    position error against the exact solution x0 cos(w t).
//  - sap-clutter: 40 objects with walls, 10 s at dt = 10 ms: Newton iterations per step, the
//    momentum error e_m (eq. 32), the complementarity error e_mu (eq. 33), the mean slip at the
//    static end state against sigma mu dt g (eq. 31), and the wall-clock time per step against
//    the number of objects, with and without walls (Figs. 9-13).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "moreau/bench/experiment.hpp"
#include "moreau/solvers/sap.hpp"

namespace moreau::bench {

namespace {

constexpr double kG = 9.81;

struct Scheme {
  const char* name;
  Integrator integrator;
};
const Scheme kSchemes[] = {{"symplectic", Integrator::SapSymplecticEuler},
                           {"implicit", Integrator::SapImplicitEuler},
                           {"midpoint", Integrator::SapMidpoint}};

// Mechanical energy of the spring-cylinder: kinetic + spring 1/2 ks x^2 + gravity relative to
// the initial height (the contact's elastic energy is left out: the height is static).
double cylinder_energy(const Model& m, const State& s, double ks, double z0) {
  const Body& b = m.bodies()[0];
  const Mat3 R = s.q[0].toRotationMatrix();
  const Vec3 v = s.u[0].head<3>(), w = s.u[0].tail<3>();
  const double kinetic =
      0.5 * b.mass * v.squaredNorm() + 0.5 * w.dot(R * b.inertia * R.transpose() * w);
  const double x = s.r[0].x();
  return kinetic + 0.5 * ks * x * x + b.mass * kG * (s.r[0].z() - z0);
}

// Exact x(t) = x0 cos(w t), w^2 = ks / m_eff, m_eff = m (frictionless) or m + I / R^2 (rolling).
double omega(const Model& m, double ks, bool rolling) {
  const Body& b = m.bodies()[0];
  const double R = 0.05;
  const double m_eff = b.mass + (rolling ? b.inertia(2, 2) / (R * R) : 0.0);
  return std::sqrt(ks / m_eff);
}

// Least-squares slope of log y against log x.
double log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double a = std::log(x[i]), b = std::log(y[i]);
    sx += a, sy += b, sxx += a * a, sxy += a * b;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

ExperimentResult sap_spring_cylinder(const ExperimentOptions& o) {
  const double ks = 100.0, x0 = 0.1, dt_energy = 0.02;
  const double t_energy = o.quick ? 2.0 : 10.0, t_order = 5.0;
  // dt halves from 20 ms; the order is the slope over the whole range, and over the three finest
  // (the asymptotic regime: implicit Euler's numerical damping w^2 dt / 2 is still large over T
  // at the coarse steps).
  const std::vector<double> dts =
      o.quick ? std::vector<double>{0.02, 0.01, 0.005}
              : std::vector<double>{0.02, 0.01, 0.005, 0.0025, 0.00125, 0.000625, 0.0003125};
  Table energy{"sap-spring-cylinder", {"case", "scheme", "t", "energy", "x"}, {}};
  Table order{"sap-spring-cylinder-order", {"case", "scheme", "dt", "e_q"}, {}};
  ExperimentResult res;
  for (const char* kase : {"frictionless", "rolling"}) {
    const bool rolling = std::string(kase) == "rolling";
    Result<Scene> sc = make_builtin_scene("spring-cylinder", {{"mu", rolling ? "1" : "0"}});
    if (!sc) {
      res.headlines.push_back(sc.error().message());
      return res;
    }
    const double z0 = sc->initial.r[0].z(), w = omega(sc->model, ks, rolling);
    for (const Scheme& scheme : kSchemes) {
      SimSettings st = sc->settings;
      st.integrator = scheme.integrator;
      st.dt = dt_energy;
      const double e0 = cylinder_energy(sc->model, sc->initial, ks, z0);
      double lo = 1.0, hi = 1.0;
      std::vector<double> ts{0.0}, es{1.0};
      energy.add({kase, scheme.name, 0.0, 1.0, x0});
      const int steps = static_cast<int>(std::lround(t_energy / st.dt));
      const RunStats rs =
          run_simulation(*sc, st, steps, [&](int, const Simulator&, const State& s) {
            const double e = cylinder_energy(sc->model, s, ks, z0) / e0;
            lo = std::min(lo, e), hi = std::max(hi, e);
            ts.push_back(s.t), es.push_back(e);
            energy.add({kase, scheme.name, s.t, e, s.r[0].x()});
          });
      if (!rs.completed)
        res.headlines.push_back(std::string(kase) + " " + scheme.name + ": " + rs.error);
      const std::string key = std::string(scheme.name) + "_" + kase;
      res.summary.push_back({"energy_band_" + key, hi - lo});
      // The paper's two numbers apart (Fig. 6): the steady decay, the least-squares slope of E/E0
      // in t [1/s]; and the oscillation, the largest peak-to-peak of E/E0 minus that trend over
      // one-second windows.
      double tm = 0.0, em = 0.0;
      for (size_t i = 0; i < ts.size(); ++i) tm += ts[i], em += es[i];
      tm /= double(ts.size()), em /= double(ts.size());
      double sxy = 0.0, sxx = 0.0;
      for (size_t i = 0; i < ts.size(); ++i)
        sxy += (ts[i] - tm) * (es[i] - em), sxx += (ts[i] - tm) * (ts[i] - tm);
      const double slope = sxx > 0.0 ? sxy / sxx : 0.0;
      double band = 0.0;
      for (double t0 = 0.0; t0 + 1.0 <= t_energy + 1e-9; t0 += 1.0) {
        double wlo = 1e300, whi = -1e300;
        for (size_t i = 0; i < ts.size(); ++i)
          if (ts[i] >= t0 - 1e-9 && ts[i] <= t0 + 1.0 + 1e-9) {
            const double d = es[i] - slope * ts[i];
            wlo = std::min(wlo, d), whi = std::max(whi, d);
          }
        if (whi >= wlo) band = std::max(band, whi - wlo);
      }
      res.summary.push_back({"energy_decay_per_s_" + key, -slope});
      res.summary.push_back({"energy_band_per_s_" + key, band});
      std::vector<double> eq;
      for (double dt : dts) {
        st.dt = dt;
        const int n = static_cast<int>(std::lround(t_order / dt));
        double sum = 0.0;
        const RunStats r = run_simulation(*sc, st, n, [&](int, const Simulator&, const State& s) {
          const double d = s.r[0].x() - x0 * std::cos(w * s.t);
          sum += d * d * dt;
        });
        const double e = r.completed ? std::sqrt(sum / t_order) : std::nan("");
        order.add({kase, scheme.name, dt, e});
        eq.push_back(e);
      }
      // The order over the whole dt range, and over the three finest steps alone.
      const std::vector<double> fine_dt(dts.end() - 3, dts.end()), fine_eq(eq.end() - 3, eq.end());
      res.summary.push_back({std::string("order_") + scheme.name + "_" + kase, log_slope(dts, eq)});
      res.summary.push_back(
          {std::string("order_fine_") + scheme.name + "_" + kase, log_slope(fine_dt, fine_eq)});
    }
  }
  // The brief names: the rolling case is the paper's order study (Fig. 7).
  auto find = [&](const std::string& key) {
    for (const auto& [k, v] : res.summary)
      if (k == key) return v;
    return std::nan("");
  };
  res.summary.push_back({"order_midpoint", find("order_midpoint_rolling")});
  res.summary.push_back({"order_symplectic", find("order_symplectic_rolling")});
  res.summary.push_back({"order_implicit", find("order_implicit_rolling")});
  char line[200];
  std::snprintf(line, sizeof line,
                "energy band (peak-to-peak / E0) at dt = 20 ms: midpoint %.3g%% rolling, %.3g%% "
                "frictionless; symplectic %.3g%% frictionless",
                100 * find("energy_band_midpoint_rolling"),
                100 * find("energy_band_midpoint_frictionless"),
                100 * find("energy_band_symplectic_frictionless"));
  res.headlines.push_back(line);
  std::snprintf(line, sizeof line,
                "order (slope of log e_q vs log dt, rolling): midpoint %.3g, symplectic %.3g, "
                "implicit %.3g",
                find("order_midpoint"), find("order_symplectic"), find("order_implicit"));
  res.headlines.push_back(line);
  res.tables.push_back(std::move(energy));
  res.tables.push_back(std::move(order));
  return res;
}

namespace {

// e_mu (eq. 33): (1/nc) sum_i |g_i . gamma_i| / l_p with g_i = v_c,i - vhat_c,i + R_i gamma_i,
// at the solver's v = u+ and gamma = lambda; 0 without contacts.
double complementarity_error(const Problem& p, const SapModel& m, const VecX& lambda, const VecX& v,
                             VecX& vc) {
  vc.resize(p.nl);
  p.apply_J(v, vc);
  double sum = 0.0;
  int nc = 0;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.cone != ConeKind::Coulomb) continue;
    double gg = 0.0;
    for (int k = 0; k < 3; ++k) {
      const int r = b.offset + k;
      gg += (vc[r] - m.vhat[r] + m.R[r] * lambda[r]) * lambda[r];
    }
    sum += std::abs(gg);
    ++nc;
  }
  if (nc == 0) return 0.0;
  const double lp = sap::cost(p, m, v, nullptr, nullptr, nullptr);
  return lp > 0.0 ? sum / nc / lp : 0.0;
}

struct ClutterRun {
  int n = 0;
  bool walls = true;
  int steps = 0;
  bool completed = false;
  std::string error;
  double seconds = 0.0;  // wall clock of the whole run
  std::vector<int> iterations;
  std::vector<double> em, emu;
  std::vector<int> contacts;
  double mean_slip = 0.0;  // mean |v_t| over the contacts carrying load at the last step
  int end_contacts = 0;
};

ClutterRun run_clutter(int n, bool walls, double duration, bool metrics) {
  ClutterRun run;
  run.n = n;
  run.walls = walls;
  Result<Scene> sc =
      make_builtin_scene("clutter", {{"n", std::to_string(n)}, {"walls", walls ? "1" : "0"}});
  if (!sc) {
    run.error = sc.error().message();
    return run;
  }
  const SimSettings& st = sc->settings;
  const int steps = static_cast<int>(std::lround(duration / st.dt));
  const SapParameters prm = sap_parameters(st.solver_settings);
  SapModel m;
  VecX u, vc;
  const auto t0 = std::chrono::steady_clock::now();
  const RunStats rs =
      run_simulation(*sc, st, steps, [&](int k, const Simulator& sim, const State&) {
        const Solution& x = sim.solution();
        const Problem& p = sim.problem();
        run.iterations.push_back(x.iterations);
        run.contacts.push_back(p.count(RowKind::Contact));
        if (!metrics) return;
        run.em.push_back(p.nl > 0 ? x.residual : 0.0);
        u.resize(6 * p.num_bodies);
        p.velocity_from_impulse(x.lambda, u);
        sap_model(p, prm, m);
        run.emu.push_back(complementarity_error(p, m, x.lambda, u, vc));
        if (k + 1 == steps) {  // the static end state: slip of the loaded contacts
          double slip = 0.0;
          int loaded = 0;
          for (const ConstraintBlock& b : p.blocks) {
            if (b.cone != ConeKind::Coulomb || !(x.lambda[b.offset + 2] > 0.0)) continue;
            slip += std::hypot(vc[b.offset], vc[b.offset + 1]);
            ++loaded;
          }
          run.end_contacts = loaded;
          run.mean_slip = loaded > 0 ? slip / loaded : 0.0;
        }
      });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.steps = rs.steps;
  run.completed = rs.completed;
  run.error = rs.error;
  return run;
}

double mean_of(const std::vector<int>& v, size_t from) {
  double s = 0.0;
  for (size_t i = from; i < v.size(); ++i) s += v[i];
  return v.size() > from ? s / static_cast<double>(v.size() - from) : std::nan("");
}

}  // namespace

ExperimentResult sap_clutter(const ExperimentOptions& o) {
  ExperimentResult res;
  const int n_base = o.quick ? 8 : 40;
  const double duration = o.quick ? 1.5 : 10.0, dt = 0.01;
  const ClutterRun base = run_clutter(n_base, true, duration, true);
  if (!base.completed)
    res.headlines.push_back("clutter n=" + std::to_string(n_base) + ": " + base.error);
  Table t{"sap-clutter", {"step", "t", "iterations", "e_m", "e_mu", "contacts"}, {}};
  for (size_t k = 0; k < base.iterations.size(); ++k)
    t.add({double(k + 1), (k + 1) * dt, double(base.iterations[k]), base.em[k], base.emu[k],
           double(base.contacts[k])});
  // Scalability (Figs. 11-12): time per step against the number of objects, with and without
  // walls, over the same simulated time. The only table with wall-clock numbers.
  std::vector<int> sizes = o.quick ? std::vector<int>{4, 8} : std::vector<int>{10, 40};
  if (o.full) sizes.push_back(160);
  Table sc{
      "sap-clutter-scaling",
      {"n", "walls", "steps", "completed", "iterations_mean", "contacts_mean", "time_per_step_ms"},
      {}};
  for (int n : sizes)
    for (bool walls : {true, false}) {
      const ClutterRun r = (n == n_base && walls) ? base : run_clutter(n, walls, duration, false);
      double contacts = 0.0;
      for (int c : r.contacts) contacts += c;
      sc.add({double(n), walls ? "yes" : "no", double(r.steps), r.completed ? "yes" : "no",
              mean_of(r.iterations, 0),
              r.contacts.empty() ? 0.0 : contacts / double(r.contacts.size()),
              r.steps > 0 ? 1e3 * r.seconds / r.steps : std::nan("")});
      res.summary.push_back(
          {"time_per_step_ms_n" + std::to_string(n) + (walls ? "_walls" : "_no_walls"),
           r.steps > 0 ? 1e3 * r.seconds / r.steps : std::nan("")});
    }
  const size_t half = base.iterations.size() / 2;
  double em_max = 0.0, emu_max = 0.0;
  for (double e : base.em) em_max = std::max(em_max, e);
  for (double e : base.emu) emu_max = std::max(emu_max, e);
  int it_max = 0;
  for (int i : base.iterations) it_max = std::max(it_max, i);
  const double sigma = 1e-3, mu = 1.0;
  res.summary.insert(res.summary.begin(),
                     {{"n", double(n_base)},
                      {"steps", double(base.steps)},
                      {"steady_iterations_mean", mean_of(base.iterations, half)},
                      {"iterations_mean", mean_of(base.iterations, 0)},
                      {"iterations_max", double(it_max)},
                      {"max_momentum_error", em_max},
                      {"complementarity_error", emu_max},
                      {"mean_slip_static", base.mean_slip},
                      {"loaded_contacts_static", double(base.end_contacts)},
                      {"slip_bound", sigma * mu * dt * kG}});
  char line[240];
  std::snprintf(line, sizeof line,
                "n = %d with walls, %g s at dt = 10 ms: %.3g Newton iterations/step over the last "
                "half (max %d), max e_m %.3g, max e_mu %.3g",
                n_base, duration, mean_of(base.iterations, half), it_max, em_max, emu_max);
  res.headlines.push_back(line);
  std::snprintf(line, sizeof line,
                "mean slip at the end %.3g m/s over %d loaded contacts; bound sigma mu dt g = %.3g "
                "m/s",
                base.mean_slip, base.end_contacts, sigma * mu * dt * kG);
  res.headlines.push_back(line);
  res.tables.push_back(std::move(t));
  res.tables.push_back(std::move(sc));
  return res;
}

}  // namespace moreau::bench
