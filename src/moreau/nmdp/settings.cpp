#include "moreau/nmdp/settings.hpp"

#include <cmath>

namespace moreau::nmdp {

namespace {

std::optional<Error> bad(const std::string& field, const std::string& expected, double got) {
  Error e;
  e.element = "nmdp." + field;
  e.expected = expected;
  e.got = error_number(got);
  return e;
}

bool finite_positive(double x) {
  return std::isfinite(x) && x > 0.0;
}

}  // namespace

const char* nmdp_form_name(NmdpForm f) {
  return f == NmdpForm::PositionBased ? "pbd" : "ne";
}

bool parse_nmdp_form(const std::string& name, NmdpForm* f) {
  if (name == "ne") {
    *f = NmdpForm::NewtonEuler;
  } else if (name == "pbd") {
    *f = NmdpForm::PositionBased;
  } else {
    return false;
  }
  return true;
}

const char* servo_form_name(ServoForm f) {
  return f == ServoForm::Tan ? "tan" : "implicit";
}

bool parse_servo_form(const std::string& name, ServoForm* f) {
  if (name == "implicit") {
    *f = ServoForm::Implicit;
  } else if (name == "tan") {
    *f = ServoForm::Tan;
  } else {
    return false;
  }
  return true;
}

const char* nmdp_objective_name(NmdpObjective o) {
  return o == NmdpObjective::Dissipation ? "dissipation" : "kinetic";
}

bool parse_nmdp_objective(const std::string& name, NmdpObjective* o) {
  if (name == "kinetic") {
    *o = NmdpObjective::Kinetic;
  } else if (name == "dissipation") {
    *o = NmdpObjective::Dissipation;
  } else {
    return false;
  }
  return true;
}

std::optional<Error> validate(const NmdpSettings& s) {
  if (!std::isfinite(s.k) || s.k < 0.0) return bad("k", "a finite number >= 0 (0: automatic)", s.k);
  if (!finite_positive(s.delta)) return bad("delta", "a finite number > 0 [m]", s.delta);
  if (s.expected_contacts < 1)
    return bad("expected_contacts", "an integer >= 1", s.expected_contacts);
  if (s.directions < 3 || s.directions > 64)
    return bad("directions", "an integer in [3, 64]", s.directions);
  if (!std::isfinite(s.zeta) || s.zeta < 0.0) return bad("zeta", "a finite number >= 0", s.zeta);
  if (!finite_positive(s.tol_G)) return bad("tol_G", "a finite number > 0", s.tol_G);
  if (!finite_positive(s.tol_loop)) return bad("tol_loop", "a finite number > 0", s.tol_loop);
  if (!finite_positive(s.epsilon)) return bad("epsilon", "a finite number > 0", s.epsilon);
  if (!std::isfinite(s.eta) || s.eta <= 1.0) return bad("eta", "a finite number > 1", s.eta);
  if (!finite_positive(s.gamma0)) return bad("gamma0", "a finite number > 0", s.gamma0);
  if (s.max_outer < 1) return bad("max_outer", "an integer >= 1", s.max_outer);
  if (s.max_projection < 1) return bad("max_projection", "an integer >= 1", s.max_projection);
  if (!finite_positive(s.min_step)) return bad("min_step", "a finite number > 0 [s]", s.min_step);
  if (!std::isfinite(s.contact_margin) || s.contact_margin < 0.0)
    return bad("contact_margin", "a finite number >= 0 [m]", s.contact_margin);
  return std::nullopt;
}

}  // namespace moreau::nmdp
