#pragma once
// Gait references of the suite's `quadruped` (`--set gait=stand|walk|jump`, docs/scenes.md): joint-
// angle keyframes over one period for each leg's abduction, hip and knee, evaluated each step by
// the actuators (DofActuator::keyframes, model/joint.hpp) and tracked by stable PD servos (Tan,
// Liu & Turk 2011). The jump and walk follow the experiments of Pan & Hauser 2021 (Sec. VI: a 10 s
// reference with 5 jumps, a walk whose distance is linear in time).
//
// Leg geometry (suite_robots.cpp): hinges about y at the hip and the knee, thigh and shank of
// L = 0.2 m from hip to knee and from knee to the foot sphere's centre; positive angles swing the
// leg backwards. A foot at (x, -D) from its hip (x forward, D below) has
//   knee = -+2 acos(r / 2L),  hip = atan2(-x, D) - knee / 2,   r = |(x, D)|.
// The hind knees bend forward (knee < 0, as in the `stand` targets) and the front knees backward
// (knee > 0, "elbows"): the legs' reaction torques on the trunk then cancel in pitch, where four
// legs folding the same way pitch the trunk over at the first jump.
#include <array>
#include <vector>

namespace moreau::builtin {

using Keyframes = std::vector<std::array<double, 2>>;  // (t [s], q [rad]) over one period

struct LegReference {
  Keyframes abduction, hip, knee;
};

// Jump: every leg in phase, one jump per period.
struct JumpParams {
  double period = 2.0;         // s: 5 jumps in 10 s
  double stand_depth = 0.34;   // m, foot centre below the hip while standing
  double crouch_depth = 0.25;  // m, before take-off
  double crouch_start = 0.3;   // s into the period: start lowering
  double crouch_end = 0.8;     // s: lowest point
  double push_end = 0.95;      // s: legs extended (take-off), a 0.15 m push in 0.15 s
  double push_depth = 0.395;   // m, nearly straight legs at take-off
  double tuck_time = 1.02;     // s: legs pulled in the air
  double tuck_depth = 0.28;    // m
  double land_time = 1.15;     // s: legs out to stand_depth before touch-down
  double absorb_time = 1.4;    // s: give way after touch-down ...
  double absorb_depth = 0.29;  // m
  double recover_time = 1.7;   // s: ... and stand again until the next crouch
};

// Walk: a trot (diagonal pairs fl+hr and fr+hl in anti-phase), duty factor 1/2. In stance a foot
// moves back by `stride` at `depth`; in swing it returns along a half-sine of height `clearance`.
// Commanded speed 2 stride / period.
struct WalkParams {
  double period = 0.5;      // s, one full cycle
  double stride = 0.1;      // m: 0.4 m/s commanded
  double depth = 0.34;      // m, foot centre below the hip in stance
  double clearance = 0.05;  // m, swing height
  int samples = 16;         // keyframes per period
};

double walk_speed(const WalkParams& p);

// Per-leg references in the scene's leg order fl, fr, hl, hr.
std::array<LegReference, 4> jump_reference(const JumpParams& p);
std::array<LegReference, 4> walk_reference(const WalkParams& p);

// Leg inverse kinematics (the formula above): hip and knee angles for the foot at (x, -depth),
// knee_sign -1 (knee bent forward, hind legs) or +1 (backward, front legs).
std::array<double, 2> leg_ik(double x, double depth, double knee_sign);

}  // namespace moreau::builtin
