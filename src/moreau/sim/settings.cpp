#include "moreau/sim/settings.hpp"

namespace moreau {

namespace {
struct IntegratorName {
  Integrator value;
  const char* name;
  const char* alias;
};
constexpr IntegratorName kNames[] = {
    {Integrator::SemiImplicitEuler, "semi-implicit-euler", "euler"},
    {Integrator::MoreauMidpoint, "moreau-midpoint", "midpoint"},
    {Integrator::SapSymplecticEuler, "sap-symplectic", nullptr},
    {Integrator::SapImplicitEuler, "sap-implicit", nullptr},
    {Integrator::SapMidpoint, "sap-midpoint", nullptr},
    {Integrator::Mdp, "mdp", nullptr},
    {Integrator::Nmdp, "nmdp", nullptr},
    {Integrator::NmdpZo, "nmdp-zo", nullptr},
};
}  // namespace

const char* integrator_name(Integrator i) {
  for (const IntegratorName& n : kNames)
    if (n.value == i) return n.name;
  return "unknown";
}

bool parse_integrator(const std::string& s, Integrator* out) {
  for (const IntegratorName& n : kNames)
    if (s == n.name || (n.alias && s == n.alias)) {
      *out = n.value;
      return true;
    }
  return false;
}

const char* integrator_names() {
  return "semi-implicit-euler (euler), moreau-midpoint (midpoint), sap-symplectic, sap-implicit, "
         "sap-midpoint, mdp, nmdp, nmdp-zo";
}

bool integrator_theta(Integrator i, double* theta, double* theta_vq) {
  double t = 0.0, tvq = 0.0;
  switch (i) {
    case Integrator::SapSymplecticEuler:
      t = 0.0, tvq = 1.0;
      break;
    case Integrator::SapImplicitEuler:
      t = 1.0, tvq = 1.0;
      break;
    case Integrator::SapMidpoint:
      t = 0.5, tvq = 0.5;
      break;
    default:
      return false;
  }
  if (theta) *theta = t;
  if (theta_vq) *theta_vq = tvq;
  return true;
}

std::string integrator_solver_error(Integrator i, const std::string& solver) {
  if (!integrator_theta(i) || solver == "sap") return {};
  return std::string("integrator '") + integrator_name(i) +
         "' is SAP's theta-method (Castro et al. 2023): it needs solver 'sap', got '" + solver +
         "'";
}

}  // namespace moreau
