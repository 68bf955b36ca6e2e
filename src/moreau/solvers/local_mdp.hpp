#pragma once
// The local maximum-dissipation problem of NBGS and RAISIM (report eq. 152-155, Alg. 4): for one
// contact with local Delassus block G (3x3 in [t, o, n], SPD), local free velocity b (v = G x + b)
// and an optional De Saxce estimate s,
//
//   lambda = argmin_x 1/2 x^T G x + x^T (b + s)   s.t.  x in K_mu,  n^T (G x + b) >= 0   (eq. 152)
//
// solved by the decision tree of Alg. 4 (open / frictionless / stick / slip). On slip the
// impulse lies on the conic section of the cone with the plane of maximum compression
// n^T (G x + b) = 0 (eq. 153b): with y = x_t and x_n = alpha - beta . y there (alpha = -b_n / G_nn,
// beta = G_tn / G_nn) the problem is min 1/2 y^T A y + c^T y over |y| <= mu (alpha - beta . y),
// A = G_tt - G_tn G_nt / G_nn. Its solution has v_n = 0 and v_t - beta s_n = -nu (y / |y| + mu
// beta), nu >= 0: with s = 0 and beta not parallel to y this is NOT the Coulomb law (v_t is not
// opposite to lambda_t), the defect under normal-tangent coupling that Le Lidec et al. point out
// (report Sec. 3.5). With s = Gamma(v) every Coulomb solution is a fixed point (RAISIM-DS). Pure
// and allocation-free.
#include "moreau/math/types.hpp"
#include "moreau/solvers/local_solvers.hpp"

namespace moreau::local {

// Real roots of p[4] x^4 + p[3] x^3 + p[2] x^2 + p[1] x + p[0] (leading zeros lower the degree),
// from the eigenvalues of the companion matrix, each polished by Newton on the polynomial.
// Roots whose imaginary part exceeds 1e-6 (1 + |real part|) are dropped; the rest are returned in
// ascending order. Returns their number (0 when every coefficient is zero).
int quartic_real_roots(const double p[5], double roots[4]);

// How the slip point on the conic section is found.
enum class Qcp : uint8_t {
  Quartic,    // P_MDP (Preclik): Lagrange multiplier of the conic as the root of a quartic
  Bisection,  // P_BS (Hwangbo): bisection on the derivative of the objective along the section
};

struct MdpResult {
  Vec3 lambda = Vec3::Zero();
  ExactResult::Case kind = ExactResult::Open;
  // Qcp::Quartic only: no root of the quartic passed the optimality test and the bisection gave
  // the answer (or the section is degenerate for the quartic).
  bool fallback = false;
};

// Alg. 4 with the QCP (eq. 152). Ginv = G^-1 (regularized). prev (optional): the previous impulse;
// when it lies on the cone boundary it seeds the slip search (Newton on the KKT system for
// Qcp::Quartic, a +-0.05 rad bracket for Qcp::Bisection).
MdpResult mdp(const Mat3& G, const Mat3& Ginv, const Vec3& b, const Vec3& s, double mu, Qcp method,
              const Vec3& prev = Vec3::Zero());

// Optimality of a slip impulse for eq. 152: the larger of |phi| / (mu alpha) (distance to the
// section's boundary, phi = |y| - mu (alpha - beta . y)), |n^T (G x + b)| / |b_n| and the
// stationarity defect |grad q x grad phi| / ((|A y| + |c|) |grad phi|) (zero when the gradient
// of the objective is normal to the boundary); infinity when grad q points outward (nu < 0) or x
// is not on the plane's branch with x_n > 0. Zero for the exact slip solution.
double mdp_slip_defect(const Vec3& lambda, const Mat3& G, const Vec3& b, const Vec3& s, double mu);

}  // namespace moreau::local
