#pragma once
// Runs the built `moreau` binary (build it first: ninja -C build moreau) and captures its exit
// code, stdout and stderr. stderr goes to a file, so it is not a terminal (no progress bar).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace moreau::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string moreau_binary() {
  return MOREAU_BINARY_DIR "/moreau";
}

// A fresh directory under the gtest temp dir, removed with its content on destruction.
class TempDir {
 public:
  TempDir() {
    std::string templ = ::testing::TempDir() + "moreau-cli-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data())) path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  // Names of the entries in the directory, sorted.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::string path_;
};

// Runs `moreau ARGS` (ARGS is pasted into a shell command line: quote paths with spaces).
inline CliResult run_moreau(const std::string& args) {
  CliResult r;
  TempDir tmp;
  const std::string err_path = tmp / "stderr.txt";
  const std::string cmd = "'" + moreau_binary() + "' " + args + " 2>'" + err_path + "'";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_path);
  return r;
}

// Skips nothing: a missing binary is a failure with a hint.
inline void require_binary() {
  ASSERT_TRUE(std::filesystem::exists(moreau_binary()))
      << moreau_binary() << " is missing: build the `moreau` target before running test_cli";
}

}  // namespace moreau::test
