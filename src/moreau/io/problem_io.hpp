#pragma once
// Problem dumps: one time step's Problem in a small self-describing file, read back bit for bit
// (`moreau simulate --dump-problems DIR`, `moreau solve FILE`). Layout (docs/solvers.md):
//   line 1  "MOREAU-PROBLEM 1"
//   line 2  a one-line JSON header: sizes, block metadata (integers), D's block structure, the
//           list of double arrays that follow with their lengths
//   rest    the double arrays, raw IEEE-754 binary64 little-endian, in the header's order
// Doubles never pass through text, so the round trip is exact (NaN payloads included).
#include <optional>
#include <string>

#include "moreau/dynamics/problem.hpp"
#include "moreau/model/error.hpp"

namespace moreau {

// Conventional extension of a Problem dump.
inline constexpr const char* kProblemExtension = ".mprob";

// Writes p to path (overwrites). Returns an Error naming the path on failure.
std::optional<Error> save_problem(const Problem& p, const std::string& path);

// Reads a dump written by save_problem. Errors name the file and what is wrong (bad magic,
// truncated data, inconsistent sizes); the Problem is checked with Problem::validate().
Result<Problem> load_problem(const std::string& path);

// The same layout in memory (the Python module pickles Problems with it): exact, like the file.
// `label` names the source in errors.
std::string problem_to_bytes(const Problem& p);
Result<Problem> problem_from_bytes(const std::string& bytes, const std::string& label);

}  // namespace moreau
