#pragma once
// Output files that appear only on success: written to a temporary file in the destination's
// directory and renamed over the destination by commit(); removed if never committed.
#include <cstdio>
#include <string>

namespace moreau::cli {

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile() { discard(); }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Creates the temporary file next to `path`. Returns an empty string on success, else why not
  // (missing directory, no permission), naming the path.
  std::string open(const std::string& path);
  std::FILE* file() const { return f_; }
  // Flushes, closes and renames the temporary file to the destination. Returns an empty string
  // on success, else the error (the temporary file is then removed).
  std::string commit();
  // Closes and removes the temporary file (no-op after commit or when never opened).
  void discard();

 private:
  std::string path_, tmp_;
  std::FILE* f_ = nullptr;
};

// Lower-case extension of `path` without the dot ("" when none).
std::string file_extension(const std::string& path);

}  // namespace moreau::cli
