#pragma once
// Per-contact (local) solvers of the PGS family (report Sec. 3.5, Alg. 2-4). A contact block has
// the local Delassus block G = D_kk (+ R_kk), 3x3 in [t, o, n], and the local free velocity
// b = v_f,k + sum_{m != k} D_km lambda_m, so that v_k = G lambda_k + b. All functions are pure
// and allocation-free.
#include "moreau/math/types.hpp"

namespace moreau::local {

// Alg. 2, P_CCP: lambda <- P_K(lambda - (3 / tr G) z), one Euclidean cone step, with the local
// (augmented) velocity z = G lambda + b + s (line 1).
Vec3 ccp_step(const Vec3& lambda, const Vec3& z, const Mat3& G, double mu);

// Alg. 3, P_NCP: decoupled normal step 1/G_nn on R_+, then tangent step 1/min(G_tt, G_oo) on the
// disk of radius mu lambda_n; z = G lambda + b + s is evaluated once, with the old lambda.
Vec3 ncp_step(const Vec3& lambda, const Vec3& z, const Mat3& G, double mu);

// Which single-contact law the exact solver satisfies.
enum class Law : uint8_t {
  // The Coulomb law on v = G lambda + b (nbgs-exact): open if b_n >= 0, else stick (v = 0) or
  // slip (|lambda_t| = mu lambda_n, v_n = 0, v_t = -beta lambda_t / |lambda_t|, beta >= 0).
  Coulomb,
  // The cone complementarity K* ∋ G lambda + b ⊥ lambda ∈ K: the unique minimizer of
  // 1/2 x^T G x + x^T b over K (G SPD). Slip: v on the ray of dK* orthogonal to lambda,
  // v = beta [-e, mu]. (The report's NBGS / RAISIM solve the QCP of eq. 152 instead:
  // solvers/local_mdp.hpp.)
  Cone,
};
// How the slip angle theta (lambda_t = mu lambda_n [cos, sin]) is found.
enum class Slip : uint8_t {
  Quartic,    // P_MDP (Preclik): the slip condition as a quartic in tan(theta / 2), Newton-polished
  Bisection,  // P_BS (Hwangbo): bracketing on 16 angles and bisection to machine precision
};

struct ExactResult {
  Vec3 lambda = Vec3::Zero();
  enum Case : uint8_t { Open, Frictionless, Stick, SlipCase, NoRoot } kind = Open;
};

// Alg. 4, P_NB: the exact single-contact solve by the decision tree open / frictionless / stick /
// slip. Ginv = G^-1 (regularized). NoRoot: no admissible slip angle was found (only for a G
// that is not SPD); lambda is then the best candidate by the local natural map.
// prev (optional): the previous impulse; when it slips, Slip::Bisection first brackets its angle.
ExactResult exact(const Mat3& G, const Mat3& Ginv, const Vec3& b, double mu, Law law, Slip slip,
                  const Vec3& prev = Vec3::Zero());

// The local natural-map residual ||lambda - P_K(lambda - w)||_inf with w = G lambda + b, plus
// De Saxce Gamma(w) when law == Coulomb (eq. 163 on one contact).
double local_natmap(const Vec3& lambda, const Mat3& G, const Vec3& b, double mu, Law law);

}  // namespace moreau::local
