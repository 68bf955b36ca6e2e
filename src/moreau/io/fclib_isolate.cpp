// load_fclib: load_fclib_in_process in a forked child, the result sent back through a pipe, so
// that a crash of libhdf5 on a corrupt file is an Error of the caller (docs/reliability.md).
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "moreau/io/fclib.hpp"
#include "moreau/io/problem_io.hpp"

#if defined(__unix__)
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace moreau {

namespace {

// The wire: fixed-width integers and doubles in this machine's layout (parent and child are the
// same binary), strings as a length and their bytes.
struct Wire {
  std::string bytes;
  void u64(uint64_t x) { bytes.append(reinterpret_cast<const char*>(&x), sizeof x); }
  void f64(double x) { bytes.append(reinterpret_cast<const char*>(&x), sizeof x); }
  void str(const std::string& s) {
    u64(s.size());
    bytes += s;
  }
};

struct Reading {
  const std::string& bytes;
  size_t at = 0;
  bool ok = true;
  bool take(void* out, size_t n) {
    if (!ok || bytes.size() - at < n) return ok = false;
    std::memcpy(out, bytes.data() + at, n);
    at += n;
    return true;
  }
  uint64_t u64() {
    uint64_t x = 0;
    take(&x, sizeof x);
    return x;
  }
  double f64() {
    double x = 0;
    take(&x, sizeof x);
    return x;
  }
  std::string str() {
    const uint64_t n = u64();
    if (!ok || bytes.size() - at < n) {
      ok = false;
      return {};
    }
    std::string s = bytes.substr(at, n);
    at += n;
    return s;
  }
};

std::string encode(const Result<FclibProblem>& r) {
  Wire w;
  w.u64(r.ok());
  if (!r) {
    const Error& e = r.error();
    w.str(e.file);
    w.u64(static_cast<uint64_t>(e.line));
    w.str(e.element);
    w.str(e.expected);
    w.str(e.got);
    return std::move(w.bytes);
  }
  w.str(r->kind);
  w.str(r->title);
  w.str(r->description);
  w.u64(static_cast<uint64_t>(r->contacts));
  w.f64(r->asymmetry);
  w.u64(static_cast<uint64_t>(r->solution.size()));
  for (Eigen::Index k = 0; k < r->solution.size(); ++k) w.f64(r->solution[k]);
  w.str(problem_to_bytes(r->problem));
  return std::move(w.bytes);
}

Result<FclibProblem> decode(const std::string& bytes, const std::string& path) {
  Reading in{bytes};
  const bool ok = in.u64() != 0;
  if (!ok) {
    Error e;
    e.file = in.str();
    e.line = static_cast<int>(in.u64());
    e.element = in.str();
    e.expected = in.str();
    e.got = in.str();
    if (in.ok) return e;
  } else {
    FclibProblem p;
    p.kind = in.str();
    p.title = in.str();
    p.description = in.str();
    p.contacts = static_cast<int>(in.u64());
    p.asymmetry = in.f64();
    const uint64_t n = in.u64();
    if (in.ok && n <= bytes.size() / sizeof(double)) {
      p.solution.resize(static_cast<Eigen::Index>(n));
      for (uint64_t k = 0; k < n; ++k) p.solution[static_cast<Eigen::Index>(k)] = in.f64();
      const std::string problem = in.str();
      if (in.ok) {
        Result<Problem> q = problem_from_bytes(problem, path);
        if (!q) return q.error();
        p.problem = std::move(*q);
        return p;
      }
    }
  }
  return Error{path, 0, "FCLib file", "a reply from the reading process", "a truncated reply"};
}

#if defined(__unix__)
// Bounds on what a corrupt file can make libhdf5 take in the child: 1 GiB plus 64 times the file's
// size of address space beyond what the process already maps, and 120 s of CPU time. Beyond them
// an allocation fails or the child is killed, and the caller gets an Error.
void limit_child(const std::string& path) {
  unsigned long long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  struct stat st {};
  const unsigned long long size = ::stat(path.c_str(), &st) == 0 ? st.st_size : 0;
  const rlim_t as =
      pages * static_cast<unsigned long long>(::sysconf(_SC_PAGESIZE)) + (1ull << 30) + 64 * size;
  const rlimit mem{as, as}, cpu{120, 120};
  ::setrlimit(RLIMIT_AS, &mem);
  ::setrlimit(RLIMIT_CPU, &cpu);
}
#endif

}  // namespace

Result<FclibProblem> load_fclib(const std::string& path) {
#if defined(__unix__)
  if (!fclib_supported()) return load_fclib_in_process(path);
  int fd[2];
  if (::pipe(fd) != 0) return load_fclib_in_process(path);
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fd[0]);
    ::close(fd[1]);
    return load_fclib_in_process(path);
  }
  if (child == 0) {  // the child: read, send, leave without running the parent's exit handlers
    ::close(fd[0]);
    const int quiet = ::open("/dev/null", O_WRONLY);  // a crash report is the parent's Error
    if (quiet >= 0) ::dup2(quiet, 2);
    limit_child(path);
    const std::string bytes = encode(load_fclib_in_process(path));
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::write(fd[1], bytes.data() + sent, bytes.size() - sent);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(3);
      sent += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fd[1]);
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buf, static_cast<size_t>(n));
  }
  ::close(fd[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return Error{path, 0, "FCLib file", "an HDF5 file libhdf5 reads",
                 "libhdf5 crashed reading it (signal " + std::to_string(WTERMSIG(status)) + ", " +
                     ::strsignal(WTERMSIG(status)) + ")"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Error{path, 0, "FCLib file", "an HDF5 file libhdf5 reads",
                 "the reading process failed (exit status " +
                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")"};
  return decode(bytes, path);
#else
  return load_fclib_in_process(path);
#endif
}

}  // namespace moreau
