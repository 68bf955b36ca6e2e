#pragma once
// Errors are values at the edges (loaders, command line): Result<T> carries a value or an Error
// naming the file, the element and what was expected. C++20 has no std::expected.
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace moreau {

struct Error {
  std::string file;      // may be empty (built in, or in memory)
  int line = 0;          // 0 when unknown
  std::string element;   // "joint 'knee' <limit>", "bodies[2].mass"
  std::string expected;  // "lower <= upper"
  std::string got;       // "0.5 > 0.1"

  std::string message() const {
    std::string m;
    if (!file.empty()) m += file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
    m += element;
    if (!expected.empty()) m += ": expected " + expected;
    if (!got.empty()) m += ", got " + got;
    return m;
  }
};

// A number as an Error's `got` text: 6 significant digits, the stream's default notation.
inline std::string error_number(double x) {
  std::ostringstream os;
  os.precision(6);
  os << x;
  return os.str();
}

template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Thrown only across internal boundaries where a Result cannot travel (e.g. deep in a parser);
// converted back into an Error at the edge.
struct ErrorException : std::runtime_error {
  Error error;
  explicit ErrorException(Error e) : std::runtime_error(e.message()), error(std::move(e)) {}
};

}  // namespace moreau
